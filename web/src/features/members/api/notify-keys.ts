/** Query keys of notifications and the at-risk list; under `members` like every key of the area. */
export const notifyKeys = {
  /** The member's own mail settings and time zone. */
  settings: ['members', 'notifications'] as const,
  /** Members who may be drifting away (admins). */
  atRisk: ['members', 'at-risk'] as const,
};
