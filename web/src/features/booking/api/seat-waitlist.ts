/**
 * The seat wait list of a sold-out group training date (docs/api.md, "Group trainings by the
 * seat"): joining it, the owner's list, and the offer a freed seat's mail links to.
 */

import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { WaitlistRequest } from '@/lib/api-types/booking';
import type {
  OfferCheckout,
  OfferReply,
  SeatWaitlistJoined,
  SeatWaitlistReply,
} from '@/lib/api-types/web';

/** `POST /api/booking/events/{id}/waitlist`: the same answer whether the address was in line. */
export function joinSeatWaitlist(
  eventId: string,
  body: WaitlistRequest,
): Promise<SeatWaitlistJoined> {
  return api.post<SeatWaitlistJoined>(
    `/api/booking/events/${encodeURIComponent(eventId)}/waitlist`,
    body,
  );
}

/** `GET /api/admin/booking/events/{id}/waitlist`: the date's line, admins only. */
export function useSeatWaitlist(eventId: string) {
  return useQuery(
    queryOptions({
      queryKey: ['booking', 'admin', 'events', eventId, 'waitlist'] as const,
      queryFn: ({ signal }) =>
        api.get<SeatWaitlistReply>(
          `/api/admin/booking/events/${encodeURIComponent(eventId)}/waitlist`,
          signal,
        ),
    }),
  );
}

/** `GET /api/booking/offers/{token}`: the seat held for the link's holder, 404 once it ended. */
export function getOffer(token: string): Promise<OfferReply> {
  return api.get<OfferReply>(`/api/booking/offers/${encodeURIComponent(token)}`);
}

/** `POST /api/booking/offers/{token}/checkout`: where to pay for the offered seat. */
export function takeOffer(token: string): Promise<OfferCheckout> {
  return api.post<OfferCheckout>(`/api/booking/offers/${encodeURIComponent(token)}/checkout`, {});
}
