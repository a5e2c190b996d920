import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TribeStatus } from '@/lib/api-types/billing';
import type { User } from '@/lib/api-types/web';
import { session } from '@/lib/session';
import { ada, json, mockApi } from '@/test/mock-api';
import { renderRoute } from '@/test/render';
import { goToCheckout } from './api/start-checkout';

vi.mock('./api/start-checkout', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./api/start-checkout')>()),
  goToCheckout: vi.fn(),
}));

function respond(status: number, body: unknown) {
  return vi.fn(
    async () =>
      new Response(JSON.stringify(body), {
        status,
        headers: { 'Content-Type': 'application/json' },
      }),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Tribe landing', () => {
  it('shows the spots left from /api/tribe/status', async () => {
    const fetchMock = respond(200, {
      capacity: 50,
      active_members: 12,
      held: 0,
      spots_left: 38,
      at_capacity: false,
      payments_enabled: true,
    });
    vi.stubGlobal('fetch', fetchMock);
    renderRoute('/tribe');
    expect(await screen.findAllByText('38 spots left of 50')).toHaveLength(2);
    expect(fetchMock).toHaveBeenCalledWith('/api/tribe/status', expect.anything());
    expect(screen.queryByText('At Capacity')).not.toBeInTheDocument();
  });

  it('shows At Capacity and leads with the wait list when the tribe is full', async () => {
    vi.stubGlobal(
      'fetch',
      respond(200, {
        capacity: 50,
        active_members: 50,
        held: 0,
        spots_left: 0,
        at_capacity: true,
        payments_enabled: true,
      }),
    );
    renderRoute('/tribe');
    expect(await screen.findAllByText('At Capacity')).toHaveLength(2);
    // Hero, step 2 and the closing call to action each offer both buttons.
    const waitlist = screen.getAllByRole('button', { name: 'Join Wait List' });
    const login = screen.getAllByRole('button', { name: 'Login' });
    expect(waitlist).toHaveLength(3);
    expect(login).toHaveLength(3);
    expect(waitlist[0]?.className).toContain('bg-term-green');
    expect(login[0]?.className).not.toContain('bg-term-green');
  });

  it('says how many seats are being checked out beside the spots left', async () => {
    vi.stubGlobal(
      'fetch',
      respond(200, {
        capacity: 50,
        active_members: 45,
        held: 2,
        spots_left: 3,
        at_capacity: false,
        payments_enabled: true,
      }),
    );
    renderRoute('/tribe');
    expect(await screen.findAllByText('3 spots left of 50, 2 being checked out')).toHaveLength(2);
    expect(screen.getByRole('status')).toHaveTextContent('3 spots left of 50, 2 being checked out');
  });

  it('says when checkouts in progress hold the last seats', async () => {
    vi.stubGlobal(
      'fetch',
      respond(200, {
        capacity: 50,
        active_members: 49,
        held: 1,
        spots_left: 0,
        at_capacity: true,
        payments_enabled: true,
      }),
    );
    renderRoute('/tribe');
    expect(await screen.findAllByText('At Capacity')).toHaveLength(2);
    expect(screen.getByRole('status')).toHaveTextContent(
      'All 50 places are taken, 1 of them by a checkout in progress that frees up if not paid within half an hour.',
    );
  });

  it('keeps the neutral cap from the content when the status cannot be had', async () => {
    vi.stubGlobal('fetch', respond(404, { error: { code: 'not_found', message: 'no' } }));
    renderRoute('/tribe');
    const hero = await screen.findByRole('heading', { level: 1, name: 'The Tribe' });
    expect(hero).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Limited to 50 members');
    expect(screen.queryByText('At Capacity')).not.toBeInTheDocument();
  });

  it('offers Join Wait List and Login in the hero, in step 2 and in the closing call to action', async () => {
    vi.stubGlobal('fetch', respond(404, {}));
    renderRoute('/tribe');
    const hero = (await screen.findByRole('heading', { level: 1, name: 'The Tribe' })).closest(
      'section',
    ) as HTMLElement;
    expect(hero).toHaveTextContent('Build agentic AI with a small cohort of builders.');
    const step2 = within(screen.getByRole('region', { name: 'How it works' }))
      .getAllByRole('listitem')
      .at(1) as HTMLElement;
    const closing = screen.getByRole('region', { name: 'Ready to build with the tribe?' });
    for (const place of [hero, step2, closing]) {
      expect(within(place).getByRole('button', { name: 'Join Wait List' })).toBeInTheDocument();
      expect(within(place).getByRole('button', { name: 'Login' })).toBeInTheDocument();
    }
    expect(screen.getAllByRole('button', { name: 'Join Wait List' })).toHaveLength(3);
  });

  it('says what the tribe is, who leads it, and links two social profiles at the end', async () => {
    vi.stubGlobal('fetch', respond(404, {}));
    renderRoute('/tribe');
    const what = await screen.findByRole('region', { name: 'What the tribe is' });
    expect(what).toHaveTextContent('bi-weekly');
    const led = screen.getByRole('region', { name: 'Led by rUv' });
    expect(within(led).getByRole('link', { name: /More about rUv/ })).toHaveAttribute(
      'href',
      '/about',
    );
    const closing = screen.getByRole('region', { name: 'Ready to build with the tribe?' });
    const social = within(within(closing).getByRole('list', { name: 'Follow rUv' })).getAllByRole(
      'link',
    );
    expect(social.map((l) => l.textContent)).toEqual(['LinkedIn', 'GitHub']);
    for (const link of social) expect(link).toHaveAttribute('target', '_blank');
  });

  it('lists the three steps, six things to build and the price', async () => {
    vi.stubGlobal('fetch', respond(404, {}));
    renderRoute('/tribe');
    const how = await screen.findByRole('region', { name: 'How it works' });
    expect(
      within(how)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Find your tribe', 'Meet and build together', 'Ship and iterate']);
    const build = screen.getByRole('region', { name: 'What you will build' });
    expect(
      within(build)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Autonomous agents with multi-step reasoning',
      'Multi-agent orchestration systems',
      'Retrieval-powered knowledge assistants',
      'Custom AI workflows',
      'Agent-based data pipelines',
      'Production-ready agentic applications',
    ]);
    const pricing = screen.getByRole('region', { name: 'Membership' });
    expect(pricing).toHaveTextContent('$250/month');
    expect(pricing).toHaveTextContent('cancel anytime');
    expect(pricing).toHaveTextContent('Live sessions of 2 hours, bi-weekly');
    expect(pricing).toHaveTextContent('Cohorts of about 5');
  });
});

