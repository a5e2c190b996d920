import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import type { BookingEvent, BookingType } from '../api/types';
import { errorResponse, fakeServer, jsonResponse } from '../test-server';
import { GroupTrainings } from './GroupTrainings';

afterEach(() => {
  session.dispose();
  vi.unstubAllGlobals();
});

const group: BookingType = {
  id: 'group',
  name: 'Group training',
  duration: 180,
  price: 50000,
  currency: 'usd',
  mode: 'native',
  seats: 12,
};

function event(overrides: Partial<BookingEvent> = {}): BookingEvent {
  return {
    id: 'ev-1',
    type: 'group',
    type_name: 'Group training',
    status: 'scheduled',
    start: '2099-05-04T14:00:00Z',
    end: '2099-05-04T17:00:00Z',
    duration: 180,
    seats: 12,
    seats_left: 9,
    price: 50000,
    currency: 'usd',
    ...overrides,
  };
}

function renderTrainings(
  patch: (seats: number) => Response,
  move: (start: string) => Response = () => jsonResponse(500),
) {
  let current = event();
  const server = fakeServer([
    ({ method, url }) =>
      method === 'GET' && url.pathname === '/api/admin/booking/events'
        ? jsonResponse(200, { events: [current] })
        : undefined,
    ({ method, url, body }) => {
      if (method !== 'PATCH' || url.pathname !== '/api/admin/booking/events/ev-1') return undefined;
      const seats = (body as { seats: number }).seats;
      const answer = patch(seats);
      if (answer.ok) current = event({ seats, seats_left: seats - 3 });
      return answer;
    },
    ({ method, url, body }) => {
      if (method !== 'POST' || url.pathname !== '/api/admin/booking/events/ev-1/move')
        return undefined;
      const start = (body as { start: string }).start;
      const answer = move(start);
      if (answer.ok)
        current = event({ start, end: new Date(Date.parse(start) + 3 * 3_600_000).toISOString() });
      return answer;
    },
  ]);
  render(
    <QueryClientProvider
      client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
    >
      <GroupTrainings ownerZone="America/Toronto" type={group} />
    </QueryClientProvider>,
  );
  return server;
}

