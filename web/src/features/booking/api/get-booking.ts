import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { QueryConfig } from '@/lib/query';
import { bookingKeys } from './keys';
import type { BookingView } from './types';

/** The path of a booking's endpoints, with its manage token. */
export function bookingPath(id: string, token: string, action?: 'cancel' | 'reschedule'): string {
  const base = `/api/bookings/${encodeURIComponent(id)}`;
  return `${action ? `${base}/${action}` : base}?token=${encodeURIComponent(token)}`;
}

/** `GET /api/bookings/{id}?token=…`: a booking through its manage link (404 for a wrong token). */
export function getBooking(id: string, token: string, signal?: AbortSignal): Promise<BookingView> {
  return api.get<BookingView>(bookingPath(id, token), signal);
}

export function getBookingQueryOptions(id: string, token: string) {
  return queryOptions({
    queryKey: bookingKeys.booking(id),
    queryFn: ({ signal }) => getBooking(id, token, signal),
    staleTime: 0,
  });
}

export function useBooking({
  id,
  token,
  queryConfig,
}: {
  id: string;
  token: string;
  queryConfig?: QueryConfig<typeof getBookingQueryOptions>;
}) {
  return useQuery({ ...getBookingQueryOptions(id, token), ...queryConfig });
}
