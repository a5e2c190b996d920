import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
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
    waiting: 0,
    taken: 3,
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
    // Three seats taken: two confirmed, one hold not yet paid.
    ({ method, url }) =>
      method === 'GET' && url.pathname === '/api/admin/booking/events/ev-1/attendees'
        ? jsonResponse(200, {
            attendees: ['confirmed', 'confirmed', 'held'].map((status, i) => ({
              id: `b-${i}`,
              name: `Attendee ${i}`,
              email: `a${i}@example.com`,
              status,
              start: current.start,
              end: current.end,
            })),
          })
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

/** Opens a date row's panel by its button: its form, a field filler and its submit button. */
async function openPanel(user: UserEvent, button: string, name: string) {
  await user.click(await screen.findByRole('button', { name: button }));
  const form = screen.getByRole('form', { name });
  return {
    form,
    field: (label: string) => within(form).getByLabelText(label),
    fill: async (label: string, value: string) => {
      const field = within(form).getByLabelText(label);
      await user.clear(field);
      await user.type(field, value);
      return field;
    },
    submit: (label: string) => user.click(within(form).getByRole('button', { name: label })),
  };
}

/** The server's refusal of one field. */
const refused = (field: string, message: string) => () =>
  errorResponse(400, 'invalid_input', message, field);

const posted = (server: ReturnType<typeof fakeServer>, method: string) =>
  server.calls.filter((c) => c.method === method).map((c) => c.body);

describe('a group date’s seats', () => {
  it('are changed from the date’s row, and the row shows the new count', async () => {
    const user = userEvent.setup();
    const server = renderTrainings((seats) => jsonResponse(200, { event: event({ seats }) }));
    const panel = await openPanel(user, 'Seats', 'Change the seats of this date');
    expect(panel.field('Seats')).toHaveValue(12);
    expect(within(panel.form).getByText('3 seats taken.')).toBeInTheDocument();
    await panel.fill('Seats', '20');
    await panel.submit('Save seats');
    expect(await screen.findByText(/3 of 20 seats taken/)).toBeInTheDocument();
    expect(posted(server, 'PATCH')).toEqual([{ seats: 20 }]);
    expect(screen.queryByRole('form', { name: 'Change the seats of this date' })).toBeNull();
  });

  it('are never fewer than those taken: said at the field, nothing sent', async () => {
    const user = userEvent.setup();
    const server = renderTrainings(() => jsonResponse(500));
    const panel = await openPanel(user, 'Seats', 'Change the seats of this date');
    const field = await panel.fill('Seats', '2');
    await panel.submit('Save seats');
    expect(field).toHaveAccessibleDescription(/3 seats are already taken; seats cannot be fewer\./);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(posted(server, 'PATCH')).toEqual([]);
  });

  it('show the server’s refusal at the field when a seat was taken meanwhile', async () => {
    const user = userEvent.setup();
    renderTrainings(refused('seats', '4 seats are already taken; seats cannot be fewer.'));
    const panel = await openPanel(user, 'Seats', 'Change the seats of this date');
    await panel.fill('Seats', '3');
    await panel.submit('Save seats');
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
    const panel = await openPanel(user, 'Move', 'Move this date');
    // 14:00 UTC on May 4 is 10:00 in Toronto (summer time).
    expect(panel.field('New date')).toHaveValue('2099-05-04');
    expect(panel.field('New start')).toHaveValue('10:00');
    expect(panel.field('Minutes')).toHaveValue(180);
    // The unpaid hold is not among those mailed (the move panel counted it).
    expect(
      await within(panel.form).findByText(
        '2 attendees will get the new time by e-mail. 1 unpaid hold keeps its seat and is not mailed: a payment’s confirmation carries the new time.',
      ),
    ).toBeVisible();
    await panel.fill('New date', '2099-05-05');
    await panel.submit('Move date');
    expect(await screen.findByText(/Tuesday, May 5, 2099 at 10:00 AM/)).toBeInTheDocument();
    expect(posted(server, 'POST')).toEqual([{ start: '2099-05-05T14:00:00Z', duration: 180 }]);
  });

  it('refuses a time the owner’s clock skips, and shows the server’s refusal at the field', async () => {
    const user = userEvent.setup();
    const server = renderTrainings(
      () => jsonResponse(500),
      refused(
        'start',
        'A one-to-one booking already takes part of this time. Cancel or move it first, or choose another time.',
      ),
    );
    const panel = await openPanel(user, 'Move', 'Move this date');
    // Toronto's clocks skip from 2:00 to 3:00 on March 8, 2099.
    const date = await panel.fill('New date', '2099-03-08');
    await panel.fill('New start', '02:30');
    await panel.submit('Move date');
    expect(date).toHaveAccessibleDescription(/That time does not exist on your clock/);
    expect(posted(server, 'POST')).toEqual([]);

    await panel.fill('New start', '09:00');
    await panel.submit('Move date');
    expect(
      await within(panel.form).findByText(/A one-to-one booking already takes part/),
    ).toBeVisible();
  });

  it('sends the length with it, and the server’s refusal of the length shows at its field', async () => {
    const user = userEvent.setup();
    const server = renderTrainings(
      () => jsonResponse(500),
      refused('duration', 'Duration must be a multiple of 5 minutes from 15 to 720.'),
    );
    const panel = await openPanel(user, 'Move', 'Move this date');
    const minutes = await panel.fill('Minutes', '7');
    await panel.submit('Move date');
    await waitFor(() =>
      expect(minutes).toHaveAccessibleDescription(
        'Duration must be a multiple of 5 minutes from 15 to 720.',
      ),
    );
    expect(posted(server, 'POST')).toEqual([{ start: '2099-05-04T14:00:00Z', duration: 7 }]);
  });
});

describe('a group date’s cancellation', () => {
  it('gives focus to the date’s lines once its buttons are gone, not to the page', async () => {
    const user = userEvent.setup();
    let cancelled = false;
    const server = fakeServer([
      ({ method, url }) =>
        method === 'GET' && url.pathname === '/api/admin/booking/events'
          ? jsonResponse(200, {
              events: [event(cancelled ? { status: 'cancelled' } : {})],
            })
          : undefined,
      ({ method, url }) => {
        if (method !== 'POST' || url.pathname !== '/api/admin/booking/events/ev-1/cancel')
          return undefined;
        cancelled = true;
        return jsonResponse(200, { event: event({ status: 'cancelled' }), refunds: [] });
      },
    ]);
    render(
      <QueryClientProvider
        client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}
      >
        <GroupTrainings ownerZone="America/Toronto" type={group} />
      </QueryClientProvider>,
    );
    await user.click(await screen.findByRole('button', { name: 'Cancel date' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel date' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    // The row now says cancelled and has no buttons; focus is on its date lines.
    expect(await screen.findByText(/· cancelled/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel date' })).toBeNull();
    await waitFor(() => expect(document.activeElement).not.toBe(document.body));
    expect(document.activeElement).toHaveTextContent(/cancelled/);
    expect(server.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });
});
