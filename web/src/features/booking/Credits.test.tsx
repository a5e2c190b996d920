import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundledContent } from '@/content/site';
import { createMemoryHistory, Router } from '@/lib/router';
import { session } from '@/lib/session';
import { atInstantInZone } from '@/test/zone';
import type { Credits, SlotDay } from './api/types';
import { BookingFlow } from './BookingFlow';
import { bookWithCreditHref, CreditsPage } from './CreditsPage';
import { findOffer } from './offers';
import { PackagesSection } from './PackagesSection';
import {
  errorResponse,
  fakeServer,
  jsonResponse,
  type Route,
  slotsRoute,
  typesRoute,
} from './test-server';

function client() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

atInstantInZone('2026-03-02T15:00:00Z', 'America/New_York');

afterEach(() => {
  session.dispose();
  vi.unstubAllGlobals();
});

const nyDays = (): SlotDay[] => [
  { date: '2026-03-09', slots: ['2026-03-09T09:00:00-04:00', '2026-03-09T09:30:00-04:00'] },
];

const credits = (remaining: number): Credits => ({
  email: 'grace@example.com',
  credits: [
    {
      package: 'deep-dive-4',
      name: '4 Deep Dives',
      type: 'session-30',
      type_name: 'Deep Dive',
      count: 4,
      remaining,
      expires_at: '2027-03-03T05:00:00Z',
      last_day: '2027-03-02',
    },
  ],
});

function creditsRoute(answer: () => Response): Route {
  return ({ method, url }) =>
    method === 'GET' &&
    (url.pathname === '/api/credits' || url.pathname === '/api/members/me/credits')
      ? answer()
      : undefined;
}

function packagesRoute(memberPrices: boolean, paymentsEnabled = true): Route {
  return ({ method, url }) =>
    method === 'GET' && url.pathname === '/api/booking/packages'
      ? jsonResponse(200, {
          packages: [],
          member_prices: memberPrices,
          payments_enabled: paymentsEnabled,
        })
      : undefined;
}

function renderAt(path: string, node: React.ReactNode, routes: Route[], signedIn = false) {
  const server = fakeServer(routes, { signedIn });
  const history = createMemoryHistory([path]);
  render(
    <QueryClientProvider client={client()}>
      <Router history={history}>{node}</Router>
    </QueryClientProvider>,
  );
  return { server, history };
}

async function chooseFirstTime(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: /March 9, 2026, 2 times available/ }));
  await user.click(screen.getByRole('button', { name: '9:00 AM' }));
  await screen.findByRole('heading', { name: 'Your details' });
}

