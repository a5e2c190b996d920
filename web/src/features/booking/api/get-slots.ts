import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getSlots, type SlotsParams } from '@/lib/booking-slots';
import type { QueryConfig } from '@/lib/query';
import { bookingKeys } from './keys';

export type { SlotsParams };

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
