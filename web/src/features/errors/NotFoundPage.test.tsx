import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { renderRoute } from '@/test/render';

describe('NotFoundPage', () => {
  let consoleError: MockInstance<typeof console.error>;

  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it('shows 404, the requested path and the time of the error', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-03-04T05:06:07Z'));
    renderRoute('/no/such/page');
    // The page is its own chunk: it renders once that has loaded.
    const heading = await screen.findByRole('heading', { level: 1 });
    vi.useRealTimers();

    expect(heading).toHaveTextContent('Page Not Found');
    expect(screen.getByText('404', { selector: 'p' })).toBeInTheDocument();
    const code = screen.getByText('/no/such/page', { selector: 'code' });
    expect(code.tagName).toBe('CODE');
    expect(screen.getByText(/does not exist/i)).toBeInTheDocument();
    const time = document.querySelector('time');
    expect(time).not.toBeNull();
    expect(time?.getAttribute('datetime')).toBe('2031-03-04T05:06:07.000Z');
    expect(time?.textContent).toMatch(/2031/);
  });

  it('logs the path to the console exactly once', async () => {
    renderRoute('/missing');
    await screen.findByRole('heading', { level: 1 });
    const calls = consoleError.mock.calls.filter((c) => String(c[0]).startsWith('404 Error'));
    expect(calls).toEqual([
      ['404 Error: User attempted to access non-existent route:', '/missing'],
    ]);
  });

  it('Return Home navigates to /', async () => {
    const user = userEvent.setup();
    const { router } = renderRoute('/missing');
    await user.click(await screen.findByRole('button', { name: 'Return Home' }));
    expect(router.location.pathname).toBe('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Agentic Coaching & Mentoring' }),
    ).toBeInTheDocument();
  });

  it('View Projects navigates to /projects', async () => {
    const user = userEvent.setup();
    const { router } = renderRoute('/missing');
    await user.click(await screen.findByRole('button', { name: 'View Projects' }));
    expect(router.location.pathname).toBe('/projects');
    expect(await screen.findByRole('heading', { level: 1, name: 'Projects' })).toBeInTheDocument();
  });

  it('Go Back returns to the previous page', async () => {
    const user = userEvent.setup();
    const { router } = renderRoute(['/about', '/missing']);
    await user.click(await screen.findByRole('button', { name: 'Go Back' }));
    expect(router.location.pathname).toBe('/about');
    expect(await screen.findByRole('heading', { level: 1, name: 'About rUv' })).toBeInTheDocument();
  });

  it('Go Back goes home when there is no history', async () => {
    vi.spyOn(window.history, 'length', 'get').mockReturnValue(1);
    const user = userEvent.setup();
    const { router } = renderRoute('/missing');
    await user.click(await screen.findByRole('button', { name: 'Go Back' }));
    expect(router.location.pathname).toBe('/');
  });

  it('logs again when moving to another unknown path', async () => {
    const { router } = renderRoute('/first-missing');
    await screen.findByText('/first-missing', { selector: 'code' });
    await router.navigate('/second-missing');
    expect(await screen.findByText('/second-missing', { selector: 'code' })).toBeInTheDocument();
    const paths = consoleError.mock.calls
      .filter((c) => String(c[0]).startsWith('404 Error'))
      .map((c) => c[1]);
    expect(paths).toEqual(['/first-missing', '/second-missing']);
  });
});
