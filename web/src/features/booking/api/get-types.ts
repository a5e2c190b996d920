import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { QueryConfig } from '@/lib/query';
import { bookingKeys } from './keys';
import type { BookingTypes } from './types';

/** `GET /api/booking/types`: what can be booked, and whether payment is taken online. */
export function getBookingTypes(signal?: AbortSignal): Promise<BookingTypes> {
  return api.get<BookingTypes>('/api/booking/types', signal);
}

export function getBookingTypesQueryOptions() {
  return queryOptions({
    queryKey: bookingKeys.types,
    queryFn: ({ signal }) => getBookingTypes(signal),
  });
}

export function useBookingTypes({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getBookingTypesQueryOptions>;
} = {}) {
  return useQuery({ ...getBookingTypesQueryOptions(), ...queryConfig });
}
