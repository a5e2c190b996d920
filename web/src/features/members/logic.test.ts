import { describe, expect, it } from 'vitest';
import type { Subscription } from '@/lib/api-types/billing';
import type { CohortInput, SessionView as LiveSession } from '@/lib/api-types/community';
import { untilNextChange } from './api/get-live-sessions';
import {
  cohortErrorField,
  initials,
  memberBadge,
  parseTags,
  progression,
  rsvpOpen,
  sessionErrorField,
  sessionWhen,
  splitSessions,
  spotsText,
  subscriptionBadge,
  validateCohort,
} from './logic';

describe('subscriptionBadge', () => {
  it('reads Free Member without a subscription', () => {
    expect(subscriptionBadge(null)).toEqual({
      label: 'Free Member',
      tone: 'neutral',
      detail: null,
    });
  });

  it('reads Active Subscriber with the renewal date', () => {
    const badge = subscriptionBadge(
      {
        status: 'active',
        current_period_end: '2026-12-24T12:00:00Z',
        cancel_at_period_end: false,
        complimentary: false,
        has_subscription_id: true,
      },
      'UTC',
    );
    expect(badge.label).toBe('Active Subscriber');
    expect(badge.detail).toBe('Renews December 24, 2026');
  });

  it('reads Cancels Soon with the end date', () => {
    const badge = subscriptionBadge(
      {
        status: 'active',
        current_period_end: '2027-01-05T00:30:00Z',
        cancel_at_period_end: true,
        complimentary: false,
        has_subscription_id: true,
      },
      'America/Los_Angeles',
    );
    expect(badge.label).toBe('Cancels Soon');
    // 00:30 UTC is still the evening before on the US west coast.
    expect(badge.detail).toBe('Ends January 4, 2027');
  });

  it('shows any other status as its own text', () => {
    const badge = subscriptionBadge({
      status: 'past_due',
      current_period_end: null,
      cancel_at_period_end: false,
      complimentary: false,
      has_subscription_id: true,
    });
    expect(badge).toEqual({ label: 'past_due', tone: 'neutral', detail: null });
  });

  it('reads Complimentary for a membership an admin gave, with its end or none', () => {
    const comp: Subscription = {
      status: 'active',
      current_period_end: '2027-02-01T00:00:00Z',
      cancel_at_period_end: false,
      complimentary: true,
      has_subscription_id: false,
    };
    expect(subscriptionBadge(comp, 'UTC')).toEqual({
      label: 'Complimentary',
      tone: 'cyan',
      detail: 'Until February 1, 2027',
    });
    expect(subscriptionBadge({ ...comp, current_period_end: null }).detail).toBe('No end date');
    // An ended complimentary membership reads as the server says.
    expect(subscriptionBadge({ ...comp, status: 'canceled' }).label).toBe('canceled');
  });
});

describe('spotsText', () => {
  const tribe = (
    active_members: number,
    held: number,
    spots_left: number,
    at_capacity = false,
  ) => ({
    active_members,
    held,
    spots_left,
    at_capacity,
  });

  it('says Growing Community below 30 members', () => {
    expect(spotsText(tribe(0, 0, 50))).toBe('Growing Community');
    expect(spotsText(tribe(29, 3, 18))).toBe('Growing Community');
  });

  it('counts the spots left as the server does from 30 members on', () => {
    expect(spotsText(tribe(30, 0, 20))).toBe('20 spots left');
    expect(spotsText(tribe(49, 0, 1))).toBe('1 spot left');
    expect(spotsText(tribe(50, 0, 0, true))).toBe('0 spots left');
  });

  // The card computed capacity less members, so with seats held by checkouts in progress it
  // offered spots that /api/tribe/status and checkout no longer had.
  it('leaves out held seats and names them, agreeing with the tribe status', () => {
    expect(spotsText(tribe(44, 4, 2))).toBe('2 spots left, 4 being checked out');
    expect(spotsText(tribe(45, 5, 0, true))).toBe('0 spots left, 5 being checked out');
    expect(spotsText(tribe(30, 1, 1))).toBe('1 spot left, 1 being checked out');
  });

  it('says a small tribe is full below 30 members', () => {
    expect(spotsText(tribe(8, 2, 0, true))).toBe('0 spots left, 2 being checked out');
  });
});

