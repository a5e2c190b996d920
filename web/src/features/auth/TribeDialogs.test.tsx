import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '@/lib/session';
import { detectTimeZone } from '@/lib/time-zone';
import { ToastRegion } from '@/lib/toast';
import { ada, apiError, deferred, json, mockApi, resetAuthState } from '@/test/mock-api';
import { loadPage } from './navigation';
import { LoginDialogButton, WaitlistDialogButton } from './TribeDialogs';

vi.mock('./navigation', async (original) => ({
  ...(await original<typeof import('./navigation')>()),
  loadPage: vi.fn(),
}));

function renderButtons() {
  render(
    <>
      <LoginDialogButton className="x">Login</LoginDialogButton>
      <WaitlistDialogButton>Join Wait List</WaitlistDialogButton>
      <ToastRegion />
    </>,
  );
}

async function openLogin(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Login' }));
  return screen.findByRole('dialog', { name: 'Member Login' });
}

async function openWaitlist(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Join Wait List' }));
  return screen.findByRole('dialog', { name: 'Join the Wait List' });
}

/** A toast with this title and description is on screen. */
async function expectToast(title: string, description: string) {
  const heading = await screen.findByText(title);
  const toast = heading.closest('[data-sonner-toast]');
  expect(toast).not.toBeNull();
  expect(within(toast as HTMLElement).getByText(description)).toBeInTheDocument();
}

beforeEach(() => {
  vi.mocked(loadPage).mockClear();
});

afterEach(() => {
  resetAuthState();
});

