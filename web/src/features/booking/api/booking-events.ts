import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectLiveEvents } from '@/lib/events';
import { bookingKeys } from './keys';

/**
 * Follows `GET /api/bookings/{id}/events?token=…` while `enabled`: each `booking` notice (paid,
 * confirmed, moved, cancelled, refunded) reads the booking again. Nothing happens without
 * EventSource (the page polls instead).
 */
export function useBookingEvents(id: string, token: string, enabled: boolean): void {
  const client = useQueryClient();
  const supported = typeof EventSource !== 'undefined';
  useEffect(() => {
    if (!enabled || !supported) return;
    const refetch = () => void client.invalidateQueries({ queryKey: bookingKeys.booking(id) });
    return connectLiveEvents({
      url: `/api/bookings/${encodeURIComponent(id)}/events?token=${encodeURIComponent(token)}`,
      topics: ['booking'] as const,
      onTopic: refetch,
      onResync: refetch,
      // The booking was read before the stream opened: a payment in between is read now.
      onFirstReady: refetch,
      // The stream needs no session: a refusal is a lapsed link, which the next read shows.
      isSignedIn: async () => true,
      onSignedOut: () => {},
    });
  }, [client, id, token, enabled, supported]);
}
