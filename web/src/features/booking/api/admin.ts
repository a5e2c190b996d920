/** The owner's booking endpoints (docs/api.md, "Booking", "Admins"); admin only on the server. */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig, QueryConfig } from '@/lib/query';
import { bookingKeys } from './keys';
import type {
  AdminAction,
  AdminBooking,
  AdminBookings,
  AdminScope,
  BookingFeedCreated,
  BookingFeedStatus,
  BookingSettings,
  SettingsBody,
} from './types';

/** `GET /api/admin/bookings?scope=…`: one list, and this month's money. */
export function getAdminBookings(scope: AdminScope, signal?: AbortSignal): Promise<AdminBookings> {
  return api.get<AdminBookings>(`/api/admin/bookings?scope=${scope}`, signal);
}

export function getAdminBookingsQueryOptions(scope: AdminScope) {
  return queryOptions({
    queryKey: bookingKeys.adminList(scope),
    queryFn: ({ signal }) => getAdminBookings(scope, signal),
    staleTime: 15_000,
  });
}

export function useAdminBookings({
  scope,
  queryConfig,
}: {
  scope: AdminScope;
  queryConfig?: QueryConfig<typeof getAdminBookingsQueryOptions>;
}) {
  return useQuery({ ...getAdminBookingsQueryOptions(scope), ...queryConfig });
}

/** `POST /api/admin/bookings/{id}/{action}`: confirm, decline, cancel (full refund), complete, no-show. */
export function bookingAction(input: {
  id: string;
  action: AdminAction;
}): Promise<{ booking: AdminBooking }> {
  return api.post<{ booking: AdminBooking }>(
    `/api/admin/bookings/${encodeURIComponent(input.id)}/${input.action}`,
  );
}

export function useBookingAction({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof bookingAction>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: bookingAction,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      // The booking moves between lists, and the month's money may change.
      await client.invalidateQueries({ queryKey: bookingKeys.admin });
    },
  });
}

/** `GET /api/admin/booking/settings`: the stored settings, or the defaults. */
export function getBookingSettings(signal?: AbortSignal): Promise<SettingsBody> {
  return api.get<SettingsBody>('/api/admin/booking/settings', signal);
}

export function getBookingSettingsQueryOptions() {
  return queryOptions({
    queryKey: bookingKeys.settings,
    queryFn: ({ signal }) => getBookingSettings(signal),
  });
}

export function useBookingSettings({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getBookingSettingsQueryOptions>;
} = {}) {
  return useQuery({ ...getBookingSettingsQueryOptions(), ...queryConfig });
}

/** `PUT /api/admin/booking/settings`: every field; `400` names the field it refuses. */
export function updateBookingSettings(settings: BookingSettings): Promise<SettingsBody> {
  return api.put<SettingsBody>('/api/admin/booking/settings', settings);
}

export function useUpdateBookingSettings({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof updateBookingSettings>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateBookingSettings,
    onSuccess: (...args) => {
      client.setQueryData(bookingKeys.settings, args[0]);
      return onSuccess?.(...args);
    },
  });
}

/** `GET /api/admin/booking/feed`: whether the owner's private feed of all bookings exists. */
export function getBookingFeed(signal?: AbortSignal): Promise<BookingFeedStatus> {
  return api.get<BookingFeedStatus>('/api/admin/booking/feed', signal);
}

export function getBookingFeedQueryOptions() {
  return queryOptions({
    queryKey: bookingKeys.feed,
    queryFn: ({ signal }) => getBookingFeed(signal),
  });
}

export function useBookingFeed() {
  return useQuery(getBookingFeedQueryOptions());
}

/** `POST /api/admin/booking/feed`: a new feed URL (replacing any old one), shown only now. */
export function createBookingFeed(): Promise<BookingFeedCreated> {
  return api.post<BookingFeedCreated>('/api/admin/booking/feed');
}

export function useCreateBookingFeed({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof createBookingFeed>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: createBookingFeed,
    onSuccess: (...args) => {
      const feed: BookingFeedStatus = { exists: true, created_at: args[0].created_at };
      client.setQueryData(bookingKeys.feed, feed);
      return onSuccess?.(...args);
    },
  });
}

/** `DELETE /api/admin/booking/feed`: the URL stops working. */
export function deleteBookingFeed(): Promise<void> {
  return api.delete<void>('/api/admin/booking/feed');
}

export function useDeleteBookingFeed({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof deleteBookingFeed>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteBookingFeed,
    onSuccess: (...args) => {
      const feed: BookingFeedStatus = { exists: false, created_at: null };
      client.setQueryData(bookingKeys.feed, feed);
      return onSuccess?.(...args);
    },
  });
}
