/** The members area's rules that are worth testing on their own: texts, levels, dates, validation. */
import type { Subscription, TribeStatus } from '@/lib/api-types/billing';
import type { CohortInput, SessionView as LiveSession } from '@/lib/api-types/community';
import type { Progress, Step } from '@/lib/api-types/levels';
import type { MembersOverview } from '@/lib/api-types/web';
import { plural } from '@/lib/plural';
import { shortDateTime } from '@/lib/time-zone';

const longDay = (timeZone?: string) =>
  new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone,
  });

/** A date as "December 3, 2026" (or with the weekday), in the viewer's zone unless one is given. */
export function formatLongDate(iso: string, timeZone?: string, weekday = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  if (weekday) return longDay(timeZone).format(date);
  return new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone,
  }).format(date);
}

export type BadgeTone = 'green' | 'amber' | 'neutral' | 'cyan';

export interface StatusBadge {
  label: string;
  tone: BadgeTone;
  /** The renewal or end date line, when there is one. */
  detail: string | null;
}

/** The Dashboard's status badge (spec §4 "Subscription display"). */
export function subscriptionBadge(
  subscription: Subscription | null,
  timeZone?: string,
): StatusBadge {
  if (!subscription) return { label: 'Free Member', tone: 'neutral', detail: null };
  const end = subscription.current_period_end
    ? formatLongDate(subscription.current_period_end, timeZone)
    : null;
  if (subscription.complimentary && subscription.status === 'active') {
    return { label: 'Complimentary', tone: 'cyan', detail: end ? `Until ${end}` : 'No end date' };
  }
  if (subscription.status === 'active' && !subscription.cancel_at_period_end) {
    return { label: 'Active Subscriber', tone: 'green', detail: end ? `Renews ${end}` : null };
  }
  if (subscription.status === 'active') {
    return { label: 'Cancels Soon', tone: 'amber', detail: end ? `Ends ${end}` : null };
  }
  return { label: subscription.status, tone: 'neutral', detail: null };
}

/**
 * The Dashboard's status badge for the member reading it: the subscription's (spec §4), except
 * that an admin whom no subscription gives access is shown as what they are, an admin with the
 * access of one, never a "Free Member".
 */
export function memberBadge(
  overview: Pick<MembersOverview, 'subscription' | 'is_subscriber' | 'is_admin'>,
  timeZone?: string,
): StatusBadge {
  if (overview.is_admin && !overview.is_subscriber) {
    return { label: 'Admin', tone: 'amber', detail: 'Full access, no subscription needed' };
  }
  return subscriptionBadge(overview.subscription, timeZone);
}

/** From this many active members on, the members card counts the spots left (spec §9). */
export const SPOTS_LEFT_FROM = 30;

/**
 * The line under 'n / capacity' on the Tribe Members card. The spots left are the server's
 * (`spots_left`: capacity less members and seats held by checkouts in progress), so the card
 * agrees with the Tribe page and with what checkout accepts; held seats are named as such. A full
 * tribe says so even below SPOTS_LEFT_FROM members (a small capacity).
 */
export function spotsText(
  tribe: Pick<TribeStatus, 'active_members' | 'held' | 'spots_left' | 'at_capacity'>,
): string {
  if (tribe.active_members < SPOTS_LEFT_FROM && !tribe.at_capacity) return 'Growing Community';
  const left = `${plural(tribe.spots_left, 'spot')} left`;
  return tribe.held > 0 ? `${left}, ${tribe.held} being checked out` : left;
}

export interface TribalLevel {
  name: string;
  requirements: string;
}

/** The five levels of the progression dialog, in order (spec §3). */
export const TRIBAL_LEVELS: readonly TribalLevel[] = [
  { name: 'Apprentice', requirements: 'Join the tribe' },
  { name: 'Contributor', requirements: 'Attend 3 sessions and make 1 contribution' },
  { name: 'Builder', requirements: 'Attend 8 sessions and share 3 projects' },
  { name: 'Expert', requirements: 'Attend 15 sessions, share 5 projects and mentor 2 members' },
  { name: 'Master', requirements: 'Attend 25 sessions, share 10 projects and lead a workshop' },
];

export type LevelStatus = 'COMPLETED' | 'IN_PROGRESS' | 'LOCKED';

