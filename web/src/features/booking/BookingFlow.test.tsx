import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bundledContent } from '@/content/site';
import { createMemoryHistory, Router } from '@/lib/router';
import { session } from '@/lib/session';
import { atInstantInZone, env } from '@/test/zone';
import type { SlotDay } from './api/types';
import { BookingFlow } from './BookingFlow';
import { findOffer } from './offers';
import { SlotPicker } from './SlotPicker';
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

/** Two free mornings in New York, as the server writes them for that zone. */
const nyDays = (): SlotDay[] => [
  { date: '2026-03-09', slots: ['2026-03-09T09:00:00-04:00', '2026-03-09T09:30:00-04:00'] },
  { date: '2026-03-10', slots: ['2026-03-10T13:00:00-04:00'] },
];

function renderFlow(
  routes: Route[],
  { signedIn = false, goToCheckout = vi.fn(), path = '/book/session-30' } = {},
) {
  const server = fakeServer(routes, { signedIn });
  const history = createMemoryHistory([path]);
  const offer = findOffer(bundledContent.services, 'session-30');
  if (!offer) throw new Error('no session-30 in the content');
  render(
    <QueryClientProvider client={client()}>
      <Router history={history}>
        <BookingFlow offer={offer} goToCheckout={goToCheckout} />
      </Router>
    </QueryClientProvider>,
  );
  return { server, history, goToCheckout };
}

async function chooseFirstTime(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: /March 9, 2026, 2 times available/ }));
  await user.click(screen.getByRole('button', { name: '9:00 AM' }));
  // The form's heading takes focus on the next frame, as a visitor sees it before acting.
  const heading = await screen.findByRole('heading', { name: 'Your details' });
  await waitFor(() => expect(heading).toHaveFocus());
  return heading;
}

async function fillForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Full name'), 'Grace Hopper');
  await user.type(screen.getByLabelText('E-mail'), 'grace@example.com');
}

