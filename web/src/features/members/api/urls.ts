/** Addresses the browser downloads from itself (links with `download`), not fetched by the app. */

/** A session's own calendar file. */
export function sessionCalendarUrl(id: string): string {
  return `/api/sessions/${encodeURIComponent(id)}/calendar.ics`;
}

/** The wait list as CSV (admins). */
export const WAITLIST_CSV_URL = '/api/admin/waitlist.csv';

/** Joining a session: the server records attendance in the session's window and redirects to the meeting. */
export function sessionJoinUrl(id: string): string {
  return `/api/sessions/${encodeURIComponent(id)}/join`;
}

/** A session's attendance sheet as CSV (admins). */
export function attendanceCsvUrl(id: string): string {
  return `/api/admin/sessions/${encodeURIComponent(id)}/attendance?format=csv`;
}

/** The admins' CSV exports, by file. */
export const EXPORTS = ['members', 'ledger', 'bookings', 'attendance', 'waitlist'] as const;
export type ExportName = (typeof EXPORTS)[number];

/** One of the admins' CSV exports. */
export function exportCsvUrl(name: ExportName): string {
  return `/api/admin/export/${name}.csv`;
}
