import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Cohort, SessionView as LiveSession, Profile } from '@/lib/api-types/community';
import type { MembersOverview, User } from '@/lib/api-types/web';
import { session } from '@/lib/session';
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
    max_attendees: null,
    starts_at: '2026-12-03T22:00:00Z',
    ends_at: '2026-12-04T00:00:00Z',
    upcoming,
    locked: true,
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:00.000Z',
    ...extra,
  };
}

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
    expect(screen.getByText('Coming Soon')).toBeVisible();
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
                zoom_meeting_id: '123 456',
                zoom_password: 'tribe-secret',
                zoom_join_url: 'https://zoom.us/j/123',
                meeting_link: '',
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
    const join = screen.getByRole('link', { name: /Join Session/ });
    expect(join).toHaveAttribute('href', 'https://zoom.us/j/123');
    expect(join).toHaveAttribute('rel', 'noopener noreferrer');
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
  });

  it('shows the Admin tab when the server says admin', async () => {
    mockServer(
      baseRoutes({
        'GET /api/members/overview': () => ({ status: 200, body: { ...overview, is_admin: true } }),
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
    expect(await screen.findByText('lin@example.com')).toBeVisible();
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