describe('Member Login modal', { timeout: 20_000 }, () => {
  it('opens from its button without loading anything before', async () => {
    mockApi();
    const user = userEvent.setup();
    renderButtons();
    const button = screen.getByRole('button', { name: 'Login' });
    expect(button).toHaveClass('x');
    expect(button).toHaveAttribute('aria-haspopup', 'dialog');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const dialog = await openLogin(user);
    expect(within(dialog).getByLabelText('Email')).toHaveAttribute('autocomplete', 'email');
    expect(within(dialog).getByLabelText('Password')).toHaveAttribute(
      'autocomplete',
      'current-password',
    );
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
  });

  it('shows what is missing, focuses it, and sends nothing', async () => {
    const api = mockApi();
    const user = userEvent.setup();
    renderButtons();
    const dialog = await openLogin(user);
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(within(dialog).getByText('Email is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Password is required.')).toBeInTheDocument();
    const email = within(dialog).getByLabelText('Email');
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Email is required.');

    await user.type(email, 'not-an-email');
    await user.type(within(dialog).getByLabelText('Password'), 'abc');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(within(dialog).getByText('Enter a valid email address.')).toBeInTheDocument();
    expect(within(dialog).getByText('Password must be at least 6 characters.')).toBeInTheDocument();
    expect(api.to('POST', '/api/auth/signin')).toHaveLength(0);
  });

  it('signs in: busy label, welcome toast, then a full-page load of /members after 500 ms', async () => {
    const answer = deferred<Response>();
    const api = mockApi({ 'POST /api/auth/signin': () => answer.promise });
    const timeouts = vi.spyOn(window, 'setTimeout');
    const user = userEvent.setup();
    renderButtons();
    const dialog = await openLogin(user);
    await user.type(within(dialog).getByLabelText('Email'), ' ada@example.com ');
    await user.type(within(dialog).getByLabelText('Password'), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));

    const busy = within(dialog).getByRole('button', { name: 'Signing in...' });
    expect(busy).toHaveAttribute('aria-disabled', 'true');
    await user.click(busy);
    expect(api.to('POST', '/api/auth/signin')).toEqual([
      {
        method: 'POST',
        path: '/api/auth/signin',
        body: { email: 'ada@example.com', password: 'secret1', time_zone: detectTimeZone() },
      },
    ]);

    answer.resolve(json(200, { user: ada }));
    await expectToast('Welcome back!', 'Redirecting to members area...');
    expect(session.getSnapshot()).toEqual({ status: 'signed-in', user: ada });
    expect(timeouts).toHaveBeenCalledWith(expect.any(Function), 500);
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/members'));
  });

  it("shows the server's message in an Error toast and in the form", async () => {
    mockApi({
      'POST /api/auth/signin': () =>
        apiError(401, 'invalid_credentials', 'Invalid login credentials'),
    });
    const user = userEvent.setup();
    renderButtons();
    const dialog = await openLogin(user);
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'wrong-password');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Invalid login credentials');
    await expectToast('Error', 'Invalid login credentials');
    expect(within(dialog).getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(loadPage).not.toHaveBeenCalled();
  });

  it('switches to Reset Password, sends the link and comes back with the email filled in', async () => {
    const answer = deferred<Response>();
    const api = mockApi({ 'POST /api/auth/password/forgot': () => answer.promise });
    const user = userEvent.setup();
    renderButtons();
    const dialog = await openLogin(user);
    await user.click(within(dialog).getByRole('button', { name: 'Forgot password?' }));
    const reset = await screen.findByRole('dialog', { name: 'Reset Password' });
    await user.click(within(reset).getByRole('button', { name: 'Send Reset Link' }));
    expect(within(reset).getByText('Email is required.')).toBeInTheDocument();
    await user.type(within(reset).getByLabelText('Email'), 'ada@example.com');
    await user.click(within(reset).getByRole('button', { name: 'Send Reset Link' }));
    expect(within(reset).getByRole('button', { name: 'Sending...' })).toBeInTheDocument();
    answer.resolve(json(202, { message: 'If the address has an account, a link is on its way.' }));
    await expectToast('Check your email', "We've sent you a password reset link.");
    expect(api.to('POST', '/api/auth/password/forgot')[0]?.body).toEqual({
      email: 'ada@example.com',
    });
    const login = await screen.findByRole('dialog', { name: 'Member Login' });
    expect(within(login).getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('goes back to the login view from Reset Password, and returns focus to its button on Escape', async () => {
    mockApi();
    const user = userEvent.setup();
    renderButtons();
    const dialog = await openLogin(user);
    await user.click(within(dialog).getByRole('button', { name: 'Forgot password?' }));
    const reset = await screen.findByRole('dialog', { name: 'Reset Password' });
    await user.click(within(reset).getByRole('button', { name: 'Back to login' }));
    await screen.findByRole('dialog', { name: 'Member Login' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Login' })).toHaveFocus());
  });
});

describe('Join the Wait List modal', { timeout: 20_000 }, () => {
  it('says what happens next and asks for a name and an email', async () => {
    const api = mockApi();
    const user = userEvent.setup();
    renderButtons();
    const dialog = await openWaitlist(user);
    expect(dialog).toHaveTextContent(/confirmation email/i);
    expect(dialog).toHaveTextContent(/spots open/i);
    expect(dialog).toHaveTextContent(/priority access/i);
    expect(within(dialog).getByLabelText('Full name')).toHaveAttribute('autocomplete', 'name');
    await user.click(within(dialog).getByRole('button', { name: 'Join Wait List' }));
    expect(within(dialog).getByText('Full name is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Email is required.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Full name')).toHaveFocus();
    expect(api.to('POST', '/api/waitlist')).toHaveLength(0);
  });

  it('joins: busy label, toast, closes and hands focus back', async () => {
    const answer = deferred<Response>();
    const api = mockApi({ 'POST /api/waitlist': () => answer.promise });
    const user = userEvent.setup();
    renderButtons();
    const dialog = await openWaitlist(user);
    await user.type(within(dialog).getByLabelText('Full name'), '  Ada Lovelace ');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.keyboard('{Enter}');
    expect(within(dialog).getByRole('button', { name: 'Joining...' })).toBeInTheDocument();
    answer.resolve(json(201, { status: 'added', message: 'You are on the list.' }));
    await expectToast("You're on the list!", "We'll notify you when spots open up.");
    expect(api.to('POST', '/api/waitlist')[0]?.body).toEqual({
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Join Wait List' })).toHaveFocus(),
    );
  });

  it('says so kindly when the address is already on the list', async () => {
    mockApi({
      'POST /api/waitlist': () =>
        json(200, {
          status: 'already',
          message: 'You were already on the list. We will be in touch.',
        }),
    });
    const user = userEvent.setup();
    renderButtons();
    const dialog = await openWaitlist(user);
    await user.type(within(dialog).getByLabelText('Full name'), 'Ada');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Join Wait List' }));
    await expectToast(
      "You're already on the list",
      'You were already on the list. We will be in touch.',
    );
  });

  it('shows a server error and keeps the form', async () => {
    mockApi({
      'POST /api/waitlist': () =>
        apiError(429, 'rate_limited', 'Too many attempts. Try again in a minute.'),
    });
    const user = userEvent.setup();
    renderButtons();
    const dialog = await openWaitlist(user);
    await user.type(within(dialog).getByLabelText('Full name'), 'Ada');
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Join Wait List' }));
    await expectToast('Error', 'Too many attempts. Try again in a minute.');
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Too many attempts');
    expect(within(dialog).getByLabelText('Full name')).toHaveValue('Ada');
  });
});
