import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, Router } from '@/lib/router';
import { session } from '@/lib/session';
import { env } from '@/test/zone';
import type { Booking } from './api/types';
import { BookingStatusPage } from './BookingStatusPage';
import { booking, errorResponse, fakeServer, jsonResponse, type Route } from './test-server';

const savedTz = env.TZ;
const PATH = '/api/bookings/bk_1';

beforeEach(() => {
  env.TZ = 'America/New_York';
});

afterEach(() => {
  env.TZ = savedTz;
  session.dispose();
  vi.unstubAllGlobals();
});

function renderPage(routes: Route[], url = '/bookings/bk_1?token=tok') {
  const server = fakeServer(routes);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <Router history={createMemoryHistory([url])}>
      <BookingStatusPage client={client} />
    </Router>,
  );
  return server;
}

/** Answers the booking with whatever `current()` says at the time of each read. */
const bookingRoute =
  (current: () => Booking): Route =>
  ({ method, url }) =>
    method === 'GET' && url.pathname === PATH && url.searchParams.get('token') === 'tok'
      ? jsonResponse(200, { booking: current() })
      : undefined;

describe('BookingStatusPage', { timeout: 20_000 }, () => {
  it("shows the time in the visitor's zone and the owner's, and the calendar file", async () => {
    renderPage([bookingRoute(() => booking())]);
    expect(await screen.findByRole('heading', { level: 1, name: 'Deep Dive' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Status: Confirmed');
    expect(screen.getByText(/Tuesday, March 10, 2026 at 10:00\sAM EDT/)).toBeInTheDocument();
    expect(screen.getByText(/Tuesday, March 10, 2026 at 3:00\sPM GMT\+1/)).toBeInTheDocument();
    expect(screen.getByText("rUv's time")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add to calendar (.ics)' })).toHaveAttribute(
      'href',
      '/api/bookings/bk_1/calendar.ics?token=tok',
    );
  });

  it('shows the call link only inside the join window, and says when it comes', async () => {
    renderPage([
      bookingRoute(() =>
        booking({ room: 'later', room_opens_at: '2026-03-10T13:45:00Z', meeting_link: undefined }),
      ),
    ]);
    expect(
      await screen.findByText(/it also appears here at Tuesday, March 10, 2026 at 9:45\sAM/),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Join the call/ })).not.toBeInTheDocument();
  });

  it('offers Join the call inside the join window', async () => {
    renderPage([
      bookingRoute(() => booking({ room: 'open', meeting_link: 'https://meet.jit.si/ruv-abc' })),
    ]);
    expect(await screen.findByRole('link', { name: /Join the call/ })).toHaveAttribute(
      'href',
      'https://meet.jit.si/ruv-abc',
    );
  });

  it('promises no link when no room is set: the owner sends it', async () => {
    renderPage([bookingRoute(() => booking({ room: 'owner', meeting_link: undefined }))]);
    expect(
      await screen.findByText(/the link to join will be sent by rUv before the call/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/call link is below/)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Join the call/ })).not.toBeInTheDocument();
  });

  it('turns from waiting for payment to confirmed by itself', async () => {
    let reads = 0;
    renderPage([
      bookingRoute(() => {
        reads += 1;
        return reads < 2
          ? booking({ status: 'held', paid: false, expires_at: '2026-03-01T10:31:00Z' })
          : booking();
      }),
    ]);
    await waitFor(() =>
      expect(screen.getByRole('status')).toHaveTextContent('Waiting for payment'),
    );
    expect(screen.getByText(/This page updates by itself/)).toBeInTheDocument();
    // jsdom has no EventSource: the page reads the hold again every 2 s.
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Confirmed'), {
      timeout: 6000,
    });
    expect(reads).toBe(2);
  });

  it('says plainly that a request is paid after confirmation', async () => {
    renderPage([bookingRoute(() => booking({ status: 'requested', paid: false }))]);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Request sent'));
    expect(screen.getByText(/payment is\s+arranged after confirmation/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Add to calendar/ })).not.toBeInTheDocument();
  });

  it('cancels after a confirmation that says what is refunded', async () => {
    const user = userEvent.setup({ delay: null });
    let current = booking();
    const server = renderPage([
      bookingRoute(() => current),
      ({ method, url }) => {
        if (method !== 'POST' || url.pathname !== `${PATH}/cancel`) return undefined;
        current = booking({
          status: 'cancelled',
          cancelled_by: 'booker',
          refunded: 29900,
          can_change: false,
        });
        return jsonResponse(200, { booking: current, refund: { amount: 29900, currency: 'USD' } });
      },
    ]);
    await user.click(await screen.findByRole('button', { name: 'Cancel booking' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Cancel this booking?' });
    expect(dialog).toHaveTextContent('You get a full refund of $299 to the card you paid with');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel booking' }));
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Cancelled'));
    expect(screen.getByText(/\$299 was refunded to your card/)).toBeInTheDocument();
    expect(server.to('POST', `${PATH}/cancel`)[0]?.url.searchParams.get('token')).toBe('tok');
  });

  it('after the cut-off says how to reach the owner instead of offering changes', async () => {
    renderPage([bookingRoute(() => booking({ can_change: false }))]);
    expect(
      await screen.findByText(/can no longer be moved or cancelled online/),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ruv@ruv.io' })).toHaveAttribute(
      'href',
      'mailto:ruv@ruv.io',
    );
    expect(screen.queryByRole('button', { name: 'Cancel booking' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reschedule' })).not.toBeInTheDocument();
  });

  it('moves the booking to a time chosen on the same calendar', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-02T15:00:00Z'));
    const user = userEvent.setup({ delay: null });
    let current = booking();
    const server = renderPage([
      bookingRoute(() => current),
      ({ method, url }) =>
        method === 'GET' && url.pathname === '/api/booking/slots'
          ? jsonResponse(200, {
              time_zone: url.searchParams.get('tz'),
              days: [{ date: '2026-03-12', slots: ['2026-03-12T11:00:00-04:00'] }],
            })
          : undefined,
      ({ method, url }) => {
        if (method !== 'POST' || url.pathname !== `${PATH}/reschedule`) return undefined;
        current = booking({
          start: '2026-03-12T15:00:00Z',
          end: '2026-03-12T15:30:00Z',
          reschedules_left: 1,
        });
        return jsonResponse(200, { booking: current });
      },
    ]);
    try {
      await user.click(await screen.findByRole('button', { name: 'Reschedule' }));
      expect(await screen.findByRole('heading', { name: 'Choose a new time' })).toHaveFocus();
      await user.click(
        await screen.findByRole('button', { name: /March 12, 2026, 1 time available/ }),
      );
      await user.click(screen.getByRole('button', { name: '11:00 AM' }));
      await user.click(screen.getByRole('button', { name: 'Move my booking here' }));
      await waitFor(() =>
        expect(screen.getByText(/Thursday, March 12, 2026 at 11:00\sAM EDT/)).toBeInTheDocument(),
      );
      expect(server.to('POST', `${PATH}/reschedule`)[0]?.body).toEqual({
        start: '2026-03-12T11:00:00-04:00',
      });
      expect(screen.queryByRole('heading', { name: 'Choose a new time' })).not.toBeInTheDocument();
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows a clear not-found page for a wrong token, saying nothing of the booking', async () => {
    const server = renderPage(
      [
        ({ url }) =>
          url.pathname === PATH
            ? errorResponse(
                404,
                'not_found',
                'This booking link is not valid. Please use the link in your latest booking e-mail.',
              )
            : undefined,
      ],
      '/bookings/bk_1?token=wrong',
    );
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Booking not found' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sessions and prices' })).toHaveAttribute(
      'href',
      '/booking',
    );
    expect(server.to('GET', PATH)).toHaveLength(1);
  });

  it('does not ask the server without a token', async () => {
    const server = renderPage([], '/bookings/bk_1');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Booking not found' }),
    ).toBeInTheDocument();
    expect(server.to('GET', PATH)).toHaveLength(0);
  });
});
