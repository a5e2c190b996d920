import type { BookingStatus, BookingView } from './api/types';

/** How long the page follows a hold waiting for payment (2 s apart), before it stops asking. */
export const POLL_MS = 2_000;
export const POLL_FOR_MS = 120_000;

/** What a booker reads for each status. */
export const STATUS_TEXT: Record<BookingStatus, string> = {
  held: 'Waiting for payment',
  requested: 'Request sent',
  confirmed: 'Confirmed',
  cancelled: 'Cancelled',
  expired: 'Expired',
  declined: 'Declined',
  completed: 'Completed',
  no_show: 'Missed',
};

/** Whether the booking may still be moved or cancelled online, as far as the page can tell. */
export function canChange(view: BookingView, now: number = Date.now()): boolean {
  const { status } = view.booking;
  if (status !== 'requested' && status !== 'confirmed') return false;
  if (view.can_change !== undefined) return view.can_change;
  if (view.change_until) return Date.parse(view.change_until) > now;
  return Date.parse(view.booking.start) > now;
}

/** Whether a move is still allowed (at most two per booking). */
export function canReschedule(view: BookingView, now: number = Date.now()): boolean {
  if (!canChange(view, now)) return false;
  if (view.can_reschedule !== undefined) return view.can_reschedule;
  return view.booking.reschedule_count < 2;
}