export interface LevelRow extends TribalLevel {
  status: LevelStatus;
  /** Fill of the level's bar, 0 to 1: for the current level, the real way to the next one. */
  progress: number;
}

export interface Progression {
  rows: LevelRow[];
  current: TribalLevel;
  /** 1-based position of the current level. */
  position: number;
  total: number;
  next: TribalLevel | null;
  /** Each requirement of the next level with the member's count ("Sessions 2 / 3"). */
  steps: Step[];
}

/**
 * Statuses of every level for a member's progress as the server computed it (the level is never
 * decided here): levels before the current one are COMPLETED, the current one IN_PROGRESS with its
 * bar filled by the real fraction towards the next, later ones LOCKED. At the last level there is
 * nothing left to do, so every level reads COMPLETED. Without progress (still loading) the member
 * is at the first level with an empty bar.
 */
export function progression(progress: Pick<Progress, 'rank' | 'next'> | undefined): Progression {
  const total = TRIBAL_LEVELS.length;
  const index = Math.min(Math.max((progress?.rank ?? 1) - 1, 0), total - 1);
  const last = index === total - 1;
  const fraction = Math.min(Math.max(progress?.next?.fraction ?? 0, 0), 1);
  const rows = TRIBAL_LEVELS.map((level, i): LevelRow => {
    if (i < index || (i === index && last)) return { ...level, status: 'COMPLETED', progress: 1 };
    if (i === index) return { ...level, status: 'IN_PROGRESS', progress: fraction };
    return { ...level, status: 'LOCKED', progress: 0 };
  });
  return {
    rows,
    current: TRIBAL_LEVELS[index] as TribalLevel,
    position: index + 1,
    total,
    next: TRIBAL_LEVELS[index + 1] ?? null,
    steps: progress?.next?.requirements ?? [],
  };
}

/** Where the session happens, read in its own zone. */
export interface SessionWhen {
  /** "Thursday, December 3, 2026". */
  date: string;
  /** "5:00 PM". */
  time: string;
  /** "EST", or the zone's name when the browser has no short name for it. */
  zoneShort: string;
  /** The start in the viewer's zone, "Thu, Dec 3, 11:00 PM CET", or null when the zones agree. */
  viewer: string | null;
}

function shortZoneName(date: Date, timeZone: string | undefined): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
    .formatToParts(date)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone ?? '';
}

/** Whether a string is a time-zone name this browser knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** Date and time texts of a session: long US date and 12-hour time in its zone, and the viewer's. */
export function sessionWhen(
  session: Pick<LiveSession, 'starts_at' | 'timezone' | 'session_date' | 'session_time'>,
  viewerZone?: string,
): SessionWhen {
  const start = new Date(session.starts_at);
  if (Number.isNaN(start.getTime()) || !isKnownTimeZone(session.timezone)) {
    return {
      date: session.session_date,
      time: session.session_time,
      zoneShort: session.timezone,
      viewer: null,
    };
  }
  const zone = session.timezone;
  const date = longDay(zone).format(start);
  const time = new Intl.DateTimeFormat('en-US', {
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZone: zone,
  }).format(start);
  const viewerResolved = viewerZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const sameClock =
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(start) ===
    new Intl.DateTimeFormat('en-US', {
      timeZone: viewerResolved,
      dateStyle: 'short',
      timeStyle: 'short',
    }).format(start);
  const viewer = sameClock ? null : shortDateTime(start, viewerResolved, true);
  return { date, time, zoneShort: shortZoneName(start, zone), viewer };
}

/** The viewer's own IANA time zone, the default for new sessions. */
export { detectTimeZone as browserTimeZone } from '@/lib/time-zone';

/** Splits sessions into the Upcoming and Archive lists by the server's `upcoming` flag. */
export function splitSessions(sessions: readonly LiveSession[]) {
  const upcoming: LiveSession[] = [];
  const archive: LiveSession[] = [];
  for (const s of sessions) (s.upcoming ? upcoming : archive).push(s);
  // The archive reads best most recent first; upcoming soonest first (the server's order).
  archive.reverse();
  return { upcoming, archive };
}

