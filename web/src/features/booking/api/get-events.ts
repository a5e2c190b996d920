import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { QueryConfig } from '@/lib/query';
import { bookingKeys } from './keys';
import type { EventList } from './types';

/** `GET /api/booking/events?type=…`: the upcoming dates of a group training, with seats left. */
export function getEvents(type: string, signal?: AbortSignal): Promise<EventList> {
  return api.get<EventList>(`/api/booking/events?type=${encodeURIComponent(type)}`, signal);
}

export function getEventsQueryOptions(type: string) {
  return queryOptions({
    queryKey: bookingKeys.events(type),
    queryFn: ({ signal }) => getEvents(type, signal),
    // Seats go as others buy: never older than half a minute.
    staleTime: 30_000,
  });
}

export function useEvents({
  type,
  queryConfig,
}: {
  type: string;
  queryConfig?: QueryConfig<typeof getEventsQueryOptions>;
}) {
  return useQuery({ ...getEventsQueryOptions(type), ...queryConfig });
}