describe('BookingFlow', { timeout: 20_000 }, () => {
  it("shows the visitor's zone and the free times in it, 12-hour", async () => {
    const user = userEvent.setup({ delay: null });
    renderFlow([typesRoute(false), slotsRoute(nyDays)]);
    expect(await screen.findByText(/^Times are shown in/)).toHaveTextContent('America/New_York');
    expect(await screen.findByRole('grid', { name: 'March 2026' })).toBeInTheDocument();
    await user.click(
      await screen.findByRole('button', { name: /March 10, 2026, 1 time available/ }),
    );
    expect(screen.getByRole('button', { name: '1:00 PM' })).toBeInTheDocument();
  });

  it("opens on a link's ?start= time, written with another zone's offset, with the form ready", async () => {
    // The AI and the console link to a free time written in the zone they were asked about.
    const start = encodeURIComponent('2026-03-10T19:00:00+02:00');
    renderFlow([typesRoute(false), slotsRoute(nyDays)], {
      path: `/book/session-30?start=${start}`,
    });
    expect(await screen.findByRole('heading', { name: 'Your details' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your details' })).toHaveTextContent(
      'March 10, 2026 at 1:00 PM (America/New_York)',
    );
    expect(screen.getByRole('button', { name: '1:00 PM' })).toHaveAttribute('aria-pressed', 'true');
  });

  it("says so when a link's ?start= time is no longer free, and shows the free ones", async () => {
    const start = encodeURIComponent('2026-03-10T15:00:00-04:00');
    renderFlow([typesRoute(false), slotsRoute(nyDays)], {
      path: `/book/session-30?start=${start}`,
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The time you chose is no longer free',
    );
    expect(screen.queryByRole('heading', { name: 'Your details' })).not.toBeInTheDocument();
    expect(
      screen.getByRole('button', { name: /March 9, 2026, 2 times available/ }),
    ).toBeInTheDocument();
  });

  it('asks for the slots of the month in the chosen zone, and again when the zone changes', async () => {
    const user = userEvent.setup({ delay: null });
    const { server } = renderFlow([typesRoute(false), slotsRoute(nyDays)]);
    await screen.findByRole('button', { name: /March 9, 2026, 2 times available/ });
    const first = server.to('GET', '/api/booking/slots')[0]?.url.searchParams;
    expect(Object.fromEntries(first ?? [])).toEqual({
      type: 'session-30',
      from: '2026-03-02',
      to: '2026-03-31',
      tz: 'America/New_York',
    });
    await user.click(screen.getByRole('button', { name: 'Change time zone' }));
    await user.type(screen.getByRole('combobox'), 'paris{Enter}');
    await waitFor(() =>
      expect(server.to('GET', '/api/booking/slots').at(-1)?.url.searchParams.get('tz')).toBe(
        'Europe/Paris',
      ),
    );
  });

  it('checks the form before sending: name, address and at most 2,000 characters', async () => {
    const user = userEvent.setup({ delay: null });
    const { server } = renderFlow([typesRoute(false), slotsRoute(nyDays)]);
    await chooseFirstTime(user);
    await user.click(screen.getByRole('button', { name: 'Request this time' }));
    expect(screen.getByLabelText('Full name')).toHaveAccessibleDescription(
      'Please enter your full name.',
    );
    expect(screen.getByLabelText('Full name')).toHaveFocus();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true');
    await fillForm(user);
    const notes = screen.getByLabelText('What would you like to cover? (optional)');
    await user.click(notes);
    await user.paste('x'.repeat(2001));
    expect(screen.getByText('2,001 / 2,000 characters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Request this time' }));
    expect(notes).toHaveAccessibleDescription(/2,000 characters/);
    expect(server.to('POST', '/api/bookings')).toHaveLength(0);
  });

  it("fills in a signed-in member's name and address", async () => {
    const user = userEvent.setup({ delay: null });
    renderFlow([typesRoute(false), slotsRoute(nyDays)], { signedIn: true });
    await chooseFirstTime(user);
    await waitFor(() => expect(screen.getByLabelText('Full name')).toHaveValue('Ada Lovelace'));
    expect(screen.getByLabelText('E-mail')).toHaveValue('ada@example.com');
  });

  it('with payments off, requests the time, says payment comes after confirmation, and opens the booking', async () => {
    const user = userEvent.setup({ delay: null });
    const { server, history } = renderFlow([
      typesRoute(false),
      slotsRoute(nyDays),
      ({ method, url }) =>
        method === 'POST' && url.pathname === '/api/bookings'
          ? jsonResponse(201, { booking: { id: 'bk_9', status: 'requested' }, token: 'tok en' })
          : undefined,
    ]);
    await chooseFirstTime(user);
    expect(
      screen.getByText(/payment \(\$299\) is arranged after confirmation/),
    ).toBeInTheDocument();
    await fillForm(user);
    await user.type(screen.getByLabelText(/What would you like to cover/), 'My agents loop.');
    await user.click(screen.getByRole('button', { name: 'Request this time' }));
    await waitFor(() => expect(history.location.pathname).toBe('/bookings/bk_9'));
    expect(history.location.search).toBe('?token=tok%20en');
    expect(server.to('POST', '/api/bookings')[0]?.body).toEqual({
      type: 'session-30',
      start: '2026-03-09T09:00:00-04:00',
      name: 'Grace Hopper',
      email: 'grace@example.com',
      notes: 'My agents loop.',
      time_zone: 'America/New_York',
    });
  });

  it('with payments on, offers to pay the price and goes to Checkout', async () => {
    const user = userEvent.setup({ delay: null });
    const { goToCheckout } = renderFlow([
      typesRoute(true),
      slotsRoute(nyDays),
      ({ method, url }) =>
        method === 'POST' && url.pathname === '/api/bookings'
          ? jsonResponse(201, {
              booking: { id: 'bk_9', status: 'held' },
              checkout_url: 'https://checkout.stripe.com/c/pay/cs_test_1',
            })
          : undefined,
    ]);
    await chooseFirstTime(user);
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Pay $299 and book' }));
    await waitFor(() =>
      expect(goToCheckout).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'),
    );
  });

  it('says a time taken meanwhile was taken, and shows the times still free', async () => {
    const user = userEvent.setup({ delay: null });
    let taken = false;
    const { server } = renderFlow([
      typesRoute(false),
      slotsRoute(() =>
        taken ? [{ date: '2026-03-09', slots: ['2026-03-09T09:30:00-04:00'] }] : nyDays(),
      ),
      ({ method, url }) => {
        if (method !== 'POST' || url.pathname !== '/api/bookings') return undefined;
        taken = true;
        return errorResponse(409, 'slot_taken', 'This time has just been booked.');
      },
    ]);
    await chooseFirstTime(user);
    await fillForm(user);
    const before = server.to('GET', '/api/booking/slots').length;
    await user.click(screen.getByRole('button', { name: 'Request this time' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/Someone booked that time a moment ago/);
    expect(alert).toHaveFocus();
    await waitFor(() =>
      expect(server.to('GET', '/api/booking/slots').length).toBeGreaterThan(before),
    );
    // The form closes; the day now offers only what is left.
    expect(screen.queryByRole('heading', { name: 'Your details' })).not.toBeInTheDocument();
    await user.click(
      await screen.findByRole('button', { name: /March 9, 2026, 1 time available/ }),
    );
    expect(screen.queryByRole('button', { name: '9:00 AM' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '9:30 AM' })).toBeInTheDocument();
    // What the visitor typed is kept for the next try.
    await user.click(screen.getByRole('button', { name: '9:30 AM' }));
    expect(screen.getByLabelText('Full name')).toHaveValue('Grace Hopper');
  });

  it('shows a refused field on the field', async () => {
    const user = userEvent.setup({ delay: null });
    renderFlow([
      typesRoute(false),
      slotsRoute(nyDays),
      ({ method, url }) =>
        method === 'POST' && url.pathname === '/api/bookings'
          ? errorResponse(400, 'invalid', 'This address cannot receive mail.', 'email')
          : undefined,
    ]);
    await chooseFirstTime(user);
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Request this time' }));
    await waitFor(() =>
      expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription(
        /This address cannot receive mail\./,
      ),
    );
    expect(screen.getByLabelText('E-mail')).toHaveFocus();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when to try again after too many open bookings (429)', async () => {
    const user = userEvent.setup({ delay: null });
    renderFlow([
      typesRoute(false),
      slotsRoute(nyDays),
      ({ method, url }) =>
        method === 'POST' && url.pathname === '/api/bookings'
          ? errorResponse(429, 'rate_limited', 'You have 3 open bookings.', undefined, {
              'Retry-After': '290',
            })
          : undefined,
    ]);
    await chooseFirstTime(user);
    await fillForm(user);
    await user.click(screen.getByRole('button', { name: 'Request this time' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You have 3 open bookings. You can try again in 5 minutes.',
    );
  });
});

describe('SlotPicker across daylight-saving changes', { timeout: 20_000 }, () => {
  function renderPicker(days: SlotDay[], zone: string, month: string) {
    vi.setSystemTime(new Date(`${month}-01T12:00:00Z`));
    fakeServer([slotsRoute(() => days)]);
    render(
      <QueryClientProvider client={client()}>
        <SlotPicker
          type="session-30"
          zone={zone}
          onZoneChange={() => {}}
          slot={null}
          onSlotChange={() => {}}
        />
      </QueryClientProvider>,
    );
  }

  /** The time of an instant in `zone`, by the browser's own zone rules: the independent oracle. */
  const intlTime = (instant: string, zone: string) =>
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    })
      .format(new Date(instant))
      .replace(/\u202f/g, ' ');

  it('shows the 23-hour day of spring forward in the visitor zone, not the browser zone', async () => {
    // The browser is in Tokyo; the visitor chose New York, where 2:00-3:00 AM does not exist on
    // 8 March 2026. The owner (Paris, still on winter time) is free 06:00-10:00 Paris time.
    env.TZ = 'Asia/Tokyo';
    const zone = 'America/New_York';
    const slots = [
      '2026-03-08T01:00:00-05:00',
      '2026-03-08T01:30:00-05:00',
      '2026-03-08T03:00:00-04:00',
      '2026-03-08T03:30:00-04:00',
    ];
    renderPicker([{ date: '2026-03-08', slots }], zone, '2026-03');
    const user = userEvent.setup({ delay: null });
    await user.click(
      await screen.findByRole('button', { name: /^Sunday, March 8, 2026, 4 times available$/ }),
    );
    const list = screen.getByRole('region', { name: 'Sunday, March 8, 2026' });
    const labels = within(list)
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(labels).toEqual(['1:00 AM', '1:30 AM', '3:00 AM', '3:30 AM']);
    expect(labels).toEqual(slots.map((s) => intlTime(s, zone)));
  });

  it('shows both readings of the 25-hour day of fall back, told apart', async () => {
    env.TZ = 'Australia/Sydney';
    const zone = 'America/New_York';
    const slots = [
      '2026-11-01T00:30:00-04:00',
      '2026-11-01T01:30:00-04:00',
      '2026-11-01T01:30:00-05:00',
      '2026-11-01T02:30:00-05:00',
    ];
    renderPicker([{ date: '2026-11-01', slots }], zone, '2026-11');
    const user = userEvent.setup({ delay: null });
    await user.click(
      await screen.findByRole('button', {
        name: /^Sunday, November 1, 2026, today, 4 times available$/,
      }),
    );
    const list = screen.getByRole('region', { name: 'Sunday, November 1, 2026' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['12:30 AM', '1:30 AM (GMT-4)', '1:30 AM (GMT-5)', '2:30 AM']);
    // Each label starts with the time the browser's own rules give for that instant in New York.
    const labels = within(list)
      .getAllByRole('button')
      .map((b) => b.textContent ?? '');
    slots.forEach((s, i) => {
      expect(labels[i]?.startsWith(intlTime(s, zone))).toBe(true);
    });
  });
});
