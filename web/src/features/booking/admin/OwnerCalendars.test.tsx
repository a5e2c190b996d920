import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import type { CalendarFeed } from '../api/calendars';
import { errorResponse, fakeServer, jsonResponse, type Route } from '../test-server';
import { OwnerCalendars } from './OwnerCalendars';

afterEach(() => {
  session.dispose();
  vi.unstubAllGlobals();
});

function feed(overrides: Partial<CalendarFeed> = {}): CalendarFeed {
  return {
    id: 'c1',
    url: 'https://calendar.google.com/calendar/ical/secret/basic.ics',
    last_success: '2026-03-02T14:05:00Z',
    last_error: '',
    last_error_at: null,
    events: 12,
    busy: 30,
    skipped: 0,
    notes: [],
    next_fetch: '2026-03-02T14:10:00Z',
    ...overrides,
  };
}

function renderCalendars(calendars: CalendarFeed[], routes: Route[] = []) {
  const server = fakeServer([
    ...routes,
    ({ method, url }) =>
      method === 'GET' && url.pathname === '/api/admin/booking/calendars'
        ? jsonResponse(200, { calendars, refresh_minutes: 5 })
        : undefined,
  ]);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <OwnerCalendars ownerZone="America/Toronto" />
    </QueryClientProvider>,
  );
  return server;
}

describe('OwnerCalendars', { timeout: 20_000 }, () => {
  it('shows when each calendar last worked and why a failing one fails', async () => {
    renderCalendars([
      feed(),
      feed({
        id: 'c2',
        url: 'https://outlook.office365.com/owa/calendar/x/calendar.ics',
        last_error: 'the calendar server answered 404 Not Found',
        last_error_at: '2026-03-02T14:06:00Z',
      }),
      feed({ id: 'c3', url: 'https://p01-calendars.icloud.com/x', last_success: null }),
    ]);
    const list = await screen.findByRole('list', { name: 'Your calendars' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Working');
    expect(rows[0]).toHaveTextContent('Last loaded Monday, March 2, 2026 at 9:05');
    expect(rows[0]).toHaveTextContent('12 events, 30 busy times ahead');
    expect(rows[1]).toHaveTextContent('Failing');
    expect(rows[1]).toHaveTextContent('404 Not Found');
    expect(rows[1]).toHaveTextContent('still block');
    expect(rows[2]).toHaveTextContent('Never loaded yet');
    expect(
      within(rows[1] as HTMLElement).getByRole('button', {
        name: 'Remove calendar outlook.office365.com',
      }),
    ).toBeInTheDocument();
  });

  it('shows a calendar read with problems as such, not as working', async () => {
    renderCalendars([
      feed({
        skipped: 2,
        notes: [
          'unknown time zone "Mars/Olympus"; 1 event skipped',
          '1 repeating event has a repeat rule that cannot be read; it counts only its first time',
        ],
      }),
    ]);
    const list = await screen.findByRole('list', { name: 'Your calendars' });
    const row = within(list).getAllByRole('listitem')[0] as HTMLElement;
    expect(row).toHaveTextContent('Working, with problems');
    expect(row).not.toHaveTextContent(/Working(?!, with problems)/);
    expect(row).toHaveTextContent('2 parts of this calendar could not be read');
    const problems = within(row).getByRole('list', {
      name: 'Problems reading calendar.google.com',
    });
    expect(
      within(problems)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Unknown time zone "Mars/Olympus"; 1 event skipped.',
      '1 repeating event has a repeat rule that cannot be read; it counts only its first time.',
    ]);
  });

  it('adds an address to the list and shows a refused one at the field', async () => {
    const user = userEvent.setup({ delay: null });
    let refuse = true;
    const server = renderCalendars(
      [feed()],
      [
        ({ method, url, body }) => {
          if (method !== 'PUT' || url.pathname !== '/api/admin/booking/calendars') return undefined;
          if (refuse) {
            refuse = false;
            return errorResponse(
              400,
              'invalid',
              'Calendar addresses must start with https:// or webcal://.',
              'urls',
            );
          }
          const urls = (body as { urls: string[] }).urls;
          return jsonResponse(200, {
            calendars: urls.map((u, i) => feed({ id: `c${i}`, url: u })),
            refresh_minutes: 5,
          });
        },
      ],
    );
    const input = await screen.findByLabelText('Calendar address (iCal)');
    await user.type(input, 'http://example.com/cal.ics');
    await user.click(screen.getByRole('button', { name: 'Add calendar' }));
    expect(await screen.findByText(/must start with https/)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');

    await user.clear(input);
    await user.type(input, 'webcal://p01-calendars.icloud.com/published/2/abc');
    await user.click(screen.getByRole('button', { name: 'Add calendar' }));
    await waitFor(() => expect(server.to('PUT', '/api/admin/booking/calendars')).toHaveLength(2));
    expect(server.to('PUT', '/api/admin/booking/calendars')[1]?.body).toEqual({
      urls: [
        'https://calendar.google.com/calendar/ical/secret/basic.ics',
        'webcal://p01-calendars.icloud.com/published/2/abc',
      ],
    });
    expect(await screen.findAllByRole('listitem')).toHaveLength(2);
  });

  it('removes a calendar after asking', async () => {
    const user = userEvent.setup({ delay: null });
    const server = renderCalendars(
      [feed()],
      [
        ({ method, url }) =>
          method === 'PUT' && url.pathname === '/api/admin/booking/calendars'
            ? jsonResponse(200, { calendars: [], refresh_minutes: 5 })
            : undefined,
      ],
    );
    await user.click(
      await screen.findByRole('button', { name: 'Remove calendar calendar.google.com' }),
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Remove this calendar?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(server.to('PUT', '/api/admin/booking/calendars')[0]?.body).toEqual({ urls: [] }),
    );
    expect(await screen.findByText(/No calendars yet/)).toBeInTheDocument();
  });

  it('says so when the list cannot be loaded', async () => {
    fakeServer([]);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <OwnerCalendars ownerZone="UTC" />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('could not be loaded');
  });
});