describe('progression', () => {
  const apprentice = {
    rank: 1,
    next: {
      level: 'Contributor',
      fraction: 1 / 3,
      requirements: [
        { key: 'attended', label: 'Sessions', have: 2, need: 3, done: false },
        { key: 'contributions', label: 'Contributions', have: 0, need: 1, done: false },
      ],
    },
  };

  it('puts an Apprentice at level 1 of 5 with the real way to Contributor', () => {
    const p = progression(apprentice);
    expect(p.rows.map((r) => r.name)).toEqual([
      'Apprentice',
      'Contributor',
      'Builder',
      'Expert',
      'Master',
    ]);
    expect(p.rows.map((r) => r.status)).toEqual([
      'IN_PROGRESS',
      'LOCKED',
      'LOCKED',
      'LOCKED',
      'LOCKED',
    ]);
    expect(p.rows[0]?.progress).toBeCloseTo(1 / 3);
    expect(p.steps.map((s) => `${s.label} ${s.have} / ${s.need}`)).toEqual([
      'Sessions 2 / 3',
      'Contributions 0 / 1',
    ]);
    expect(p.position).toBe(1);
    expect(p.total).toBe(5);
    expect(p.next?.name).toBe('Contributor');
  });

  it('completes the levels before the current one and fills its bar by the fraction', () => {
    const p = progression({
      rank: 4,
      next: { level: 'Master', fraction: 0.8, requirements: [] },
    });
    expect(p.rows.map((r) => r.status)).toEqual([
      'COMPLETED',
      'COMPLETED',
      'COMPLETED',
      'IN_PROGRESS',
      'LOCKED',
    ]);
    expect(p.rows[3]?.progress).toBe(0.8);
    expect(p.position).toBe(4);
    expect(p.next?.name).toBe('Master');
  });

  it('has no next milestone at Master, where every level is completed', () => {
    const p = progression({ rank: 5, next: null });
    expect(p.next).toBeNull();
    expect(p.steps).toEqual([]);
    expect(p.rows.every((r) => r.status === 'COMPLETED')).toBe(true);
  });

  it('starts at the first level with an empty bar while the progress loads', () => {
    const p = progression(undefined);
    expect(p.position).toBe(1);
    expect(p.rows[0]).toMatchObject({ status: 'IN_PROGRESS', progress: 0 });
  });

  it('carries the requirements of the spec', () => {
    const p = progression(apprentice);
    expect(p.rows[1]?.requirements).toMatch(/3 sessions.*1 contribution/);
    expect(p.rows[4]?.requirements).toMatch(/25 sessions.*10 projects.*workshop/);
  });
});

describe('rsvpOpen', () => {
  const start = '2026-12-03T22:00:00Z';
  const before = Date.parse(start) - 60_000;
  it('takes answers until the start of a scheduled session', () => {
    expect(rsvpOpen({ status: 'scheduled', starts_at: start }, before)).toBe(true);
    expect(rsvpOpen({ status: 'scheduled', starts_at: start }, Date.parse(start))).toBe(false);
  });
  it('is closed for cancelled, live and completed sessions', () => {
    for (const status of ['cancelled', 'live', 'completed']) {
      expect(rsvpOpen({ status, starts_at: start }, before)).toBe(false);
    }
  });
});

describe('sessionWhen', () => {
  const session = {
    starts_at: '2026-12-03T22:00:00Z',
    timezone: 'America/New_York',
    session_date: '2026-12-03',
    session_time: '17:00',
  };

  it('writes the long US date and 12-hour time in the session zone', () => {
    const when = sessionWhen(session, 'America/New_York');
    expect(when.date).toBe('Thursday, December 3, 2026');
    expect(when.time).toBe('5:00 PM');
    expect(when.zoneShort).toBe('EST');
    expect(when.viewer).toBeNull();
  });

  it("adds the viewer's own time when their zone differs", () => {
    const when = sessionWhen(session, 'Europe/Berlin');
    expect(when.viewer).toBe('Thu, Dec 3, 11:00 PM GMT+1');
  });

  it('crosses the date line for the viewer', () => {
    const when = sessionWhen(session, 'Asia/Tokyo');
    expect(when.viewer).toMatch(/^Fri, Dec 4, 7:00 AM/);
  });

  it('falls back to the raw fields for an unknown zone', () => {
    const when = sessionWhen({ ...session, timezone: 'Mars/Olympus' });
    expect(when).toEqual({
      date: '2026-12-03',
      time: '17:00',
      zoneShort: 'Mars/Olympus',
      viewer: null,
    });
  });
});

describe('splitSessions', () => {
  const make = (id: string, upcoming: boolean) => ({ id, upcoming }) as LiveSession;

  it('splits by the server flag, the archive most recent first', () => {
    const { upcoming, archive } = splitSessions([
      make('a', false),
      make('b', false),
      make('c', true),
      make('d', true),
    ]);
    expect(upcoming.map((s) => s.id)).toEqual(['c', 'd']);
    expect(archive.map((s) => s.id)).toEqual(['b', 'a']);
  });
});

