import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { QueryConfig } from '@/lib/query';
import { bookingKeys } from './keys';
import type { Slots } from './types';

export interface SlotsParams {
  type: string;
  /** First and last date, YYYY-MM-DD in `tz`, at most 62 days apart. */
  from: string;
  to: string;
  tz: string;
}

/** `GET /api/booking/slots`: the free starts per date of the visitor's calendar. */
export function getSlots(params: SlotsParams, signal?: AbortSignal): Promise<Slots> {
  const q = new URLSearchParams({
    type: params.type,
    from: params.from,
    to: params.to,
    tz: params.tz,
  });
  return api.get<Slots>(`/api/booking/slots?${q.toString()}`, signal);
}

export function getSlotsQueryOptions(params: SlotsParams) {
  return queryOptions({
    queryKey: bookingKeys.slots(params.type, params.from, params.to, params.tz),
    queryFn: ({ signal }) => getSlots(params, signal),
    // Free times change as others book: never older than half a minute.
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function useSlots({
  params,
  queryConfig,
}: {
  params: SlotsParams;
  queryConfig?: QueryConfig<typeof getSlotsQueryOptions>;
}) {
  return useQuery({ ...getSlotsQueryOptions(params), ...queryConfig });
}
