/** TanStack Query keys of the members area, one per resource; every key starts with `members`. */
export const membersKeys = {
  all: ['members'] as const,
  overview: ['members', 'overview'] as const,
  profile: ['members', 'profile'] as const,
  cohorts: ['members', 'cohorts'] as const,
  sessions: ['members', 'sessions'] as const,
  feed: ['members', 'calendar-feed'] as const,
  waitlist: ['members', 'waitlist'] as const,
  adminMembers: ['members', 'admin-members'] as const,
  /** The member's own progress through the levels. */
  progress: ['members', 'progress'] as const,
  /** The member's own awards and suggestions. */
  myAwards: ['members', 'my-awards'] as const,
  /** Every award (admins). */
  awards: ['members', 'awards'] as const,
  /** Every attendance sheet; one session's is `attendance(id)`. */
  attendanceAll: ['members', 'attendance'] as const,
  attendance: (sessionId: string) => ['members', 'attendance', sessionId] as const,
  /** Every list of the projects board and every project's comments. */
  projects: ['members', 'projects'] as const,
  /** The board, or one member's projects (`me` for the caller's own). */
  projectList: (author: string) => ['members', 'projects', 'list', author] as const,
  comments: (projectId: string) => ['members', 'projects', 'comments', projectId] as const,
  /** Every search of the member directory; one is `directorySearch(q)`. */
  directory: ['members', 'directory'] as const,
  directorySearch: (q: string) => ['members', 'directory', q] as const,
  /** The questions the knowledge base answered weakly, grouped (admins). */
  knowledgeGaps: ['members', 'knowledge-gaps'] as const,
  /** Every page of the knowledge-base documents; one page is `documentsPage(limit, offset)`. */
  documents: ['members', 'documents'] as const,
  documentsPage: (limit: number, offset: number) =>
    ['members', 'documents', { limit, offset }] as const,
};
