import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api';
import { session } from '@/lib/session';
import { installMatchMedia, setViewportWidth } from '@/test/match-media';
import { ada, apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { renderRoute } from '@/test/render';
import { MENU_HISTORY_KEY } from './useMobileMenu';

function mainNav() {
  return screen.getByRole('navigation', { name: 'Main' });
}

describe('desktop navigation', () => {
  it('links to every section, with Home shown only from the lg breakpoint', () => {
    renderRoute('/about');
    const nav = mainNav();
    const expected: Array<[string, string]> = [
      ['Home', '/'],
      ['About', '/about'],
      ['Projects', '/projects'],
      ['Tribe', '/tribe'],
      ['Booking', '/booking'],
      ['Member Login', '/auth'],
    ];
    for (const [name, href] of expected) {
      expect(within(nav).getByRole('link', { name })).toHaveAttribute('href', href);
    }

    const home = within(nav).getByRole('link', { name: 'Home' });
    expect(home).toHaveClass('hidden', 'lg:inline-flex');
    expect(home).not.toHaveClass('inline-flex');
    const about = within(nav).getByRole('link', { name: /About/ });
    expect(about).not.toHaveClass('hidden');
    expect(about).toHaveClass('inline-flex');
  });

  it('marks the current page', () => {
    renderRoute('/projects');
    expect(within(mainNav()).getByRole('link', { name: /Projects/ })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(within(mainNav()).getByRole('link', { name: 'Home' })).not.toHaveAttribute(
      'aria-current',
    );
  });

  it('scrolls smoothly to the top when a link is clicked', async () => {
    const user = userEvent.setup();
    const { router } = renderRoute('/');
    await user.click(within(mainNav()).getByRole('link', { name: 'Tribe' }));
    expect(router.location.pathname).toBe('/tribe');
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'smooth' });
  });
});

