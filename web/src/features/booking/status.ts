import type { Booking, BookingStatus } from './api/types';
import { formatMinor } from './time';

/** Without the live stream (no EventSource), a hold is read again every 2 s for up to 2 minutes. */
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

/** Statuses that may still change (paid, confirmed, moved, cancelled): the page follows them live. */
export function isOpen(status: BookingStatus): boolean {
  return status === 'held' || status === 'requested' || status === 'confirmed';
}

/** Whether a move is still allowed: changeable, and moved fewer than twice. */
export function canReschedule(b: Booking): boolean {
  // A seat of a group training keeps its date: it can be cancelled, not moved.
  return b.can_change && b.reschedules_left > 0 && !b.event_id;
}

/** What cancelling gives back, said before the booker confirms. */
export function refundText(b: Booking): string {
  const paid = b.paid ? b.amount - b.refunded : 0;
  if (paid > 0) {
    return `You get a full refund of ${formatMinor(paid, b.currency)} to the card you paid with; banks take 5 to 10 days to show it.`;
  }
  if (b.amount > 0) return 'Nothing has been charged, so there is nothing to refund.';
  return 'This session is free: nothing to refund.';
}
