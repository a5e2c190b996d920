/** Addresses the browser downloads from itself (links with `download`), not fetched by the app. */

/** A session's own calendar file. */
export function sessionCalendarUrl(id: string): string {
  return `/api/sessions/${encodeURIComponent(id)}/calendar.ics`;
}

/** The wait list as CSV (admins). */
export const WAITLIST_CSV_URL = '/api/admin/waitlist.csv';
