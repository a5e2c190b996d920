import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Member as AdminMember, Subscription } from '@/lib/api-types/billing';
import type { MembersOverview, User } from '@/lib/api-types/web';
import { structuralViolations } from '@/test/axe';
import { ada, json, mockApi, resetAuthState } from '@/test/mock-api';
import { preloadMembersRoute, renderRoute } from '@/test/render';
import { goToCheckout } from './navigation';

vi.mock('./navigation', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./navigation')>()),
  goToCheckout: vi.fn(),
}));

const tribe = {
  capacity: 50,
  active_members: 12,
  held: 0,
  spots_left: 38,
  at_capacity: false,
  payments_enabled: true,
  plans: [],
};

const paid: Subscription = {
  status: 'active',
  current_period_end: '2027-01-15T12:00:00Z',
  cancel_at_period_end: false,
  complimentary: false,
  has_subscription_id: true,
};

function overview(subscription: Subscription | null, extra: Partial<MembersOverview> = {}) {
  return {
    subscription,
    is_subscriber: subscription !== null,
    is_admin: false,
    tribe,
    group_chat_url: null,
    ...extra,
  } satisfies MembersOverview;
}

/** The members area's reads, for a member whose subscription is `current()`. */
function serve(current: () => Subscription | null, routes: Parameters<typeof mockApi>[0] = {}) {
  const user = (): User => ({ ...ada, subscription: current() });
  return mockApi({
    'GET /api/auth/session': () => json(200, { user: user() }),
    'GET /api/members/overview': () => json(200, overview(current())),
    'GET /api/sessions': () => json(200, { sessions: [], can_join: current() !== null }),
    'GET /api/calendar/feed': () => json(200, { exists: false, created_at: null }),
    ...routes,
  });
}

async function expectToast(title: string) {
  const heading = await screen.findByText(title, {}, { timeout: 15_000 });
  expect(heading.closest('[data-sonner-toast]')).not.toBeNull();
  return heading.closest('[data-sonner-toast]') as HTMLElement;
}

beforeAll(preloadMembersRoute, 120_000);

describe('checkout return', { timeout: 30_000 }, () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  it('with success=true clears the flags, keeps polling the refresh, and says Subscription Active!', async () => {
    let subscription: Subscription | null = null;
    const api = serve(() => subscription, {
      'POST /api/billing/refresh': () => {
        // Stripe has the subscription by the second attempt.
        if (api.to('POST', '/api/billing/refresh').length >= 2) subscription = paid;
        return json(200, { subscription });
      },
    });
    const { router } = renderRoute('/members?success=true');
    await expectToast('Subscription successful!');
    await waitFor(() => expect(router.location.search).toBe(''));
    // Clearing the flags must not stop the wait: the refreshes go on.
    await waitFor(() => expect(api.to('POST', '/api/billing/refresh').length).toBe(1), {
      timeout: 5_000,
    });
    await expectToast('Subscription Active!');
    expect(api.to('POST', '/api/billing/refresh')).toHaveLength(2);
    expect(await screen.findByText('Active Subscriber')).toBeVisible();
  });

  it('with canceled=true says checkout was canceled, destructively, and asks nothing', async () => {
    const api = serve(() => null);
    const { router } = renderRoute('/members?canceled=true');
    const toast = await expectToast('Checkout canceled');
    expect(toast).toHaveAttribute('data-type', 'error');
    await waitFor(() => expect(router.location.search).toBe(''));
    await new Promise((r) => setTimeout(r, 2_500));
    expect(api.to('POST', '/api/billing/refresh')).toHaveLength(0);
  });

  it('with awaiting_subscription=true asks to finish checkout in the new tab', async () => {
    serve(() => null);
    const { router } = renderRoute('/members?awaiting_subscription=true&tab=keep');
    const toast = await expectToast('Finish checkout');
    expect(within(toast).getByText(/new tab/)).toBeInTheDocument();
    await waitFor(() => expect(router.location.search).toBe('?tab=keep'));
  });
});

describe('subscribe', { timeout: 20_000 }, () => {
  beforeEach(() => resetAuthState());
  afterEach(() => {
    resetAuthState();
    vi.mocked(goToCheckout).mockClear();
  });

  it('Upgrade starts checkout and goes to the URL the server returns', async () => {
    const api = serve(() => null, {
      'POST /api/billing/checkout': () => json(200, { url: 'https://checkout.stripe.test/c/cs_1' }),
    });
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade' }));
    await waitFor(() =>
      expect(goToCheckout).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_1'),
    );
    expect(api.to('POST', '/api/billing/checkout')[0]?.body).toEqual({ redirect_to: 'members' });
  });

  it('without online payment says so plainly, offers the wait list and takes no one to pay', async () => {
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: ada }),
      'GET /api/members/overview': () =>
        json(200, overview(null, { tribe: { ...tribe, payments_enabled: false } })),
      'GET /api/sessions': () => json(200, { sessions: [], can_join: false }),
      'GET /api/calendar/feed': () => json(200, { exists: false, created_at: null }),
    });
    renderRoute('/members');
    expect(await screen.findByRole('link', { name: 'Join the wait list' })).toHaveAttribute(
      'href',
      '/tribe',
    );
    expect(screen.queryByRole('button', { name: 'Upgrade' })).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Subscribe to Join' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Online payment is not set up yet.');
    expect(within(dialog).getByRole('link', { name: 'Join the wait list' })).toHaveAttribute(
      'href',
      '/tribe',
    );
    expect(api.to('POST', '/api/billing/checkout')).toHaveLength(0);
    expect(goToCheckout).not.toHaveBeenCalled();
  });

  it('shows the server refusal when the tribe filled up meanwhile', async () => {
    serve(() => null, {
      'POST /api/billing/checkout': () =>
        json(409, { error: { code: 'at_capacity', message: 'The tribe is full right now.' } }),
    });
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('The tribe is full right now.');
    expect(goToCheckout).not.toHaveBeenCalled();
  });
});