const open: TribeStatus = {
  capacity: 50,
  active_members: 12,
  held: 0,
  spots_left: 38,
  at_capacity: false,
  payments_enabled: true,
  plans: [{ plan: 'monthly', amount: 0, currency: '', interval: 'month', interval_count: 1 }],
};

function serve(status: TribeStatus, user: User | null) {
  return mockApi({
    'GET /api/auth/session': () => json(200, { user }),
    'GET /api/tribe/status': () => json(200, status),
    'POST /api/billing/checkout': () => json(200, { url: 'https://checkout.stripe.test/c/cs_1' }),
  });
}

describe('Tribe calls to action follow the real state', () => {
  beforeEach(() => session.dispose());
  afterEach(() => {
    session.dispose();
    vi.mocked(goToCheckout).mockClear();
  });

  it('asks a visitor to sign up first while seats are free and payment is on', async () => {
    serve(open, null);
    renderRoute('/tribe');
    const signUp = await screen.findAllByRole('link', { name: 'Sign Up to Join' });
    expect(signUp).toHaveLength(3);
    for (const link of signUp) expect(link).toHaveAttribute('href', '/auth');
    expect(screen.getAllByRole('button', { name: 'Login' })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Join Wait List' })).toBeNull();
  });

  it('offers a signed-in member Subscribe, which goes to Stripe Checkout, and the members area', async () => {
    const api = serve(open, ada);
    renderRoute('/tribe');
    const subscribe = await screen.findAllByRole('button', { name: 'Subscribe' });
    expect(subscribe).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();
    expect(screen.getAllByRole('link', { name: 'Members Area' })[0]).toHaveAttribute(
      'href',
      '/members',
    );
    await userEvent.click(subscribe[0] as HTMLElement);
    await waitFor(() =>
      expect(goToCheckout).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_1'),
    );
    expect(api.to('POST', '/api/billing/checkout')[0]?.body).toEqual({
      redirect_to: 'members',
      plan: 'monthly',
    });
    expect(screen.queryByRole('radio', { name: /Yearly/ })).toBeNull();
  });

  it('offers the annual plan beside the monthly one when the tribe sells both', async () => {
    const both: TribeStatus = {
      ...open,
      plans: [
        { plan: 'monthly', amount: 25000, currency: 'usd', interval: 'month', interval_count: 1 },
        { plan: 'annual', amount: 250000, currency: 'usd', interval: 'year', interval_count: 1 },
      ],
    };
    const api = serve(both, ada);
    renderRoute('/tribe');
    const yearly = await screen.findAllByRole('radio', { name: 'Yearly: $2,500/year' });
    expect(screen.getAllByRole('radio', { name: 'Monthly: $250/month' })[0]).toBeChecked();
    await userEvent.click(yearly[0] as HTMLElement);
    expect(yearly[0]).toBeChecked();
    expect(yearly[1]).not.toBeChecked(); // each choice is its own group
    const group = (yearly[0] as HTMLElement).closest('fieldset')?.parentElement as HTMLElement;
    await userEvent.click(within(group).getByRole('button', { name: 'Subscribe' }));
    await waitFor(() => expect(api.to('POST', '/api/billing/checkout')).toHaveLength(1));
    expect(api.to('POST', '/api/billing/checkout')[0]?.body).toEqual({
      redirect_to: 'members',
      plan: 'annual',
    });
  });

  it('sends a subscriber to the members area', async () => {
    const subscriber: User = {
      ...ada,
      subscription: {
        status: 'active',
        current_period_end: null,
        cancel_at_period_end: false,
        complimentary: false,
        has_subscription_id: true,
      },
    };
    serve(open, subscriber);
    renderRoute('/tribe');
    expect(await screen.findAllByRole('link', { name: 'Go to the Members Area' })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Join Wait List' })).toBeNull();
  });

  it('sends an admin without a subscription to the members area, offering no wait list or payment', async () => {
    serve({ ...open, payments_enabled: false }, { ...ada, is_admin: true });
    renderRoute('/tribe');
    expect(await screen.findAllByRole('link', { name: 'Go to the Members Area' })).toHaveLength(3);
    expect(screen.getByText(/You are an admin: the sessions, the meeting details/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Join Wait List' })).toBeNull();
    expect(screen.queryByText(/join the wait list/i)).toBeNull();
  });

  it('offers the wait list when payment is off, and its dialog does not claim the tribe is full', async () => {
    serve({ ...open, payments_enabled: false }, ada);
    renderRoute('/tribe');
    expect(await screen.findAllByText('38 spots left of 50')).toHaveLength(2);
    expect(
      screen.getAllByText(/Online payment is not set up yet: join the wait list/),
    ).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
    const waitlist = await screen.findAllByRole('button', { name: 'Join Wait List' });
    await userEvent.click(waitlist[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Online payment is not set up yet.');
    expect(dialog).not.toHaveTextContent(/at capacity/i);
  });

  it('says the tribe is at capacity in the wait-list dialog only when it is', async () => {
    serve({ ...open, active_members: 50, spots_left: 0, at_capacity: true }, null);
    renderRoute('/tribe');
    expect(await screen.findAllByText('At Capacity')).toHaveLength(2);
    await userEvent.click(
      (await screen.findAllByRole('button', { name: 'Join Wait List' }))[0] as HTMLElement,
    );
    expect(await screen.findByRole('dialog')).toHaveTextContent('The tribe is at capacity');
  });

  it('keeps the visitor view while a sign-in in the Login dialog leaves for the members area', async () => {
    serve(open, null);
    renderRoute('/tribe');
    await screen.findAllByRole('link', { name: 'Sign Up to Join' });
    session.signedIn(ada); // what the dialog does just before its full-page load
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getAllByRole('button', { name: 'Login' })).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Subscribe' })).toBeNull();
  });
});
