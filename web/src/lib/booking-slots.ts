/**
 * `GET /api/booking/slots`, shared by the booking pages and the console's `slots` command: the
 * free starts per date, written with the offset of the zone asked for (docs/api.md, "Booking").
 */
import { api } from '@/lib/api';
import type { Availability } from '@/lib/api-types/booking';

export interface SlotsParams {
  /** A bookable type's id, e.g. `session-30`. */
  type: string;
  /** First and last date, YYYY-MM-DD in `tz`, at most 62 days apart. */
  from: string;
  to: string;
  tz: string;
}

/** The free starts per date of the visitor's calendar. */
export function getSlots(params: SlotsParams, signal?: AbortSignal): Promise<Availability> {
  const q = new URLSearchParams({
    type: params.type,
    from: params.from,
    to: params.to,
    tz: params.tz,
  });
  return api.get<Availability>(`/api/booking/slots?${q.toString()}`, signal);
}
