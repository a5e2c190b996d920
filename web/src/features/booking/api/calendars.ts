/**
 * The owner's own calendars as busy time (docs/api.md, "Your calendars"): `GET|PUT
 * /api/admin/booking/calendars`; admin only on the server.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type * as wire from '@/lib/api-types/booking';
import type { MutationConfig } from '@/lib/query';
import { bookingKeys } from './keys';

export type CalendarFeed = wire.CalendarFeed;
export type CalendarFeeds = wire.CalendarFeeds;

const calendarsKey = [...bookingKeys.admin, 'calendars'] as const;

export function getCalendars(signal?: AbortSignal): Promise<CalendarFeeds> {
  return api.get<CalendarFeeds>('/api/admin/booking/calendars', signal);
}

export function getCalendarsQueryOptions() {
  return queryOptions({
    queryKey: calendarsKey,
    queryFn: ({ signal }) => getCalendars(signal),
    // A fetch runs every few minutes on the server; the status follows without a reload.
    refetchInterval: 60_000,
  });
}

export function useCalendars() {
  return useQuery(getCalendarsQueryOptions());
}

/**
 * `PUT /api/admin/booking/calendars`: the whole list of addresses. The server checks them and
 * loads new ones in the background (never inside this request): a new one answers "not loaded
 * yet" and its status follows on the list; `400` names the field `urls`.
 */
export function saveCalendars(urls: string[]): Promise<CalendarFeeds> {
  const body: wire.CalendarFeedsInput = { urls };
  return api.put<CalendarFeeds>('/api/admin/booking/calendars', body);
}

export function useSaveCalendars({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof saveCalendars>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: saveCalendars,
    onSuccess: async (...args) => {
      client.setQueryData(calendarsKey, args[0]);
      // Busy time changed: every month of slots is stale.
      await client.invalidateQueries({ queryKey: bookingKeys.slotsAll });
      return onSuccess?.(...args);
    },
  });
}
