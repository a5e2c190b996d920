import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundledContent } from '@/content/site';
import { createMemoryHistory, Router } from '@/lib/router';
import { session } from '@/lib/session';
import { atInstantInZone } from '@/test/zone';
import type { BookingEvent } from './api/types';
import { BookingFlow } from './BookingFlow';
import { findOffer } from './offers';
import {
  booking,
  errorResponse,
  fakeServer,
  jsonResponse,
  type Route,
  typesRoute,
} from './test-server';

function client() {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

const date = (id: string, start: string, left: number): BookingEvent => ({
  id,
  type: 'group',
  type_name: 'Group Training',
  status: 'scheduled',
  start,
  end: start.replace('T14', 'T16'),
  duration: 120,
  seats: 50,
  seats_left: left,
  waiting: 0,
  taken: 50 - left,
  price: 50000,
  currency: 'USD',
});

function eventsRoute(list: () => BookingEvent[]): Route {
  return ({ method, url }) =>
    method === 'GET' &&
    url.pathname === '/api/booking/events' &&
    url.searchParams.get('type') === 'group'
      ? jsonResponse(200, { events: list() })
      : undefined;
}

function renderSeatFlow(routes: Route[]) {
  const server = fakeServer(routes);
  const offer = findOffer(bundledContent.services, 'group');
  if (!offer) throw new Error('no group training in the content');
  const goToCheckout = vi.fn();
  render(
    <QueryClientProvider client={client()}>
      <Router history={createMemoryHistory(['/book/group'])}>
        <BookingFlow offer={offer} goToCheckout={goToCheckout} />
      </Router>
    </QueryClientProvider>,
  );
  return { server, goToCheckout };
}

atInstantInZone('2026-03-02T15:00:00Z', 'America/New_York');

afterEach(() => {
  session.dispose();
  vi.unstubAllGlobals();
});

describe('booking a seat of the group training', { timeout: 20_000 }, () => {
  it('is sold by the seat in the content', () => {
    expect(findOffer(bundledContent.services, 'group')?.seats).toBe(50);
  });

  it('lists the dates with their seats left; a full date cannot be chosen', async () => {
    renderSeatFlow([
      typesRoute(true),
      eventsRoute(() => [
        date('ev1', '2026-03-10T14:00:00Z', 3),
        date('ev2', '2026-03-17T14:00:00Z', 0),
      ]),
    ]);
    const group = await screen.findByRole('group', { name: 'Upcoming dates' });
    const [first, second] = await within(group).findAllByRole('radio');
    expect(first).toBeEnabled();
    expect(second).toBeDisabled();
    expect(within(group).getByText('3 seats left')).toBeInTheDocument();
    expect(within(group).getByText('Sold out')).toBeInTheDocument();
    // The time in the visitor's zone, 12-hour.
    expect(within(group).getByText(/Tuesday, March 10, 2026 at 10:00 AM EDT/)).toBeInTheDocument();
  });

  it('pays for one seat: the date goes to the server as event_id, then to Checkout', async () => {
    const user = userEvent.setup({ delay: null });
    const { server, goToCheckout } = renderSeatFlow([
      typesRoute(true),
      eventsRoute(() => [date('ev1', '2026-03-10T14:00:00Z', 3)]),
      ({ method, url }) =>
        method === 'POST' && url.pathname === '/api/bookings'
          ? jsonResponse(201, {
              booking: booking({ id: 'bk_seat', type: 'group', status: 'held', event_id: 'ev1' }),
              token: 'tok',
              manage_url: '/bookings/bk_seat?token=tok',
              checkout_url: 'https://checkout.stripe.com/c/pay/cs_seat',
            })
          : undefined,
    ]);
    await user.click(await screen.findByRole('radio', { name: /March 10, 2026/ }));
    await user.type(screen.getByLabelText('Full name'), 'Grace Hopper');
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Pay $500 and take a seat' }));
    await waitFor(() =>
      expect(goToCheckout).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_seat'),
    );
    expect(server.to('POST', '/api/bookings')[0]?.body).toMatchObject({
      type: 'group',
      event_id: 'ev1',
      name: 'Grace Hopper',
      email: 'grace@example.com',
    });
  });

  it('says so when the last seat went meanwhile, and shows the seats again', async () => {
    const user = userEvent.setup({ delay: null });
    let left = 1;
    const { server } = renderSeatFlow([
      typesRoute(true),
      eventsRoute(() => [date('ev1', '2026-03-10T14:00:00Z', left)]),
      ({ method, url }) => {
        if (method !== 'POST' || url.pathname !== '/api/bookings') return undefined;
        left = 0;
        return errorResponse(409, 'sold_out', 'Sorry, the last seat of this date was just taken.');
      },
    ]);
    await user.click(await screen.findByRole('radio', { name: /March 10, 2026/ }));
    await user.type(screen.getByLabelText('Full name'), 'Grace Hopper');
    await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
    await user.click(screen.getByRole('button', { name: 'Pay $500 and take a seat' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/last seat of that date/);
    expect(await screen.findByText('Sold out')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Your details' })).toBeNull();
    expect(server.to('GET', '/api/booking/events').length).toBeGreaterThan(1);
  });

  it('says plainly when no date is scheduled', async () => {
    renderSeatFlow([typesRoute(false), eventsRoute(() => [])]);
    expect(await screen.findByText(/No dates are scheduled right now/)).toBeInTheDocument();
  });
});
