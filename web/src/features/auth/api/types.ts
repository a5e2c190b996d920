/** JSON the account endpoints answer that only this feature reads (docs/api.md). */

/** `POST /api/waitlist`: `added` (201) for a new entry, `already` (200) for a known address. */
export interface WaitlistJoined {
  status: 'added' | 'already';
  message: string;
}
