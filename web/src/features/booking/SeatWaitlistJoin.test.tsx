import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BookingEvent } from './api/types';
import { SeatWaitlistJoin } from './SeatWaitlistJoin';
import { errorResponse, fakeServer, jsonResponse } from './test-server';

const full: BookingEvent = {
  id: 'ev-full',
  type: 'group',
  type_name: 'Group Training',
  status: 'scheduled',
  start: '2099-05-04T14:00:00Z',
  end: '2099-05-04T16:00:00Z',
  duration: 120,
  seats: 10,
  seats_left: 0,
  waiting: 3,
  taken: 10,
  price: 50000,
  currency: 'USD',
};

const path = '/api/booking/events/ev-full/waitlist';

describe('The wait list of a sold-out date', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('opens a form, joins, and says what happens next', async () => {
    const server = fakeServer([
      ({ method, url }) =>
        method === 'POST' && url.pathname === path
          ? jsonResponse(201, { joined: true })
          : undefined,
    ]);
    render(<SeatWaitlistJoin event={full} zone="Europe/Paris" />);
    await userEvent.click(screen.getByRole('button', { name: /Join the wait list for/ }));
    const form = screen.getByRole('form', { name: /Wait list for/ });
    expect(form).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/Full name/), 'Wanda Waiter');
    await userEvent.type(screen.getByLabelText(/E-mail/), 'wanda@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Join the wait list' }));
    expect(await screen.findByRole('status')).toHaveTextContent('You are on the wait list');
    expect(server.to('POST', path)[0]?.body).toEqual({
      name: 'Wanda Waiter',
      email: 'wanda@example.com',
      time_zone: 'Europe/Paris',
    });
  });

  it('shows the server’s refusal beside the field it names, and keeps the form', async () => {
    fakeServer([
      ({ method, url }) =>
        method === 'POST' && url.pathname === path
          ? errorResponse(400, 'invalid', 'Please enter a valid e-mail address.', 'email')
          : undefined,
    ]);
    render(<SeatWaitlistJoin event={full} zone="UTC" />);
    await userEvent.click(screen.getByRole('button', { name: /Join the wait list for/ }));
    await userEvent.type(screen.getByLabelText(/Full name/), 'Wanda');
    await userEvent.type(screen.getByLabelText(/E-mail/), 'nope');
    await userEvent.click(screen.getByRole('button', { name: 'Join the wait list' }));
    expect(await screen.findByText('Please enter a valid e-mail address.')).toBeInTheDocument();
    expect(screen.getByLabelText(/E-mail/)).toHaveValue('nope');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