describe('mobile menu', { timeout: 20_000 }, () => {
  async function openMenu(user: ReturnType<typeof userEvent.setup>) {
    const button = screen.getByRole('button', { name: 'Open menu' });
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: /menu/i });
    return { button, dialog };
  }

  it('opens as a labelled modal dialog that takes focus and locks page scroll', async () => {
    installMatchMedia(375);
    const user = userEvent.setup();
    renderRoute('/');
    const button = screen.getByRole('button', { name: 'Open menu' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(button).toHaveAttribute('aria-controls', 'mobile-menu');
    expect(document.body.style.overflow).toBe('');

    const { dialog } = await openMenu(user);
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveAttribute('id', 'mobile-menu');
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(document.body.style.overflow).toBe('hidden');
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    for (const name of ['Home', 'About', 'Projects', 'Tribe', 'Booking', 'Member Login']) {
      expect(within(dialog).getByRole('link', { name })).toBeInTheDocument();
    }
  });

  it('closes when a link is chosen, navigates and unlocks scroll', async () => {
    installMatchMedia(375);
    const user = userEvent.setup();
    const { router } = renderRoute('/');
    const { dialog } = await openMenu(user);
    await user.click(within(dialog).getByRole('link', { name: 'Projects' }));
    expect(router.location.pathname).toBe('/projects');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.body.style.overflow).toBe('');
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
  });

  it('closes when the current page is chosen, staying put', async () => {
    installMatchMedia(375);
    const user = userEvent.setup();
    const { router } = renderRoute('/');
    const { dialog } = await openMenu(user);
    await user.click(within(dialog).getByRole('link', { name: 'Home' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.location.pathname).toBe('/');
  });

  it('closes on Escape and returns focus to the menu button', async () => {
    installMatchMedia(375);
    const user = userEvent.setup();
    renderRoute('/');
    const { button } = await openMenu(user);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.body.style.overflow).toBe('');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await waitFor(() => expect(button).toHaveFocus());
  });

  it('closes with its close button', async () => {
    installMatchMedia(375);
    const user = userEvent.setup();
    renderRoute('/');
    const { dialog } = await openMenu(user);
    await user.click(within(dialog).getByRole('button', { name: 'Close menu' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('closes when the viewport widens to 768 px or more', async () => {
    installMatchMedia(375);
    const user = userEvent.setup();
    renderRoute('/');
    await openMenu(user);
    act(() => setViewportWidth(600));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    act(() => setViewportWidth(1024));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.body.style.overflow).toBe('');
  });

  it('pushes a history entry, so browser back closes it', async () => {
    installMatchMedia(375);
    const user = userEvent.setup();
    const { router } = renderRoute('/about');
    await screen.findByRole('heading', { level: 1 });
    expect(window.history.state).not.toHaveProperty(MENU_HISTORY_KEY);
    await openMenu(user);
    expect(window.history.state).toHaveProperty(MENU_HISTORY_KEY, true);
    act(() => window.history.back());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(router.location.pathname).toBe('/about');
    expect(document.body.style.overflow).toBe('');
    expect(window.history.state).not.toHaveProperty(MENU_HISTORY_KEY);
  });
});

describe('signed-in navigation', { timeout: 20_000 }, () => {
  // The session store is shared by the whole file: start each test from "unknown".
  beforeEach(() => {
    resetAuthState();
  });
  afterEach(() => {
    resetAuthState();
  });

  async function logoutButton() {
    const nav = mainNav();
    return within(nav).findByRole('button', { name: 'Logout' });
  }

  it('shows Member Login until the session says otherwise, then a Logout button', async () => {
    mockApi({ 'GET /api/auth/session': () => json(200, { user: ada }) });
    renderRoute('/about');
    expect(within(mainNav()).getByRole('link', { name: 'Member Login' })).toBeInTheDocument();
    expect(await logoutButton()).toBeInTheDocument();
    expect(within(mainNav()).queryByRole('link', { name: 'Member Login' })).not.toBeInTheDocument();
  });

  it('asks before logging out; Cancel keeps the session', async () => {
    const api = mockApi({ 'GET /api/auth/session': () => json(200, { user: ada }) });
    const user = userEvent.setup();
    renderRoute('/about');
    await user.click(await logoutButton());
    const dialog = await screen.findByRole('alertdialog', { name: 'logout' });
    expect(dialog).toHaveAccessibleDescription('Are you sure you want to log out?');
    expect(within(dialog).getByText('$')).toHaveAttribute('aria-hidden', 'true');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.to('POST', '/api/auth/signout')).toHaveLength(0);
    expect(session.getSnapshot().status).toBe('signed-in');
    await waitFor(() =>
      expect(within(mainNav()).getByRole('button', { name: 'Logout' })).toHaveFocus(),
    );
  });

  it('logs out: toast, home page, Member Login again', async () => {
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: ada }),
      'POST /api/auth/signout': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    const { router } = renderRoute('/about');
    await user.click(await logoutButton());
    const dialog = await screen.findByRole('alertdialog', { name: 'logout' });
    await user.click(within(dialog).getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logged out')).toBeInTheDocument();
    expect(screen.getByText('You have been successfully logged out.')).toBeInTheDocument();
    await waitFor(() => expect(router.location.pathname).toBe('/'));
    expect(api.to('POST', '/api/auth/signout')[0]?.body).toEqual({ scope: 'local' });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(
      await within(mainNav()).findByRole('link', { name: 'Member Login' }),
    ).toBeInTheDocument();
    expect(session.getSnapshot().status).toBe('signed-out');
  });

  it('says so when logging out fails, and stays signed in', async () => {
    mockApi({
      'GET /api/auth/session': () => json(200, { user: ada }),
      'POST /api/auth/signout': () => apiError(500, 'server_error', 'boom'),
    });
    const user = userEvent.setup();
    const { router } = renderRoute('/about');
    await user.click(await logoutButton());
    const dialog = await screen.findByRole('alertdialog', { name: 'logout' });
    await user.click(within(dialog).getByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Failed to log out. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(router.location.pathname).toBe('/about');
    expect(session.getSnapshot().status).toBe('signed-in');
  });

  it('offers Logout in the mobile menu, which opens the same confirmation', async () => {
    installMatchMedia(375);
    mockApi({ 'GET /api/auth/session': () => json(200, { user: ada }) });
    const user = userEvent.setup();
    renderRoute('/about');
    await logoutButton();
    await user.click(screen.getByRole('button', { name: 'Open menu' }));
    const menu = await screen.findByRole('dialog', { name: /menu/i });
    expect(within(menu).queryByRole('link', { name: 'Member Login' })).not.toBeInTheDocument();
    await user.click(within(menu).getByRole('button', { name: 'Logout' }));
    await screen.findByRole('alertdialog', { name: 'logout' });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: /menu/i })).not.toBeInTheDocument(),
    );
  });

  it('switches to signed out when another request finds the session expired', async () => {
    mockApi({ 'GET /api/auth/session': () => json(200, { user: ada }) });
    renderRoute('/about');
    await logoutButton();
    act(() => session.reportError(new ApiError(401, 'unauthorized', 'Not authenticated')));
    expect(within(mainNav()).getByRole('link', { name: 'Member Login' })).toBeInTheDocument();
  });
});
