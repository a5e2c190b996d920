import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  AttendanceSheet,
  Cohort,
  SessionView as LiveSession,
  Profile,
} from '@/lib/api-types/community';
import type { Award, Progress } from '@/lib/api-types/levels';
import type { MembersOverview, User } from '@/lib/api-types/web';
import { session } from '@/lib/session';
import { structuralViolations } from '@/test/axe';
import { renderRoute } from '@/test/render';
import { authRedirect } from './MembersPage';

const user: User = {
  id: 'u1',
  email: 'ada@example.com',
  email_confirmed: true,
  full_name: 'Ada Lovelace',
  avatar_url: null,
  is_admin: false,
  name_unverified: false,
  created_at: '2026-11-23T10:00:00.000Z',
  subscription: null,
};

const overview: MembersOverview = {
  subscription: null,
  is_subscriber: false,
  is_admin: false,
  tribe: {
    capacity: 50,
    active_members: 12,
    held: 0,
    spots_left: 38,
    at_capacity: false,
    payments_enabled: true,
    plans: [],
  },
  group_chat_url: null,
};

const profile: Profile = {
  id: 'u1',
  email: 'ada@example.com',
  full_name: 'Ada Lovelace',
  avatar_url: null,
  bio: 'Engines.',
  phone: '',
  location: 'London',
  company: '',
  job_title: '',
  name_unverified: false,
  in_directory: false,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
};

function liveSession(id: string, upcoming: boolean, extra: Partial<LiveSession> = {}): LiveSession {
  return {
    id,
    title: `Session ${id}`,
    description: '',
    tags: ['agents'],
    session_date: '2026-12-03',
    session_time: '17:00',
    duration: '2 hours',
    timezone: 'America/New_York',
    status: 'scheduled',
    state: upcoming ? 'scheduled' : 'ended',
    max_attendees: null,
    starts_at: '2026-12-03T22:00:00Z',
    ends_at: '2026-12-04T00:00:00Z',
    upcoming,
    locked: true,
    going_count: 0,
    my_rsvp: null,
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    ...extra,
  };
}

const progress: Progress = {
  level: 'Apprentice',
  rank: 1,
  attended: 2,
  projects: 0,
  contributions: 0,
  mentored: 0,
  workshops: 0,
  next: {
    level: 'Contributor',
    fraction: 1 / 3,
    requirements: [
      { key: 'attended', label: 'Sessions', have: 2, need: 3, done: false },
      { key: 'contributions', label: 'Contributions', have: 0, need: 1, done: false },
    ],
  },
};

function cohort(extra: Partial<Cohort> = {}): Cohort {
  return {
    id: 'c1',
    name: 'Agent Builders',
    description: 'We build agents.',
    icon: 'rocket',
    github_url: 'https://github.com/org/repo',
    homepage_url: null,
    created_by: 'u2',
    max_members: 5,
    member_count: 5,
    is_member: false,
    is_creator: false,
    is_full: true,
    members: [
      {
        user_id: 'u2',
        full_name: 'Grace Hopper',
        avatar_url: null,
        joined_at: '2026-11-23T10:00:00Z',
      },
    ],
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    ...extra,
  };
}

type Handler = (init: RequestInit | undefined) => { status: number; body?: unknown };

