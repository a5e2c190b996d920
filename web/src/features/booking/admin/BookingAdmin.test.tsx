import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import { structuralViolations } from '@/test/axe';
import type { AdminBooking, BookingSettings } from '../api/types';
import { booking, errorResponse, fakeServer, jsonResponse, type Route } from '../test-server';
import { BookingAdmin } from './BookingAdmin';
import { actionsFor } from './BookingsList';

afterEach(() => {
  session.dispose();
  vi.unstubAllGlobals();
});

const settings: BookingSettings = {
  time_zone: 'America/Toronto',
  weekly_hours: { monday: [{ start: '09:00', end: '17:00' }] },
  overrides: [],
  slot_step_minutes: 15,
  buffer_before_minutes: 10,
  buffer_after_minutes: 10,
  minimum_notice_minutes: 720,
  window_days: 60,
  max_per_day: 0,
  cutoff_minutes: 1440,
  owner_name: 'rUv',
  owner_email: 'owner@example.com',
  meeting_link: '',
  no_show_policy: '',
};

function adminBooking(overrides: Partial<AdminBooking> = {}): AdminBooking {
  return {
    ...booking({ start: '2099-03-10T14:00:00Z', end: '2099-03-10T14:30:00Z' }),
    user_id: '',
    payment_intent: '',
    refunds: [],
    updated_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}

function renderAdmin(routes: Route[]) {
  const server = fakeServer([
    ...routes,
    ({ method, url }) =>
      method === 'GET' && url.pathname === '/api/admin/booking/settings'
        ? jsonResponse(200, { settings })
        : undefined,
    ({ method, url }) =>
      method === 'GET' && url.pathname === '/api/admin/booking/feed'
        ? jsonResponse(200, { exists: false, created_at: null })
        : undefined,
  ]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <BookingAdmin />
    </QueryClientProvider>,
  );
  return server;
}

const list =
  (bookings: AdminBooking[]): Route =>
  ({ method, url }) =>
    method === 'GET' && url.pathname === '/api/admin/bookings'
      ? jsonResponse(200, {
          bookings,
          revenue: {
            month: '2026-03',
            totals: [{ currency: 'USD', gross: 59800, refunded: 29900, net: 29900 }],
          },
        })
      : undefined;

describe('BookingAdmin', { timeout: 20_000 }, () => {
  it("shows the month's money and the bookings on the owner's clock", async () => {
    renderAdmin([list([adminBooking({ status: 'requested', paid: false })])]);
    expect(
      await screen.findByRole('heading', { name: 'Booking revenue, March 2026' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Gross').nextSibling).toHaveTextContent('$598');
    expect(screen.getByText('Net').nextSibling).toHaveTextContent('$299');
    const row = await screen.findByRole('article', { name: /Grace Hopper, Deep Dive/ });
    expect(row).toHaveTextContent('Tuesday, March 10, 2099 at 10:00');
    expect(row).toHaveTextContent('Request sent');
  });

  it('booking revenue list holds only terms and their details (axe definition-list, dlitem)', async () => {
    renderAdmin([list([adminBooking({ status: 'requested', paid: false })])]);
    const heading = await screen.findByRole('heading', { name: 'Booking revenue, March 2026' });
    const card = heading.parentElement as HTMLElement;
    expect(await structuralViolations(card)).toEqual([]);
  });

  it('confirms a request after asking', async () => {
    const user = userEvent.setup({ delay: null });
    const server = renderAdmin([
      list([adminBooking({ id: 'bk_7', status: 'requested', paid: false })]),
      ({ method, url }) =>
        method === 'POST' && url.pathname === '/api/admin/bookings/bk_7/confirm'
          ? jsonResponse(200, { booking: adminBooking({ id: 'bk_7' }) })
          : undefined,
    ]);
    const row = await screen.findByRole('article', { name: /Grace Hopper/ });
    await user.click(within(row).getByRole('button', { name: 'Confirm' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Confirm this request?' });
    expect(server.to('POST', '/api/admin/bookings/bk_7/confirm')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() =>
      expect(server.to('POST', '/api/admin/bookings/bk_7/confirm')).toHaveLength(1),
    );
  });

  it('offers the actions the status allows', () => {
    const now = Date.parse('2099-03-10T15:00:00Z');
    expect(actionsFor(adminBooking({ status: 'requested' }), Date.parse('2026-01-01'))).toEqual([
      'confirm',
      'decline',
      'cancel',
    ]);
    expect(actionsFor(adminBooking({ status: 'confirmed' }), Date.parse('2026-01-01'))).toEqual([
      'cancel',
    ]);
    expect(actionsFor(adminBooking({ status: 'confirmed' }), now)).toEqual(['complete', 'no-show']);
    expect(actionsFor(adminBooking({ status: 'cancelled' }), now)).toEqual([]);
  });

  it('saves several ranges a day, and shows a refused value at its field', async () => {
    const user = userEvent.setup({ delay: null });
    const server = renderAdmin([
      list([]),
      ({ method, url }) =>
        method === 'PUT' && url.pathname === '/api/admin/booking/settings'
          ? errorResponse(400, 'invalid', 'Ranges must not overlap.', 'weekly_hours.monday[1]')
          : undefined,
    ]);
    await user.click(await screen.findByRole('button', { name: 'Add hours to Monday' }));
    await user.click(screen.getByRole('button', { name: 'Save booking settings' }));
    const secondStart = screen.getByLabelText('Monday range 2 start');
    await waitFor(() =>
      expect(secondStart).toHaveAccessibleDescription('Ranges must not overlap.'),
    );
    await waitFor(() => expect(secondStart).toHaveFocus());
    const sent = server.to('PUT', '/api/admin/booking/settings')[0]?.body as BookingSettings;
    expect(sent.weekly_hours.monday).toEqual([
      { start: '09:00', end: '17:00' },
      { start: '18:00', end: '20:00' },
    ]);
    expect(sent.slot_step_minutes).toBe(15);
    expect(sent.owner_email).toBe('owner@example.com');
  });

  it('creates the bookings feed and shows its URL once', async () => {
    const user = userEvent.setup({ delay: null });
    renderAdmin([
      list([]),
      ({ method, url }) =>
        method === 'POST' && url.pathname === '/api/admin/booking/feed'
          ? jsonResponse(201, {
              url: 'https://example.com/calendar/bookings/abc.ics',
              created_at: '2026-03-01T10:00:00Z',
            })
          : undefined,
    ]);
    const create = await screen.findByRole('button', { name: 'Create feed URL' });
    await waitFor(() => expect(create).toBeEnabled());
    await user.click(create);
    expect(await screen.findByLabelText('Your feed URL (shown only now)')).toHaveValue(
      'https://example.com/calendar/bookings/abc.ics',
    );
    expect(screen.getByRole('button', { name: 'Revoke' })).toBeInTheDocument();
  });
});

describe('BookingAdmin open holds', { timeout: 20_000 }, () => {
  it('warns the owner when many bookings wait for payment at once', async () => {
    renderAdmin([
      ({ method, url }) =>
        method === 'GET' && url.pathname === '/api/admin/bookings'
          ? jsonResponse(200, {
              bookings: [],
              revenue: { month: '2026-03', totals: [] },
              open_holds: 12,
              holds_alert: true,
            })
          : undefined,
    ]);
    const alert = await screen.findByText(/12 bookings are waiting for payment right now\./);
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).toHaveTextContent('someone may be holding your times without paying');
  });
});