describe('session packages', { timeout: 20_000 }, () => {
  it('lists the packages with their price, validity and member price, and opens Checkout', async () => {
    const user = userEvent.setup({ delay: null });
    const goToCheckout = vi.fn();
    const { server } = renderAt('/booking', <PackagesSection goToCheckout={goToCheckout} />, [
      packagesRoute(false),
      ({ method, url }) =>
        method === 'POST' && url.pathname === '/api/booking/packages/deep-dive-4/checkout'
          ? jsonResponse(201, { checkout_url: 'https://checkout.stripe.test/c/cs_1' })
          : undefined,
    ]);
    const cards = await screen.findAllByTestId('package-card');
    expect(cards).toHaveLength(bundledContent.services.packages?.length ?? 0);
    const first = cards[0] as HTMLElement;
    expect(within(first).getByRole('heading', { name: '4 Deep Dives' })).toBeInTheDocument();
    expect(within(first).getByText('$999')).toBeInTheDocument();
    expect(within(first).getByText('Tribe members pay $899 (member price)')).toBeInTheDocument();
    expect(within(first).getByText(/valid 12 months after/)).toBeInTheDocument();

    const buy = within(first).getByRole('button', { name: 'Buy 4 Deep Dives' });
    await waitFor(() => expect(buy).toBeEnabled());
    await user.click(buy);
    expect(buy).toHaveAttribute('aria-expanded', 'true');
    const name = within(first).getByLabelText('Full name');
    await waitFor(() => expect(name).toHaveFocus());
    // Nothing sent without an address.
    await user.type(name, 'Grace Hopper');
    await user.click(within(first).getByRole('button', { name: 'Pay $999' }));
    expect(within(first).getByText('Please enter your e-mail address.')).toBeInTheDocument();
    expect(server.to('POST', '/api/booking/packages/deep-dive-4/checkout')).toHaveLength(0);

    await user.type(within(first).getByLabelText('E-mail'), 'grace@example.com');
    await user.click(within(first).getByRole('button', { name: 'Pay $999' }));
    await waitFor(() =>
      expect(goToCheckout).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_1'),
    );
    expect(server.to('POST', '/api/booking/packages/deep-dive-4/checkout')[0]?.body).toEqual({
      name: 'Grace Hopper',
      email: 'grace@example.com',
    });
  });

  it('says a member pays the member price, as the server decides', async () => {
    renderAt('/booking', <PackagesSection goToCheckout={vi.fn()} />, [packagesRoute(true)], true);
    const first = (await screen.findAllByTestId('package-card'))[0] as HTMLElement;
    expect(await within(first).findByText('Member price')).toBeInTheDocument();
    expect(within(first).getByText('$899')).toBeInTheDocument();
    expect(within(first).getByText('$999').closest('s')).not.toBeNull();
  });

  it('shows the server refusing the purchase, and says when payment is off', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt('/booking', <PackagesSection goToCheckout={vi.fn()} />, [
      packagesRoute(false),
      ({ method }) =>
        method === 'POST'
          ? errorResponse(
              503,
              'unavailable',
              'The payment service did not answer, so nothing was charged.',
            )
          : undefined,
    ]);
    const first = (await screen.findAllByTestId('package-card'))[0] as HTMLElement;
    const buy = within(first).getByRole('button', { name: 'Buy 4 Deep Dives' });
    await waitFor(() => expect(buy).toBeEnabled());
    await user.click(buy);
    await user.type(within(first).getByLabelText('Full name'), 'Grace Hopper');
    await user.type(within(first).getByLabelText('E-mail'), 'grace@example.com');
    await user.click(within(first).getByRole('button', { name: 'Pay $999' }));
    expect(await within(first).findByRole('alert')).toHaveTextContent('did not answer');
  });

  it('says packages cannot be bought while payment is off', async () => {
    renderAt('/booking', <PackagesSection goToCheckout={vi.fn()} />, [packagesRoute(false, false)]);
    const first = (await screen.findAllByTestId('package-card'))[0] as HTMLElement;
    expect(await within(first).findByText(/not set up yet/)).toBeInTheDocument();
    expect(within(first).queryByRole('button')).toBeNull();
  });
});