describe('validateCohort', () => {
  const base: CohortInput = {
    name: 'Agent Builders',
    description: '',
    icon: 'users',
    github_url: '',
    homepage_url: '',
  };

  it('accepts a name alone', () => {
    expect(validateCohort(base)).toEqual({});
  });

  it('requires a name after trimming', () => {
    expect(validateCohort({ ...base, name: '   ' })).toEqual({
      name: 'Please enter a cohort name',
    });
  });

  it('requires http(s) URLs when given', () => {
    expect(
      validateCohort({ ...base, github_url: 'github.com/x', homepage_url: 'ftp://example.com' }),
    ).toEqual({
      github_url: 'Invalid GitHub URL format',
      homepage_url: 'Invalid homepage URL format',
    });
    expect(
      validateCohort({
        ...base,
        github_url: ' https://github.com/org/repo ',
        homepage_url: 'http://example.com/x',
      }),
    ).toEqual({});
  });
});

describe('server messages to fields', () => {
  it('maps session messages', () => {
    expect(sessionErrorField('Please enter a title')).toBe('title');
    expect(sessionErrorField('Time zone must be an IANA name such as America/New_York.')).toBe(
      'timezone',
    );
    expect(sessionErrorField('Time must be written HH:MM (24-hour).')).toBe('session_time');
    expect(sessionErrorField('Invalid join URL format')).toBe('zoom_join_url');
    expect(sessionErrorField('Something else')).toBeNull();
  });

  it('maps cohort messages', () => {
    expect(cohortErrorField('Cohort name must be at most 80 characters.')).toBe('name');
    expect(cohortErrorField('Invalid homepage URL format')).toBe('homepage_url');
    expect(cohortErrorField('This cohort is full.')).toBeNull();
  });
});

describe('small helpers', () => {
  it('makes initials', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('  grace  ')).toBe('G');
    expect(initials('Jean Claude van Damme')).toBe('JD');
    expect(initials('')).toBe('?');
  });

  it('parses tags', () => {
    expect(parseTags(' agents, memory ,, rag ')).toEqual(['agents', 'memory', 'rag']);
    expect(parseTags('')).toEqual([]);
  });
});

describe('memberBadge', () => {
  const sub: Subscription = {
    status: 'active',
    current_period_end: '2027-01-15T12:00:00Z',
    cancel_at_period_end: false,
    complimentary: false,
    has_subscription_id: true,
  };
  it('calls an admin without a subscription an admin, not a Free Member', () => {
    const badge = memberBadge({ subscription: null, is_subscriber: false, is_admin: true });
    expect(badge.label).toBe('Admin');
    expect(badge.detail).toBe('Full access, no subscription needed');
    // A lapsed subscription does not make an admin a "canceled" member either.
    expect(
      memberBadge({
        subscription: { ...sub, status: 'canceled' },
        is_subscriber: false,
        is_admin: true,
      }).label,
    ).toBe('Admin');
  });
  it('shows the subscription of an admin who pays, and of everyone else', () => {
    expect(
      memberBadge({ subscription: sub, is_subscriber: true, is_admin: true }, 'UTC').label,
    ).toBe('Active Subscriber');
    expect(memberBadge({ subscription: null, is_subscriber: false, is_admin: false }).label).toBe(
      'Free Member',
    );
  });
});

describe('untilNextChange', () => {
  const now = Date.parse('2026-12-03T20:00:00Z');
  const at = (starts: string, ends: string) =>
    ({ starts_at: starts, ends_at: ends }) as LiveSession;
  it('waits for the next start or end, a second after it', () => {
    const list = {
      sessions: [
        at('2026-11-01T20:00:00Z', '2026-11-01T22:00:00Z'),
        at('2026-12-03T22:00:00Z', '2026-12-04T00:00:00Z'),
      ],
      can_join: true,
    };
    expect(untilNextChange(list, now)).toBe(2 * 3_600_000 + 1_000);
    // Under way: its end is next.
    expect(untilNextChange(list, Date.parse('2026-12-03T23:00:00Z'))).toBe(3_600_000 + 1_000);
  });
  it('never waits more than six hours, and not at all when nothing will change', () => {
    const far = { sessions: [at('2027-06-01T20:00:00Z', '2027-06-01T22:00:00Z')], can_join: true };
    expect(untilNextChange(far, now)).toBe(6 * 3_600_000);
    const over = { sessions: [at('2026-11-01T20:00:00Z', '2026-11-01T22:00:00Z')], can_join: true };
    expect(untilNextChange(over, now)).toBe(false);
    expect(untilNextChange(undefined, now)).toBe(false);
  });
});