function json(status: number, body?: unknown) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** Answers fetch by "METHOD path"; records every call. */
function mockServer(routes: Record<string, Handler>) {
  const calls: Array<{ key: string; body: unknown }> = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input.toString();
    const key = `${init?.method ?? 'GET'} ${path}`;
    calls.push({ key, body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
    const handler = routes[key];
    if (!handler) return json(404, { error: { code: 'not_found', message: `no route ${key}` } });
    const { status, body } = handler(init);
    return json(status, body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function baseRoutes(over: Partial<Record<string, Handler>> = {}): Record<string, Handler> {
  const routes: Record<string, Handler> = {
    'GET /api/auth/session': () => ({ status: 200, body: { user } }),
    'GET /api/members/overview': () => ({ status: 200, body: overview }),
    'GET /api/sessions': () => ({
      status: 200,
      body: {
        sessions: [liveSession('past', false), liveSession('next', true)],
        can_join: false,
      },
    }),
    'GET /api/calendar/feed': () => ({ status: 200, body: { exists: false, created_at: null } }),
    'GET /api/cohorts': () => ({ status: 200, body: { cohorts: [cohort()], my_cohort_id: null } }),
    'GET /api/profile': () => ({ status: 200, body: { profile } }),
    'GET /api/members/me/progress': () => ({ status: 200, body: progress }),
  };
  for (const [key, handler] of Object.entries(over)) if (handler) routes[key] = handler;
  return routes;
}

describe('authRedirect', () => {
  it('keeps checkout flags and adds return=members', () => {
    expect(authRedirect(new URLSearchParams('success=true&tab=x'))).toBe(
      '/auth?success=true&return=members',
    );
    expect(authRedirect(new URLSearchParams('awaiting_subscription=true&canceled=true'))).toBe(
      '/auth?canceled=true&awaiting_subscription=true&return=members',
    );
  });

  it('goes to plain /auth without flags', () => {
    expect(authRedirect(new URLSearchParams('confirmed=true'))).toBe('/auth');
  });
});

describe('MembersPage', { timeout: 20_000 }, () => {
  beforeEach(() => {
    session.dispose();
  });
  afterEach(() => {
    session.dispose();
    vi.unstubAllGlobals();
  });

  it('sends a visitor without a session to /auth, keeping checkout flags', async () => {
    mockServer({ 'GET /api/auth/session': () => ({ status: 200, body: { user: null } }) });
    const { router } = renderRoute('/members?success=true');
    await waitFor(() => expect(router.location.pathname).toBe('/auth'));
    expect(router.location.search).toBe('?success=true&return=members');
  });

  it('shows the dashboard of a free member', async () => {
    mockServer(baseRoutes());
    renderRoute('/members');
    expect(
      await screen.findByRole('heading', { name: /Welcome back, Ada Lovelace/ }),
    ).toBeVisible();
    expect(await screen.findByText('Free Member')).toBeVisible();
    expect(screen.getByText('12 / 50')).toBeVisible();
    expect(screen.getByText('Growing Community')).toBeVisible();
    expect(screen.queryByText('Coming Soon')).toBeNull();
    const attended = screen.getByText('Sessions Attended').closest('div') as HTMLElement;
    expect(await within(attended).findByText('2')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Upgrade' })).toBeEnabled();
    // The community card and the locked session both offer it.
    expect((await screen.findAllByRole('button', { name: 'Subscribe to Join' })).length).toBe(2);
    // No Admin tab for a member the server does not call an admin.
    expect(screen.queryByRole('tab', { name: /Admin/ })).toBeNull();

    const upcoming = await screen.findByRole('button', { name: 'Upcoming (1)' });
    expect(upcoming).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText('Session next')).toBeVisible();
    expect(screen.getByText('Thursday, December 3, 2026')).toBeVisible();
    // A locked session offers the subscription, not the meeting.
    expect(screen.queryByText(/Meeting ID/)).toBeNull();
    expect(screen.queryByRole('link', { name: /Join Session/ })).toBeNull();
    // Free members see the count going, but cannot answer.
    expect(screen.getByText('Nobody has said they are going yet')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Going' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Archive (1)' }));
    expect(screen.getByText('Session past')).toBeVisible();
    expect(screen.queryByText('Session next')).toBeNull();
  });

  it('shows meeting details and Join Session to a subscriber, and counts spots near the cap', async () => {
    const active = {
      status: 'active',
      current_period_end: '2026-12-24T12:00:00Z',
      cancel_at_period_end: false,
      complimentary: false,
      has_subscription_id: true,
    };
    const calls = mockServer(
      baseRoutes({
        'POST /api/billing/portal': () => ({
          status: 200,
          body: { url: 'https://billing.stripe.test/p/1' },
        }),
        'GET /api/auth/session': () => ({
          status: 200,
          body: { user: { ...user, subscription: active } },
        }),
        'PUT /api/sessions/next/rsvp': () => ({
          status: 200,
          body: {
            session: liveSession('next', true, {
              locked: false,
              starts_at: '2099-12-03T22:00:00Z',
              zoom_join_url: 'https://zoom.us/j/123',
              going_count: 4,
              my_rsvp: true,
            }),
          },
        }),
        'GET /api/members/overview': () => ({
          status: 200,
          body: {
            ...overview,
            subscription: active,
            is_subscriber: true,
            tribe: {
              capacity: 50,
              active_members: 44,
              held: 0,
              spots_left: 6,
              at_capacity: false,
              payments_enabled: true,
            },
            group_chat_url: 'https://chat.example/invite/tribe',
          },
        }),
        'GET /api/sessions': () => ({
          status: 200,
          body: {
            sessions: [
              liveSession('next', true, {
                locked: false,
                starts_at: '2099-12-03T22:00:00Z',
                zoom_meeting_id: '123 456',
                zoom_password: 'tribe-secret',
                zoom_join_url: 'https://zoom.us/j/123',
                meeting_link: '',
                going_count: 3,
              }),
            ],
            can_join: true,
          },
        }),
      }),
    );
    renderRoute('/members');
    expect(await screen.findByText('Active Subscriber')).toBeVisible();
    expect(screen.getByText(/^Renews December 2[45], 2026$/)).toBeVisible();
    expect(screen.getByText('44 / 50')).toBeVisible();
    expect(screen.getByText('6 spots left')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Manage' })).toBeVisible();
    expect(await screen.findByText('tribe-secret')).toBeVisible();
    // Join goes through the site, which records attendance and redirects to the meeting.
    const join = screen.getByRole('link', { name: /Join Session/ });
    expect(join).toHaveAttribute('href', '/api/sessions/next/join');
    expect(join).toHaveAttribute('rel', 'noopener noreferrer');

    // The RSVP control says which answer is chosen, and the count follows the answer.
    expect(screen.getByText('3 going')).toBeVisible();
    const going = screen.getByRole('button', { name: 'Going' });
    expect(going).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('group', { name: /Will you be at Session next/ })).toBeVisible();
    await userEvent.click(going);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Going' })).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(screen.getByText('4 going')).toBeVisible();
    expect(screen.getByRole('button', { name: "Can't make it" })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    expect(calls.find((c) => c.key === 'PUT /api/sessions/next/rsvp')?.body).toEqual({
      going: true,
    });
    const chat = screen.getByRole('link', { name: 'Join the group chat' });
    expect(chat).toHaveAttribute('href', 'https://chat.example/invite/tribe');
    expect(chat).toHaveAttribute('target', '_blank');

    // Manage opens the Stripe portal in a new tab (billing.test.tsx follows the rest).
    const tab = { closed: false, opener: {}, location: { href: '' }, close: vi.fn() };
    const open = vi.fn(() => tab);
    vi.stubGlobal('open', open);
    calls.length = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Manage' }));
    await waitFor(() => expect(tab.location.href).toBe('https://billing.stripe.test/p/1'));
    expect(open).toHaveBeenCalledWith('', '_blank');
    expect(tab.opener).toBeNull();
    expect(calls.map((c) => c.key)).toContain('POST /api/billing/portal');
  });

  it('session card without meeting details keeps its list to terms and details (axe dlitem)', async () => {
    const active = {
      status: 'active',
      current_period_end: '2026-12-24T12:00:00Z',
      cancel_at_period_end: false,
      complimentary: false,
      has_subscription_id: true,
    };
    mockServer(
      baseRoutes({
        'GET /api/auth/session': () => ({
          status: 200,
          body: { user: { ...user, subscription: active } },
        }),
        'GET /api/members/overview': () => ({
          status: 200,
          body: { ...overview, subscription: active, is_subscriber: true },
        }),
        'GET /api/sessions': () => ({
          status: 200,
          body: {
            sessions: [
              liveSession('bare', true, {
                locked: false,
                starts_at: '2099-12-03T22:00:00Z',
                zoom_meeting_id: '',
                zoom_password: '',
                zoom_join_url: '',
                meeting_link: '',
              }),
            ],
            can_join: true,
          },
        }),
      }),
    );
    renderRoute('/members');
    const note = await screen.findByText('The meeting link will appear here before the session.');
    const card = note.closest('article, li') ?? document.body;
    expect(await structuralViolations(card)).toEqual([]);
  });

  it('opens the progression dialog from the level card', async () => {
    mockServer(baseRoutes());
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('button', { name: /Apprentice/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('1/5 levels')).toBeVisible();
    expect(within(dialog).getByText('IN_PROGRESS')).toBeVisible();
    expect(within(dialog).getAllByText('LOCKED')).toHaveLength(4);
    expect(within(dialog).getByText('Next Milestone')).toBeVisible();
    expect(within(dialog).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '33');
    const towards = within(dialog).getByRole('list', { name: 'Towards Contributor' });
    expect(within(towards).getByText('Sessions 2 / 3')).toBeVisible();
    expect(within(towards).getByText('Contributions 0 / 1')).toBeVisible();
    // A free member cannot suggest awards.
    expect(within(dialog).queryByRole('button', { name: /Suggest/ })).toBeNull();
  });

  it('shows the real level, Maximum Level Reached at Master, and congratulates once', async () => {
    const calls = mockServer(
      baseRoutes({
        'GET /api/members/me/progress': () => ({
          status: 200,
          body: {
            ...progress,
            level: 'Master',
            rank: 5,
            attended: 25,
            next: null,
            reached: 'Master',
          },
        }),
        'PUT /api/members/me/progress/seen': () => ({ status: 204 }),
      }),
    );
    renderRoute('/members');
    const card = await screen.findByRole('button', { name: /Master/ });
    await waitFor(() =>
      expect(calls.find((c) => c.key === 'PUT /api/members/me/progress/seen')?.body).toEqual({
        level: 'Master',
      }),
    );
    expect(await screen.findByText('You reached Master!')).toBeVisible();
    await userEvent.click(card);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('5/5 levels')).toBeVisible();
    expect(within(dialog).getAllByText('COMPLETED')).toHaveLength(5);
    expect(within(dialog).getByText('Maximum Level Reached!')).toBeVisible();
    expect(calls.filter((c) => c.key === 'PUT /api/members/me/progress/seen')).toHaveLength(1);
  });

  it('shows the Admin tab when the server says admin', async () => {
    const suggestion: Award = {
      id: 'a1',
      user_id: 'u3',
      member_name: 'Grace Hopper',
      kind: 'contribution',
      note: 'Wrote the evals guide',
      status: 'suggested',
      suggested: true,
      awarded_by: null,
      awarded_at: null,
      created_at: '2026-11-20T10:00:00Z',
    };
    const sheet: AttendanceSheet = {
      session_id: 'past',
      title: 'Session past',
      status: 'completed',
      starts_at: '2026-11-01T17:00:00Z',
      ends_at: '2026-11-01T19:00:00Z',
      started: true,
      going: 1,
      present: 1,
      rows: [
        {
          user_id: 'u3',
          full_name: 'Grace Hopper',
          email: 'grace@example.com',
          rsvp: true,
          joined_at: '2026-11-01T16:55:00Z',
          correction: null,
          corrected_by: null,
          corrected_at: null,
          present: true,
        },
      ],
    };
    const calls = mockServer(
      baseRoutes({
        'GET /api/members/overview': () => ({ status: 200, body: { ...overview, is_admin: true } }),
        'GET /api/admin/awards': () => ({ status: 200, body: { awards: [suggestion] } }),
        'POST /api/admin/awards/a1/accept': () => ({
          status: 200,
          body: { award: { ...suggestion, status: 'accepted', awarded_by: 'Ada Lovelace' } },
        }),
        'GET /api/admin/members': () => ({ status: 200, body: { members: [] } }),
        'GET /api/admin/sessions/past/attendance': () => ({ status: 200, body: sheet }),
        'PUT /api/admin/sessions/past/attendance': () => ({
          status: 200,
          body: {
            ...sheet,
            present: 0,
            rows: [{ ...sheet.rows[0], present: false, correction: 'absent', corrected_by: 'Ada' }],
          },
        }),
        'GET /api/admin/waitlist': () => ({
          status: 200,
          body: {
            entries: [
              {
                id: 'w1',
                full_name: 'Lin',
                email: 'lin@example.com',
                created_at: '2026-11-20T10:00:00Z',
              },
            ],
          },
        }),
      }),
    );
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('tab', { name: /Admin/ }));
    // A table on wider screens, one card per person on phones (CSS shows one of them).
    const table = await screen.findByRole('table', { name: 'Wait list' });
    expect(within(table).getByRole('columnheader', { name: 'Joined' })).toBeInTheDocument();
    expect(within(table).getByText('lin@example.com')).toBeInTheDocument();
    const cards = screen.getByRole('list', { name: 'Wait list' });
    expect(within(cards).getByRole('listitem')).toHaveTextContent(
      /Lin\s*lin@example\.com\s*Joined November 20, 2026/,
    );
    expect(screen.getByRole('link', { name: /Export CSV/ })).toHaveAttribute(
      'href',
      '/api/admin/waitlist.csv',
    );
    expect(screen.getByRole('heading', { name: /Knowledge base/ })).toBeVisible();
    // Only a session still to come can be cancelled.
    const next = (await screen.findByText('Session next')).closest('li') as HTMLElement;
    const past = screen.getByText('Session past').closest('li') as HTMLElement;
    expect(within(next).getByRole('button', { name: /Cancel session/ })).toBeVisible();
    expect(within(past).queryByRole('button', { name: /Cancel session/ })).toBeNull();

    // The attendance sheet of a past session: correct a member, download the CSV.
    await userEvent.click(within(past).getByRole('button', { name: /Attendance/ }));
    const dialog = await screen.findByRole('dialog', { name: /Attendance: Session past/ });
    expect(await within(dialog).findByText('Grace Hopper')).toBeVisible();
    expect(within(dialog).getByRole('link', { name: /Download CSV/ })).toHaveAttribute(
      'href',
      '/api/admin/sessions/past/attendance?format=csv',
    );
    const row = within(dialog).getByRole('group', { name: 'Attendance of Grace Hopper' });
    expect(within(row).getByRole('button', { name: 'Present' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await userEvent.click(within(row).getByRole('button', { name: 'Absent' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Absent' })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    );
    expect(within(dialog).getByText(/Marked absent by Ada/)).toBeVisible();
    expect(calls.find((c) => c.key === 'PUT /api/admin/sessions/past/attendance')?.body).toEqual({
      user_id: 'u3',
      present: false,
    });
    await userEvent.keyboard('{Escape}');

    // Awards: a member's suggestion waits for an admin, who accepts it.
    const awards = screen.getByRole('region', { name: 'Awards' });
    expect(within(awards).getByText('Wrote the evals guide')).toBeVisible();
    await userEvent.click(
      within(awards).getByRole('button', { name: 'Accept Contribution of Grace Hopper' }),
    );
    await waitFor(() =>
      expect(calls.some((c) => c.key === 'POST /api/admin/awards/a1/accept')).toBe(true),
    );
  });

  it('validates the cohort form in the browser and shows a full cohort as Full', async () => {
    const calls = mockServer(
      baseRoutes({
        'POST /api/cohorts': () => ({ status: 201, body: { cohort: cohort({ id: 'c2' }) } }),
      }),
    );
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('tab', { name: 'My Cohort' }));
    const full = await screen.findByRole('button', { name: 'Agent Builders is full' });
    expect(full).toBeDisabled();
    expect(full).toHaveTextContent('Full');
    const github = screen.getByRole('link', { name: /GitHub of Agent Builders/ });
    expect(github).toHaveAttribute('target', '_blank');
    expect(github).toHaveAttribute('rel', 'noopener noreferrer');

    await userEvent.click(screen.getByRole('button', { name: /Create Cohort/ }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/up to 5 members/)).toBeVisible();
    await userEvent.type(within(dialog).getByLabelText('Name'), '   ');
    await userEvent.type(within(dialog).getByLabelText(/GitHub URL/), 'not a url');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Cohort' }));
    expect(within(dialog).getByText('Please enter a cohort name')).toBeVisible();
    expect(within(dialog).getByText('Invalid GitHub URL format')).toBeVisible();
    expect(within(dialog).getByLabelText('Name')).toHaveFocus();
    expect(calls.some((c) => c.key === 'POST /api/cohorts')).toBe(false);

    await userEvent.type(within(dialog).getByLabelText('Name'), '  Rust agents ');
    await userEvent.clear(within(dialog).getByLabelText(/GitHub URL/));
    await userEvent.click(within(dialog).getByRole('radio', { name: 'zap' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create Cohort' }));
    await waitFor(() => expect(calls.some((c) => c.key === 'POST /api/cohorts')).toBe(true));
    expect(calls.find((c) => c.key === 'POST /api/cohorts')?.body).toEqual({
      name: 'Rust agents',
      description: '',
      icon: 'zap',
      github_url: '',
      homepage_url: '',
    });
  });

  it('asks the owner to check a name set before the address was confirmed', async () => {
    mockServer(
      baseRoutes({
        'GET /api/profile': () => ({
          status: 200,
          body: { profile: { ...profile, name_unverified: true } },
        }),
      }),
    );
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('tab', { name: 'Profile' }));
    expect(await screen.findByText(/Please check your name/)).toBeVisible();
  });

  it('edits the profile and restores it on cancel', async () => {
    const calls = mockServer(
      baseRoutes({
        'PUT /api/profile': (init) => ({
          status: 200,
          body: { profile: { ...profile, ...JSON.parse(String(init?.body)) } },
        }),
      }),
    );
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('tab', { name: 'Profile' }));
    await userEvent.click(await screen.findByRole('button', { name: /Edit profile/ }));
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Bio')).toHaveAttribute('rows', '4');
    const location = screen.getByLabelText('Location');
    await userEvent.clear(location);
    await userEvent.type(location, 'Paris');
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.getByText('London')).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: /Edit profile/ }));
    expect(screen.getByLabelText('Location')).toHaveValue('London');
    await userEvent.clear(screen.getByLabelText('Location'));
    await userEvent.type(screen.getByLabelText('Location'), 'Paris');
    await userEvent.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Paris')).toBeVisible();
    const put = calls.find((c) => c.key === 'PUT /api/profile');
    expect(put?.body).toMatchObject({ location: 'Paris', full_name: 'Ada Lovelace' });
  });
});

describe('what the members area tells an admin and shows of past sessions', {
  timeout: 20_000,
}, () => {
  beforeEach(() => {
    session.dispose();
  });
  afterEach(() => {
    session.dispose();
    vi.unstubAllGlobals();
  });

  const adminUser: User = { ...user, is_admin: true };
  const unlocked = {
    locked: false,
    zoom_meeting_id: '987 654',
    zoom_password: 'admin-sees-this',
    zoom_join_url: 'https://zoom.us/j/987',
    meeting_link: '',
  };

  it('tells an admin without a subscription that they are an admin, never a Free Member asked to pay', async () => {
    mockServer(
      baseRoutes({
        'GET /api/auth/session': () => ({ status: 200, body: { user: adminUser } }),
        'GET /api/members/overview': () => ({
          status: 200,
          // Payment off: a free member would be sent to the wait list.
          body: {
            ...overview,
            is_admin: true,
            tribe: { ...overview.tribe, payments_enabled: false },
          },
        }),
        'GET /api/sessions': () => ({
          status: 200,
          body: { sessions: [liveSession('next', true, unlocked)], can_join: true },
        }),
      }),
    );
    renderRoute('/members');
    const status = await screen.findByText('Admin', { selector: 'p' });
    expect(status).toBeVisible();
    expect(screen.getByText('Full access, no subscription needed')).toBeVisible();
    expect(
      screen.getByText(/You are an admin: live sessions with their meeting details/),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Agent test page' })).toHaveAttribute(
      'href',
      '/agent-test',
    );
    expect(screen.getByText(/No group chat is set up yet/)).toBeVisible();
    // The session's meeting is theirs to join.
    expect(await screen.findByText('admin-sees-this')).toBeVisible();
    expect(screen.getByRole('link', { name: /Join Session/ })).toBeVisible();
    // Nothing tells them to pay or wait.
    expect(screen.queryByText('Free Member')).toBeNull();
    expect(screen.queryByText(/You are a free member/)).toBeNull();
    expect(screen.queryByRole('link', { name: 'Join the wait list' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Subscribe to Join' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Upgrade' })).toBeNull();
  });

  it('gives an admin the group chat invitation the server sends', async () => {
    mockServer(
      baseRoutes({
        'GET /api/auth/session': () => ({ status: 200, body: { user: adminUser } }),
        'GET /api/members/overview': () => ({
          status: 200,
          body: { ...overview, is_admin: true, group_chat_url: 'https://chat.example/invite' },
        }),
        'GET /api/sessions': () => ({
          status: 200,
          body: { sessions: [liveSession('next', true, unlocked)], can_join: true },
        }),
      }),
    );
    renderRoute('/members');
    expect(await screen.findByRole('link', { name: 'Join the group chat' })).toHaveAttribute(
      'href',
      'https://chat.example/invite',
    );
    expect(screen.queryByRole('button', { name: 'Subscribe to Join' })).toBeNull();
  });

  it('shows an admin who also pays their subscription, renewal and Manage', async () => {
    const active = {
      status: 'active',
      current_period_end: '2026-12-24T12:00:00Z',
      cancel_at_period_end: false,
      complimentary: false,
      has_subscription_id: true,
    };
    mockServer(
      baseRoutes({
        'GET /api/auth/session': () => ({
          status: 200,
          body: { user: { ...adminUser, subscription: active } },
        }),
        'GET /api/members/overview': () => ({
          status: 200,
          body: { ...overview, is_admin: true, is_subscriber: true, subscription: active },
        }),
      }),
    );
    renderRoute('/members');
    expect(await screen.findByText('Active Subscriber')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Manage' })).toBeVisible();
  });

  it('links a past session to its published replay, and only a past one', async () => {
    mockServer(
      baseRoutes({
        'GET /api/sessions': () => ({
          status: 200,
          body: {
            sessions: [
              liveSession('past', false, { replay_id: 'item 1' }),
              liveSession('bare', false),
              // The server links only sessions that are over; the card checks too.
              liveSession('next', true, { replay_id: 'item-2' }),
            ],
            can_join: false,
          },
        }),
      }),
    );
    const { router } = renderRoute('/members');
    expect(await screen.findByText('Session next', {}, { timeout: 10_000 })).toBeVisible();
    expect(screen.queryByRole('link', { name: /Watch the replay/ })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Archive (2)' }));
    const link = screen.getByRole('link', { name: 'Watch the replay of Session past' });
    expect(link).toHaveAttribute('href', '/members/library/item%201');
    const bare = screen.getByText('Session bare').closest('li') as HTMLElement;
    expect(within(bare).queryByRole('link', { name: /Watch the replay/ })).toBeNull();
    await userEvent.click(link);
    await waitFor(() => expect(router.location.pathname).toBe('/members/library/item%201'));
  });

  it('badges a session that is over as ended (or completed, cancelled), never scheduled, in the Archive and the admin list', async () => {
    const past = { starts_at: '2026-03-08T22:00:00Z', ends_at: '2026-03-09T00:00:00Z' };
    mockServer(
      baseRoutes({
        'GET /api/auth/session': () => ({ status: 200, body: { user: adminUser } }),
        'GET /api/members/overview': () => ({ status: 200, body: { ...overview, is_admin: true } }),
        'GET /api/admin/waitlist': () => ({ status: 200, body: { entries: [] } }),
        'GET /api/sessions': () => ({
          status: 200,
          body: {
            sessions: [
              // Stored as scheduled, but over: the server says ended.
              liveSession('over', false, { ...past, status: 'scheduled', state: 'ended' }),
              liveSession('done', false, { ...past, status: 'completed', state: 'completed' }),
              liveSession('off', false, { ...past, status: 'cancelled', state: 'cancelled' }),
              liveSession('now', true, { status: 'scheduled', state: 'live' }),
              liveSession('next', true, { status: 'scheduled', state: 'scheduled' }),
            ],
            can_join: true,
          },
        }),
      }),
    );
    renderRoute('/members');
    const badgeOf = (title: string) => {
      const card = screen.getByText(title).closest('li') as HTMLElement;
      return within(card).getAllByText(/^(scheduled|live|ended|completed|cancelled)$/);
    };

    await userEvent.click(await screen.findByRole('button', { name: 'Archive (3)' }));
    expect(badgeOf('Session over').map((b) => b.textContent)).toEqual(['ended']);
    expect(badgeOf('Session done').map((b) => b.textContent)).toEqual(['completed']);
    expect(badgeOf('Session off').map((b) => b.textContent)).toEqual(['cancelled']);
    const archive = screen.getByText('Session over').closest('ul') as HTMLElement;
    expect(within(archive).queryByText('scheduled')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Upcoming (2)' }));
    expect(badgeOf('Session now').map((b) => b.textContent)).toEqual(['live']);
    expect(badgeOf('Session next').map((b) => b.textContent)).toEqual(['scheduled']);

    await userEvent.click(screen.getByRole('tab', { name: /Admin/ }));
    const list = (await screen.findByRole('heading', { name: 'Manage live sessions' })).closest(
      'section',
    ) as HTMLElement;
    const adminBadge = (title: string) =>
      within(within(list).getByText(title).closest('li') as HTMLElement)
        .getAllByText(/^(scheduled|live|ended|completed|cancelled)$/)
        .map((b) => b.textContent);
    expect(adminBadge('Session over')).toEqual(['ended']);
    expect(adminBadge('Session done')).toEqual(['completed']);
    expect(adminBadge('Session off')).toEqual(['cancelled']);
    expect(adminBadge('Session next')).toEqual(['scheduled']);
  });
});