describe('the credits page', { timeout: 20_000 }, () => {
  it('shows the balance of a credits link with a link to book with a credit', async () => {
    const { server } = renderAt(
      '/bookings/credits?email=grace%40example.com&token=tok',
      <CreditsPage client={client()} />,
      [creditsRoute(() => jsonResponse(200, credits(3)))],
    );
    const card = await screen.findByTestId('credit-card');
    expect(card).toHaveTextContent('3 of 4 credits left');
    // The owner's last day, whatever the visitor's zone: no hour of the owner's midnight.
    expect(card).toHaveTextContent('Use them by Tuesday, March 2, 2027.');
    const book = within(card).getByRole('link', { name: 'Book a Deep Dive with a credit' });
    expect(book).toHaveAttribute(
      'href',
      bookWithCreditHref('session-30', { email: 'grace@example.com', token: 'tok' }),
    );
    const asked = server.to('GET', '/api/credits')[0]?.url;
    expect(asked?.searchParams.get('email')).toBe('grace@example.com');
    expect(asked?.searchParams.get('token')).toBe('tok');
  });

  it('says a wrong link is not valid', async () => {
    renderAt(
      '/bookings/credits?email=a%40b.example&token=wrong',
      <CreditsPage client={client()} />,
      [creditsRoute(() => errorResponse(404, 'not_found', 'This credits link is not valid.'))],
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This credits link is not valid');
  });

  it('has an empty state, and asks a visitor without a link to open it or sign in', async () => {
    renderAt('/bookings/credits?email=a%40b.example&token=t', <CreditsPage client={client()} />, [
      creditsRoute(() => jsonResponse(200, { email: 'a@b.example', credits: [] })),
    ]);
    expect(
      await screen.findByText('You have no credits to book with right now.'),
    ).toBeInTheDocument();
  });

  it('asks a signed-out visitor without a link to open it or sign in', async () => {
    renderAt('/bookings/credits', <CreditsPage client={client()} />, []);
    expect(
      await screen.findByText('Open the link in your credits e-mail to see your credits.'),
    ).toBeInTheDocument();
  });

  it("reads a signed-in member's credits without a link", async () => {
    const { server } = renderAt(
      '/bookings/credits',
      <CreditsPage client={client()} />,
      [creditsRoute(() => jsonResponse(200, credits(4)))],
      true,
    );
    expect(await screen.findByTestId('credit-card')).toHaveTextContent('4 of 4 credits left');
    expect(server.to('GET', '/api/members/me/credits')).toHaveLength(1);
  });

  it('back from paying, waits for the credits', async () => {
    let granted = false;
    renderAt(
      '/bookings/credits?email=g%40e.example&token=t&paid=1',
      <CreditsPage client={client()} />,
      [
        creditsRoute(() =>
          jsonResponse(200, granted ? credits(4) : { email: 'g@e.example', credits: [] }),
        ),
      ],
    );
    expect(await screen.findByRole('status')).toHaveTextContent('Your payment is being confirmed');
    granted = true;
    expect(await screen.findByTestId('credit-card', {}, { timeout: 5000 })).toHaveTextContent(
      '4 of 4 credits left',
    );
  });
});

describe('booking with a credit', { timeout: 20_000 }, () => {
  function renderFlow(routes: Route[], path: string, signedIn = false) {
    const offer = findOffer(bundledContent.services, 'session-30');
    if (!offer) throw new Error('no session-30');
    return renderAt(path, <BookingFlow offer={offer} goToCheckout={vi.fn()} />, routes, signedIn);
  }

  it('books with a credit of the link, confirmed without Checkout', async () => {
    const user = userEvent.setup({ delay: null });
    const { server, history } = renderFlow(
      [
        typesRoute(true),
        slotsRoute(nyDays),
        creditsRoute(() => jsonResponse(200, credits(2))),
        ({ method, url }) =>
          method === 'POST' && url.pathname === '/api/bookings'
            ? jsonResponse(201, {
                booking: { id: 'bk_9', status: 'confirmed', credit: true },
                token: 'mt',
                manage_url: '/bookings/bk_9?token=mt',
              })
            : undefined,
      ],
      '/book/session-30?credit=1&email=grace%40example.com&credit_token=tok',
    );
    await chooseFirstTime(user);
    expect(await screen.findByRole('radio', { name: /Use a credit \(2 left\)/ })).toBeChecked();
    expect(screen.getByLabelText('E-mail')).toHaveValue('grace@example.com');
    await user.type(screen.getByLabelText('Full name'), 'Grace Hopper');
    await user.click(screen.getByRole('button', { name: 'Book with a credit' }));
    await waitFor(() => expect(history.location.pathname).toBe('/bookings/bk_9'));
    expect(server.to('POST', '/api/bookings')[0]?.body).toMatchObject({
      type: 'session-30',
      email: 'grace@example.com',
      use_credit: true,
      credit_token: 'tok',
    });
  });

  it('when the last credit was just taken, says so and offers to pay instead', async () => {
    const user = userEvent.setup({ delay: null });
    renderFlow(
      [
        typesRoute(true),
        slotsRoute(nyDays),
        creditsRoute(() => jsonResponse(200, credits(1))),
        ({ method }) =>
          method === 'POST'
            ? errorResponse(409, 'no_credit', 'You have no credit left for this session.')
            : undefined,
      ],
      '/book/session-30?email=grace%40example.com&credit_token=tok',
    );
    await chooseFirstTime(user);
    await screen.findByRole('radio', { name: /Use a credit/ });
    await user.type(screen.getByLabelText('Full name'), 'Grace Hopper');
    await user.click(screen.getByRole('button', { name: 'Book with a credit' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('no credit left');
    expect(screen.getByRole('button', { name: 'Pay $299 and book' })).toBeInTheDocument();
  });

  it('tells a member the member price the server charges', async () => {
    const user = userEvent.setup({ delay: null });
    const offer = findOffer(bundledContent.services, 'session-60');
    if (!offer) throw new Error('no session-60');
    const types: Route = ({ method, url }) =>
      method === 'GET' && url.pathname === '/api/booking/types'
        ? jsonResponse(200, {
            payments_enabled: true,
            member_prices: true,
            types: [
              {
                id: 'session-60',
                name: 'Strategy Session',
                duration: 60,
                price: 49900,
                member_price: 44900,
                currency: 'USD',
                mode: 'native',
              },
            ],
          })
        : undefined;
    renderAt(
      '/book/session-60',
      <BookingFlow offer={offer} goToCheckout={vi.fn()} />,
      [
        types,
        slotsRoute(nyDays),
        creditsRoute(() => jsonResponse(200, { email: '', credits: [] })),
      ],
      true,
    );
    await chooseFirstTime(user);
    expect(
      await screen.findByRole('button', { name: 'Pay $449 and book (member price)' }),
    ).toBeInTheDocument();
  });
});