/** Whether `value` is an absolute http(s) address with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

export type CohortField = 'name' | 'github_url' | 'homepage_url';
export type CohortErrors = Partial<Record<CohortField, string>>;

/** Trims a cohort form as the server will (spec §5). */
export function trimCohort(input: CohortInput): CohortInput {
  return {
    name: input.name.trim(),
    description: input.description.trim(),
    icon: input.icon,
    github_url: input.github_url.trim(),
    homepage_url: input.homepage_url.trim(),
  };
}

/** The browser's check of a cohort form; the server checks again and has the last word. */
export function validateCohort(input: CohortInput): CohortErrors {
  const t = trimCohort(input);
  const errors: CohortErrors = {};
  if (t.name === '') errors.name = 'Please enter a cohort name';
  if (t.github_url !== '' && !isHttpUrl(t.github_url)) {
    errors.github_url = 'Invalid GitHub URL format';
  }
  if (t.homepage_url !== '' && !isHttpUrl(t.homepage_url)) {
    errors.homepage_url = 'Invalid homepage URL format';
  }
  return errors;
}

/** Up to two initials for an avatar without a picture. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0]?.[0] ?? '';
  const last = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}

export type SessionField =
  | 'title'
  | 'description'
  | 'tags'
  | 'session_date'
  | 'session_time'
  | 'duration'
  | 'timezone'
  | 'status'
  | 'max_attendees'
  | 'zoom_meeting_id'
  | 'zoom_password'
  | 'zoom_join_url'
  | 'meeting_link';

const sessionMessageFields: ReadonlyArray<readonly [string, SessionField]> = [
  ['Please enter a title', 'title'],
  ['Title ', 'title'],
  ['Description ', 'description'],
  ['Tags ', 'tags'],
  ['Date ', 'session_date'],
  ['Time zone ', 'timezone'],
  ['Time ', 'session_time'],
  ['Duration ', 'duration'],
  ['Status ', 'status'],
  ['Max attendees ', 'max_attendees'],
  ['Meeting ID ', 'zoom_meeting_id'],
  ['Meeting password ', 'zoom_password'],
  ['Invalid join URL', 'zoom_join_url'],
  ['Invalid meeting link', 'meeting_link'],
];

/** Which field of the session form a server validation message is about (docs/api.md), if any. */
export function sessionErrorField(message: string): SessionField | null {
  for (const [prefix, field] of sessionMessageFields) {
    if (message.startsWith(prefix)) return field;
  }
  return null;
}

export type CohortFormField = CohortField | 'description' | 'icon';

/** Which field of the cohort form a server validation message is about, if any. */
export function cohortErrorField(message: string): CohortFormField | null {
  if (message.startsWith('Please enter a cohort name') || message.startsWith('Cohort name')) {
    return 'name';
  }
  if (message.startsWith('Description')) return 'description';
  if (message.startsWith('Invalid GitHub')) return 'github_url';
  if (message.startsWith('Invalid homepage')) return 'homepage_url';
  if (message.startsWith('Choose one of the listed icons')) return 'icon';
  return null;
}

/** Reads the admin form's tag field, "agents, memory", as a list. */
export function parseTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** Whether a session still takes RSVPs: not cancelled, not marked live or completed, not started. */
export function rsvpOpen(
  session: Pick<LiveSession, 'status' | 'starts_at'>,
  now: number = Date.now(),
): boolean {
  if (session.status !== 'scheduled') return false;
  const start = Date.parse(session.starts_at);
  return Number.isNaN(start) || now < start;
}

/** "1 going", "3 going", "Nobody has said they are going yet". */
export function goingText(count: number): string {
  return count === 0 ? 'Nobody has said they are going yet' : `${count} going`;
}

/** The kinds of award, in the order forms offer them. */
export const AWARD_KINDS = ['contribution', 'mentoring', 'workshop'] as const;
export type AwardKind = (typeof AWARD_KINDS)[number];

/** How an award's kind reads: "Contribution", "Mentoring", "Workshop led". */
export function awardKindLabel(kind: string): string {
  if (kind === 'contribution') return 'Contribution';
  if (kind === 'mentoring') return 'Mentoring';
  if (kind === 'workshop') return 'Workshop led';
  return kind;
}

/** A moment as "Mar 2, 2026, 5:05 PM" in the viewer's zone (or the one given). */
export function formatDateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZone,
  }).format(date);
}
