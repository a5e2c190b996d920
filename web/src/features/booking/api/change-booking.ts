import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MutationConfig } from '@/lib/query';
import { bookingPath } from './get-booking';
import { bookingKeys } from './keys';
import { postJson } from './request';
import type { BookingView } from './types';

export interface ManageRef {
  id: string;
  token: string;
}

/** `POST /api/bookings/{id}/cancel?token=…`: cancels before the cut-off, with a full refund. */
export function cancelBooking(ref: ManageRef): Promise<BookingView> {
  return postJson<BookingView>(bookingPath(ref.id, ref.token, 'cancel'));
}

/** `POST /api/bookings/{id}/reschedule?token=…`: moves the booking to another free start. */
export function rescheduleBooking(ref: ManageRef & { start: string }): Promise<BookingView> {
  return postJson<BookingView>(bookingPath(ref.id, ref.token, 'reschedule'), {
    start: ref.start,
  });
}

/** Puts the answer on screen at once (when it is the booking) and reads the booking again. */
function useRefreshBooking() {
  const client = useQueryClient();
  return async (ref: ManageRef, answer: unknown) => {
    if (answer && typeof answer === 'object' && 'booking' in answer) {
      client.setQueryData(bookingKeys.booking(ref.id), (old: BookingView | undefined) => ({
        ...old,
        ...(answer as BookingView),
      }));
    }
    void client.invalidateQueries({ queryKey: bookingKeys.slotsAll });
    await client.invalidateQueries({ queryKey: bookingKeys.booking(ref.id) });
  };
}

export function useCancelBooking({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof cancelBooking>;
} = {}) {
  const refresh = useRefreshBooking();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: cancelBooking,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await refresh(args[1], args[0]);
    },
  });
}

export function useRescheduleBooking({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof rescheduleBooking>;
} = {}) {
  const refresh = useRefreshBooking();
  const client = useQueryClient();
  const { onSuccess, onSettled, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: rescheduleBooking,
    onSuccess: async (...args) => {
      await onSuccess?.(...args);
      await refresh(args[1], args[0]);
    },
    onSettled: (...args) => {
      void client.invalidateQueries({ queryKey: bookingKeys.slotsAll });
      return onSettled?.(...args);
    },
  });
}