describe('a group date’s seats', () => {
  it('are changed from the date’s row, and the row shows the new count', async () => {
    const user = userEvent.setup();
    const server = renderTrainings((seats) => jsonResponse(200, { event: event({ seats }) }));
    await user.click(await screen.findByRole('button', { name: 'Seats' }));
    const form = screen.getByRole('form', { name: 'Change the seats of this date' });
    const field = within(form).getByLabelText('Seats');
    expect(field).toHaveValue(12);
    expect(within(form).getByText('3 seats taken.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, '20');
    await user.click(within(form).getByRole('button', { name: 'Save seats' }));
    expect(await screen.findByText(/3 of 20 seats taken/)).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([
      { seats: 20 },
    ]);
    expect(screen.queryByRole('form', { name: 'Change the seats of this date' })).toBeNull();
  });

  it('are never fewer than those taken: said at the field, nothing sent', async () => {
    const user = userEvent.setup();
    const server = renderTrainings(() => jsonResponse(500));
    await user.click(await screen.findByRole('button', { name: 'Seats' }));
    const form = screen.getByRole('form', { name: 'Change the seats of this date' });
    const field = within(form).getByLabelText('Seats');
    await user.clear(field);
    await user.type(field, '2');
    await user.click(within(form).getByRole('button', { name: 'Save seats' }));
    expect(field).toHaveAccessibleDescription(/3 seats are already taken; seats cannot be fewer\./);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('show the server’s refusal at the field when a seat was taken meanwhile', async () => {
    const user = userEvent.setup();
    renderTrainings(() =>
      errorResponse(
        400,
        'invalid_input',
        '4 seats are already taken; seats cannot be fewer.',
        'seats',
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Seats' }));
    const form = screen.getByRole('form', { name: 'Change the seats of this date' });
    const field = within(form).getByLabelText('Seats');
    await user.clear(field);
    await user.type(field, '3');
    await user.click(within(form).getByRole('button', { name: 'Save seats' }));
    expect(
      await screen.findByText('4 seats are already taken; seats cannot be fewer.'),
    ).toBeInTheDocument();
    expect(screen.getByText(/3 of 12 seats taken/)).toBeInTheDocument();
  });
});

describe('a group date’s move', () => {
  it('starts from the date’s time on the owner’s clock and sends the new instant', async () => {
    const user = userEvent.setup();
    const server = renderTrainings(
      () => jsonResponse(500),
      (start) => jsonResponse(200, { event: event({ start }) }),
    );
    await user.click(await screen.findByRole('button', { name: 'Move' }));
    const form = screen.getByRole('form', { name: 'Move this date' });
    // 14:00 UTC on May 4 is 10:00 in Toronto (summer time).
    expect(within(form).getByLabelText('New date')).toHaveValue('2099-05-04');
    expect(within(form).getByLabelText('New start')).toHaveValue('10:00');
    expect(within(form).getByLabelText('Minutes')).toHaveValue(180);
    expect(within(form).getByText('3 attendees will get the new time by e-mail.')).toBeVisible();
    await user.clear(within(form).getByLabelText('New date'));
    await user.type(within(form).getByLabelText('New date'), '2099-05-05');
    await user.click(within(form).getByRole('button', { name: 'Move date' }));
    expect(await screen.findByText(/Tuesday, May 5, 2099 at 10:00 AM/)).toBeInTheDocument();
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { start: '2099-05-05T14:00:00Z', duration: 180 },
    ]);
  });

  it('refuses a time the owner’s clock skips, and shows the server’s refusal at the field', async () => {
    const user = userEvent.setup();
    const server = renderTrainings(
      () => jsonResponse(500),
      () =>
        errorResponse(
          400,
          'invalid_input',
          'A one-to-one booking already takes part of this time. Cancel or move it first, or choose another time.',
          'start',
        ),
    );
    await user.click(await screen.findByRole('button', { name: 'Move' }));
    const form = screen.getByRole('form', { name: 'Move this date' });
    const date = within(form).getByLabelText('New date');
    // Toronto's clocks skip from 2:00 to 3:00 on March 8, 2099.
    await user.clear(date);
    await user.type(date, '2099-03-08');
    await user.clear(within(form).getByLabelText('New start'));
    await user.type(within(form).getByLabelText('New start'), '02:30');
    await user.click(within(form).getByRole('button', { name: 'Move date' }));
    expect(date).toHaveAccessibleDescription(/That time does not exist on your clock/);
    expect(server.calls.some((c) => c.method === 'POST')).toBe(false);

    await user.clear(within(form).getByLabelText('New start'));
    await user.type(within(form).getByLabelText('New start'), '09:00');
    await user.click(within(form).getByRole('button', { name: 'Move date' }));
    expect(await within(form).findByText(/A one-to-one booking already takes part/)).toBeVisible();
  });
});

describe('a group date’s length', () => {
  it('is sent with the move, and the server’s refusal shows at its field', async () => {
    const user = userEvent.setup();
    const server = renderTrainings(
      () => jsonResponse(500),
      () =>
        errorResponse(
          400,
          'invalid_input',
          'Duration must be a multiple of 5 minutes from 15 to 720.',
          'duration',
        ),
    );
    await user.click(await screen.findByRole('button', { name: 'Move' }));
    const form = screen.getByRole('form', { name: 'Move this date' });
    const minutes = within(form).getByLabelText('Minutes');
    await user.clear(minutes);
    await user.type(minutes, '7');
    await user.click(within(form).getByRole('button', { name: 'Move date' }));
    await waitFor(() =>
      expect(minutes).toHaveAccessibleDescription(
        'Duration must be a multiple of 5 minutes from 15 to 720.',
      ),
    );
    expect(server.calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([
      { start: '2099-05-04T14:00:00Z', duration: 7 },
    ]);
  });
});