describe('manage', { timeout: 20_000 }, () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  it('says so when the portal answer has no URL, and closes the waiting tab', async () => {
    serve(() => paid, { 'POST /api/billing/portal': () => json(200, {}) });
    const tab = { closed: false, opener: {}, location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab),
    );
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('button', { name: 'Manage' }));
    await expectToast('Error');
    expect(screen.getByText('No portal URL returned')).toBeInTheDocument();
    expect(tab.close).toHaveBeenCalled();
  });

  it('asks a member whose session ended to log in', async () => {
    serve(() => paid, {
      'POST /api/billing/portal': () =>
        json(401, { error: { code: 'unauthorized', message: 'Not authenticated' } }),
    });
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    );
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('button', { name: 'Manage' }));
    expect(
      await screen.findByText('You must be logged in to manage your subscription'),
    ).toBeInTheDocument();
  });

  it('falls back to a general message when the server fails', async () => {
    serve(() => paid, {
      'POST /api/billing/portal': () =>
        json(503, { error: { code: 'unavailable', message: 'Stripe did not answer.' } }),
    });
    vi.stubGlobal(
      'open',
      vi.fn(() => null),
    );
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('button', { name: 'Manage' }));
    expect(await screen.findByText('Failed to open subscription management')).toBeInTheDocument();
  });

  it('gives a complimentary member no Manage button and the Complimentary badge', async () => {
    serve(() => ({
      ...paid,
      complimentary: true,
      has_subscription_id: false,
      current_period_end: null,
    }));
    renderRoute('/members');
    expect(await screen.findByText('Complimentary')).toBeVisible();
    expect(screen.getByText('No end date')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Manage' })).toBeNull();
  });

  it('the header button re-syncs with Stripe', async () => {
    const api = serve(() => null, {
      'POST /api/billing/refresh': () => json(200, { subscription: null }),
    });
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('button', { name: 'Refresh subscription' }));
    await waitFor(() => expect(api.to('POST', '/api/billing/refresh')).toHaveLength(1));
  });
});

describe('admin members', { timeout: 20_000 }, () => {
  beforeEach(() => resetAuthState());
  afterEach(() => resetAuthState());

  const free: AdminMember = {
    user_id: 'u2',
    full_name: 'Grace Hopper',
    email: 'grace@example.com',
    status: 'free',
    has_access: false,
    joined_at: '2026-11-20T10:00:00.000Z',
    complimentary: false,
    until: null,
    current_period_end: null,
    cancel_at_period_end: false,
  };

  it('lists members with status and joined date, and makes one complimentary until a date', async () => {
    let grace = free;
    const admin = { ...ada, is_admin: true };
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      'GET /api/members/overview': () => json(200, overview(null, { is_admin: true })),
      'GET /api/sessions': () => json(200, { sessions: [], can_join: true }),
      'GET /api/calendar/feed': () => json(200, { exists: false, created_at: null }),
      'GET /api/admin/waitlist': () => json(200, { entries: [] }),
      'GET /api/admin/members': () => json(200, { members: [grace] }),
      'PUT /api/admin/members/u2/complimentary': (body) => {
        const until = (body as { until: string | null }).until;
        grace = { ...free, status: 'active', has_access: true, complimentary: true, until };
        return json(200, { member: grace });
      },
      'DELETE /api/admin/members/u2/complimentary': () => {
        grace = free;
        return new Response(null, { status: 204 });
      },
    });
    renderRoute('/members');
    await userEvent.click(await screen.findByRole('tab', { name: /Admin/ }));
    const list = (await screen.findByRole('heading', { name: 'Member list' })).closest(
      'section',
    ) as HTMLElement;
    expect(await within(list).findByText('Grace Hopper')).toBeVisible();
    expect(within(list).getByText('Free Member')).toBeVisible();
    expect(within(list).getByText('November 20, 2026')).toBeVisible();

    const grant = within(list).getByRole('button', {
      name: 'Make complimentary: grace@example.com',
    });
    // The visible text starts the button's name (axe label-content-name-mismatch).
    expect(await structuralViolations(grant)).toEqual([]);
    await userEvent.click(grant);
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText(/Last day/), '2027-01-31');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.to('PUT', '/api/admin/members/u2/complimentary')[0]?.body).toEqual({
        until: '2027-01-31',
      }),
    );
    expect(await within(list).findByText('Complimentary through January 31, 2027')).toBeVisible();

    await userEvent.click(
      within(list).getByRole('button', {
        name: 'End complimentary: grace@example.com',
      }),
    );
    expect(await within(list).findByText('Free Member')).toBeVisible();
    expect(api.to('DELETE', '/api/admin/members/u2/complimentary')).toHaveLength(1);
  });
});
