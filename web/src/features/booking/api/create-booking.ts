import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MutationConfig } from '@/lib/query';
import { bookingKeys } from './keys';
import { postJson } from './request';
import type { BookingCreated, BookingInput } from './types';

/**
 * `POST /api/bookings`: holds the time (payments on: Checkout follows), requests it (payments
 * off) or confirms it (a free type); a seat of a group training names its date (`event_id`).
 * Refused: `409 slot_taken` (`409 sold_out` for a seat), `400` with the field, `429`
 * with Retry-After ({@link RetryLaterError}).
 */
export function createBooking(input: BookingInput): Promise<BookingCreated> {
  return postJson<BookingCreated>('/api/bookings', input);
}

export function useCreateBooking({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof createBooking>;
} = {}) {
  const client = useQueryClient();
  const { onSettled, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: createBooking,
    // Whatever happened, the free times changed or were stale: read them again.
    onSettled: (...args) => {
      void client.invalidateQueries({ queryKey: bookingKeys.slotsAll });
      void client.invalidateQueries({ queryKey: bookingKeys.eventsAll });
      return onSettled?.(...args);
    },
  });
}
