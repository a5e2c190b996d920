import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { session } from '@/lib/session';
import { detectTimeZone } from '@/lib/time-zone';
import { ada, apiError, deferred, json, mockApi, resetAuthState } from '@/test/mock-api';
import { renderRoute } from '@/test/render';

afterEach(() => {
  resetAuthState();
});

async function expectToast(title: string, description: string) {
  const heading = await screen.findByText(title);
  const toast = heading.closest('[data-sonner-toast]') as HTMLElement | null;
  expect(toast).not.toBeNull();
  expect(within(toast as HTMLElement).getByText(description)).toBeInTheDocument();
}

const signedIn = () => json(200, { user: ada });

function signInForm() {
  return screen.getByRole('form', { name: 'Sign in' });
}

// The first tests load the page's chunk and the toast library: give them time.
describe('/auth', { timeout: 20_000 }, () => {
  it('has the heading, Sign In and Sign Up tabs, reachable by keyboard', async () => {
    mockApi();
    const user = userEvent.setup();
    renderRoute('/auth');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Welcome to the Tribe' }),
    ).toBeInTheDocument();
    const signIn = screen.getByRole('tab', { name: 'Sign In' });
    expect(signIn).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'false');
    signIn.focus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
    const form = screen.getByRole('form', { name: 'Sign up' });
    expect(within(form).getByLabelText('Full name')).toHaveAttribute('autocomplete', 'name');
    expect(within(form).getByLabelText('Password')).toHaveAttribute('autocomplete', 'new-password');
    expect(within(form).getByLabelText('Password')).toHaveAccessibleDescription(
      'At least 8 characters.',
    );
    expect(within(form).getByText('At least 8 characters.')).toBeVisible();
  });

  it('lists only what the members area has, and points questions to the console on Home', async () => {
    mockApi();
    renderRoute('/auth');
    await screen.findByRole('heading', { level: 1 });
    const panel = screen.getByText('~/tribe/members').closest('div')?.parentElement as HTMLElement;
    const areas = [...panel.querySelectorAll('dt')].map((dt) => dt.textContent);
    expect(areas).toEqual(['cohorts/', 'sessions/', 'chat/', 'profile/']);
    expect(panel).not.toHaveTextContent(/recordings|notes|guides|assistant/i);
    expect(within(panel).getByRole('link', { name: 'home page' })).toHaveAttribute('href', '/');
  });

  it('signs in: busy label, toast, then /members', async () => {
    const answer = deferred<Response>();
    mockApi({ 'POST /api/auth/signin': () => answer.promise });
    const user = userEvent.setup();
    const { router } = renderRoute('/auth');
    await screen.findByRole('heading', { level: 1 });
    await user.type(within(signInForm()).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(signInForm()).getByLabelText('Password'), 'x');
    await user.click(within(signInForm()).getByRole('button', { name: 'Sign In' }));
    expect(within(signInForm()).getByRole('button', { name: 'Signing in...' })).toBeInTheDocument();
    answer.resolve(signedIn());
    await expectToast('Welcome back!', 'You have successfully logged in.');
    await waitFor(() => expect(router.location.pathname).toBe('/members'));
    expect(session.getSnapshot().status).toBe('signed-in');
  });

  it('signs in to a return path on this site, never elsewhere', async () => {
    mockApi({ 'POST /api/auth/signin': signedIn });
    const user = userEvent.setup();
    const { router } = renderRoute('/auth?return=%2F%2Fevil.example%2Fx');
    await screen.findByRole('heading', { level: 1 });
    await user.type(within(signInForm()).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(signInForm()).getByLabelText('Password'), 'x');
    await user.click(within(signInForm()).getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.location.pathname).toBe('/members'));
  });

  it('needs every sign-up field and shows the server message on a short password', async () => {
    const api = mockApi({
      'POST /api/auth/signup': () =>
        apiError(400, 'invalid', 'Password must be at least 8 characters.'),
    });
    const user = userEvent.setup();
    renderRoute('/auth');
    await user.click(await screen.findByRole('tab', { name: 'Sign Up' }));
    const form = screen.getByRole('form', { name: 'Sign up' });
    await user.click(within(form).getByRole('button', { name: 'Sign Up' }));
    expect(within(form).getByText('Full name is required.')).toBeInTheDocument();
    expect(within(form).getByText('Email is required.')).toBeInTheDocument();
    expect(within(form).getByText('Password is required.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Full name')).toHaveFocus();
    expect(api.to('POST', '/api/auth/signup')).toHaveLength(0);

    await user.type(within(form).getByLabelText('Full name'), 'Ada Lovelace');
    await user.type(within(form).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(form).getByLabelText('Password'), 'short');
    await user.click(within(form).getByRole('button', { name: 'Sign Up' }));
    await expectToast('Error', 'Password must be at least 8 characters.');
    expect(within(form).getByRole('alert')).toHaveTextContent(
      'Password must be at least 8 characters.',
    );
    expect(api.to('POST', '/api/auth/signup')[0]?.body).toEqual({
      full_name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'short',
      // The browser's zone, for the reminders of a member who never opens Profile.
      time_zone: detectTimeZone(),
    });
  });

  it('takes the server’s password error and its toast away once the password is long enough', async () => {
    mockApi({
      'POST /api/auth/signup': () =>
        apiError(400, 'invalid', 'Password must be at least 8 characters.', 'password'),
    });
    const user = userEvent.setup();
    renderRoute('/auth');
    await user.click(await screen.findByRole('tab', { name: 'Sign Up' }));
    const form = screen.getByRole('form', { name: 'Sign up' });
    await user.type(within(form).getByLabelText('Full name'), 'Ada Lovelace');
    await user.type(within(form).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(form).getByLabelText('Password'), 'short');
    await user.click(within(form).getByRole('button', { name: 'Sign Up' }));
    await expectToast('Error', 'Password must be at least 8 characters.');

    // Editing another field, or the password while still too short, changes nothing.
    await user.type(within(form).getByLabelText('Full name'), ' B.');
    await user.type(within(form).getByLabelText('Password'), '12');
    expect(within(form).getByRole('alert')).toHaveTextContent('at least 8 characters');
    expect(
      screen.getByText('Password must be at least 8 characters.', {
        selector: '[data-description]',
      }),
    ).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Password'), '3');
    await waitFor(() =>
      expect(
        screen.queryByText('Password must be at least 8 characters.', {
          selector: '[data-description]',
        }),
      ).not.toBeInTheDocument(),
    );
    expect(within(form).getByRole('alert')).toBeEmptyDOMElement();
  });

  it('leaves no stale error toast beside Account created!', async () => {
    let calls = 0;
    mockApi({
      'POST /api/auth/signup': () => {
        calls += 1;
        return calls === 1
          ? apiError(409, 'email_taken', 'An account with this e-mail already exists.')
          : json(201, { user: ada });
      },
    });
    const user = userEvent.setup();
    const { router } = renderRoute('/auth');
    await user.click(await screen.findByRole('tab', { name: 'Sign Up' }));
    const form = screen.getByRole('form', { name: 'Sign up' });
    await user.type(within(form).getByLabelText('Full name'), 'Ada Lovelace');
    await user.type(within(form).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(form).getByLabelText('Password'), 'long enough');
    await user.click(within(form).getByRole('button', { name: 'Sign Up' }));
    await expectToast('Error', 'An account with this e-mail already exists.');
    await user.click(within(form).getByRole('button', { name: 'Sign Up' }));
    await expectToast(
      'Account created!',
      'You have successfully signed up. Redirecting to members area...',
    );
    // Gone with the success, not when its four seconds run out.
    const stale = () =>
      [...document.querySelectorAll('[data-sonner-toast]')].filter(
        (t) =>
          t.textContent?.includes('already exists') && t.getAttribute('data-removed') !== 'true',
      );
    await waitFor(() => expect(stale()).toEqual([]), { timeout: 1000 });
    expect(screen.getByText('Account created!')).toBeInTheDocument();
    await waitFor(() => expect(router.location.pathname).toBe('/members'));
  });

  it('signs up: busy label, toast, then /members', async () => {
    const answer = deferred<Response>();
    mockApi({ 'POST /api/auth/signup': () => answer.promise });
    const user = userEvent.setup();
    const { router } = renderRoute('/auth');
    await user.click(await screen.findByRole('tab', { name: 'Sign Up' }));
    const form = screen.getByRole('form', { name: 'Sign up' });
    await user.type(within(form).getByLabelText('Full name'), 'Ada Lovelace');
    await user.type(within(form).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(form).getByLabelText('Password'), 'long enough');
    await user.click(within(form).getByRole('button', { name: 'Sign Up' }));
    expect(within(form).getByRole('button', { name: 'Creating account...' })).toBeInTheDocument();
    answer.resolve(json(201, { user: ada }));
    await expectToast(
      'Account created!',
      'You have successfully signed up. Redirecting to members area...',
    );
    await waitFor(() => expect(router.location.pathname).toBe('/members'));
  });

  it('sends a reset link from the Forgot password? dialog', async () => {
    const api = mockApi({ 'POST /api/auth/password/forgot': () => json(202, { message: 'ok' }) });
    const user = userEvent.setup();
    renderRoute('/auth');
    await user.click(await screen.findByRole('button', { name: 'Forgot password?' }));
    const dialog = await screen.findByRole('dialog', { name: 'Forgot password?' });
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send Reset Link' }));
    await expectToast('Check your email', "We've sent you a password reset link.");
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.to('POST', '/api/auth/password/forgot')).toHaveLength(1);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Forgot password?' })).toHaveFocus(),
    );
  });

  it('sends a member on to /members, keeping other parameters and dropping return', async () => {
    mockApi({ 'GET /api/auth/session': signedIn });
    const { router } = renderRoute('/auth?return=%2Fmembers%2Fprofile&tab=cohorts&confirmed=true');
    await waitFor(() => expect(router.location.pathname).toBe('/members'));
    const params = new URLSearchParams(router.location.search);
    expect(params.get('tab')).toBe('cohorts');
    expect(params.get('confirmed')).toBe('true');
    expect(params.has('return')).toBe(false);
  });

  it('with logged_out=true signs a member out of this browser and stays', async () => {
    const api = mockApi({
      'GET /api/auth/session': signedIn,
      'POST /api/auth/signout': () => new Response(null, { status: 204 }),
    });
    const { router } = renderRoute('/auth?logged_out=true');
    await waitFor(() => expect(api.to('POST', '/api/auth/signout')).toHaveLength(1));
    expect(api.to('POST', '/api/auth/signout')[0]?.body).toEqual({ scope: 'local' });
    await waitFor(() => expect(session.getSnapshot().status).toBe('signed-out'));
    expect(router.location.pathname).toBe('/auth');
    expect(screen.getByRole('status')).toHaveTextContent('You have been logged out.');
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Member Login' })).toBeInTheDocument();
  });

  it('sets a new password from a reset link', async () => {
    const answer = deferred<Response>();
    const api = mockApi({ 'POST /api/auth/password/reset': () => answer.promise });
    const user = userEvent.setup();
    const { router } = renderRoute('/auth?reset=true&token=tok123');
    const form = await screen.findByRole('form', { name: 'Set a new password' });
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    // The length rule is said before anything is typed or sent.
    expect(within(form).getByText('At least 8 characters.')).toBeVisible();
    expect(within(form).getByLabelText('New password')).toHaveAccessibleDescription(
      'At least 8 characters.',
    );
    await user.type(within(form).getByLabelText('New password'), 'short');
    await user.type(within(form).getByLabelText('Confirm new password'), 'other');
    await user.click(within(form).getByRole('button', { name: 'Set New Password' }));
    expect(within(form).getByText('Password must be at least 8 characters.')).toBeInTheDocument();
    expect(within(form).getByText('The passwords do not match.')).toBeInTheDocument();
    expect(api.to('POST', '/api/auth/password/reset')).toHaveLength(0);

    await user.clear(within(form).getByLabelText('New password'));
    await user.type(within(form).getByLabelText('New password'), 'brand new pass');
    await user.clear(within(form).getByLabelText('Confirm new password'));
    await user.type(within(form).getByLabelText('Confirm new password'), 'brand new pass');
    await user.click(within(form).getByRole('button', { name: 'Set New Password' }));
    expect(within(form).getByRole('button', { name: 'Saving...' })).toBeInTheDocument();
    answer.resolve(json(200, { user: ada }));
    await waitFor(() => expect(router.location.pathname).toBe('/members'));
    expect(api.to('POST', '/api/auth/password/reset')[0]?.body).toEqual({
      token: 'tok123',
      password: 'brand new pass',
    });
    expect(session.getSnapshot().status).toBe('signed-in');
  });

  it('shows why a reset link failed', async () => {
    mockApi({
      'POST /api/auth/password/reset': () =>
        apiError(400, 'invalid_token', 'This reset link is invalid or has expired.'),
    });
    const user = userEvent.setup();
    renderRoute('/auth?reset=true&token=old');
    const form = await screen.findByRole('form', { name: 'Set a new password' });
    await user.type(within(form).getByLabelText('New password'), 'brand new pass');
    await user.type(within(form).getByLabelText('Confirm new password'), 'brand new pass');
    await user.click(within(form).getByRole('button', { name: 'Set New Password' }));
    await expectToast('Error', 'This reset link is invalid or has expired.');
  });

  it('explains a reset link without a token and offers a new one', async () => {
    mockApi();
    renderRoute('/auth?reset=true');
    expect(await screen.findByText(/This reset link is incomplete/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send a new reset link' })).toBeInTheDocument();
  });

  it.each([
    ['expired', /has expired/],
    ['used', /already been used/],
    ['invalid', /not valid/],
    ['signin', /Sign in first, then open the link/],
    ['<b>anything</b>', /not valid/],
  ])('explains a failed confirmation link (confirm_error=%s)', async (code, text) => {
    mockApi();
    renderRoute(`/auth?confirm_error=${encodeURIComponent(code)}`);
    const alert = await screen.findByText(text);
    expect(alert).toHaveAttribute('role', 'alert');
    expect(alert).not.toHaveTextContent('anything');
  });
});

describe('/auth after a checkout', { timeout: 20_000 }, () => {
  it('signs a member in and returns them to /members with the checkout flags', async () => {
    mockApi({ 'POST /api/auth/signin': signedIn });
    const user = userEvent.setup();
    const { router } = renderRoute('/auth?success=true&return=members');
    const form = await screen.findByRole('form', { name: 'Sign in' });
    await user.type(within(form).getByLabelText(/Email/), 'ada@example.com');
    await user.type(within(form).getByLabelText(/^Password/), 'long enough password');
    await user.click(within(form).getByRole('button', { name: /Sign in/i }));
    await waitFor(() => expect(router.location.pathname).toBe('/members'));
    expect(router.location.search).toBe('?success=true');
    session.dispose();
  });
});
