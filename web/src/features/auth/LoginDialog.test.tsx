import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { preloadToasts, toast } from '@/lib/toast';
import { ada, deferred, json, mockApi, resetAuthState } from '@/test/mock-api';
import { LoginDialog } from './LoginDialog';
import { loadPage } from './navigation';

vi.mock('./navigation', async (original) => ({
  ...(await original<typeof import('./navigation')>()),
  loadPage: vi.fn(),
}));

// The toast library as a slow network or a busy machine delivers it: when the test says.
vi.mock('@/lib/toast', () => ({
  preloadToasts: vi.fn(),
  toast: { success: vi.fn(), error: vi.fn(), info: vi.fn(), dismiss: vi.fn() },
  ToastRegion: () => null,
}));

beforeEach(() => {
  vi.mocked(loadPage).mockClear();
  vi.mocked(preloadToasts).mockClear();
});

afterEach(resetAuthState);

describe('LoginDialog', () => {
  it('starts loading the toast library when it opens', async () => {
    const { rerender } = render(<LoginDialog open={false} onOpenChange={() => {}} />);
    expect(preloadToasts).not.toHaveBeenCalled();
    rerender(<LoginDialog open onOpenChange={() => {}} />);
    await screen.findByRole('dialog', { name: 'Member Login' });
    expect(preloadToasts).toHaveBeenCalled();
  });

  it('loads the members area only once the welcome toast is up, then after 500 ms', async () => {
    const shown = deferred<void>();
    vi.mocked(toast.success).mockReturnValue(shown.promise);
    mockApi({ 'POST /api/auth/signin': () => json(200, { user: ada }) });
    const timeouts = vi.spyOn(window, 'setTimeout');
    const user = userEvent.setup();
    render(<LoginDialog open onOpenChange={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Member Login' });
    await user.type(within(dialog).getByLabelText('Email'), 'ada@example.com');
    await user.type(within(dialog).getByLabelText('Password'), 'secret1');
    await user.click(within(dialog).getByRole('button', { name: 'Sign In' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('Welcome back!', 'Redirecting to members area...'),
    );
    // However long the library takes, the page stays.
    await new Promise((r) => setTimeout(r, 700));
    expect(loadPage).not.toHaveBeenCalled();
    expect(timeouts).not.toHaveBeenCalledWith(expect.any(Function), 500);

    shown.resolve();
    await waitFor(() => expect(timeouts).toHaveBeenCalledWith(expect.any(Function), 500));
    expect(loadPage).not.toHaveBeenCalled();
    await waitFor(() => expect(loadPage).toHaveBeenCalledWith('/members'));
  });
});
