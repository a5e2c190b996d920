import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderRoute } from '@/test/render';

describe('ScrollManager', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('turns off browser scroll restoration', () => {
    window.history.scrollRestoration = 'auto';
    renderRoute('/');
    expect(window.history.scrollRestoration).toBe('manual');
  });

  it('leaves the first page where the reader scrolled it (a prerendered page is readable before hydration)', () => {
    const scrollTo = vi.mocked(window.scrollTo);
    scrollTo.mockClear();
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
    });
    renderRoute('/');
    act(() => vi.runAllTimers());
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('scrolls to the top on a route change, again after a frame and after 60 ms', async () => {
    // Start on a lazy page, then go to Home (bundled eagerly), so the change commits at once.
    const { router } = renderRoute('/tribe');
    await screen.findByRole('heading', { level: 1, name: 'The Tribe' });
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
    });
    const scrollTo = vi.mocked(window.scrollTo);
    const panel = document.createElement('div');
    panel.setAttribute('data-scroll-reset', '');
    document.body.append(panel);
    act(() => vi.runAllTimers());
    scrollTo.mockClear();

    panel.scrollTop = 300;
    await act(() => router.navigate('/'));
    const instant = () =>
      scrollTo.mock.calls.filter((args: unknown[]) => {
        const [arg] = args;
        return (
          typeof arg === 'object' && arg !== null && 'behavior' in arg && arg.behavior === 'instant'
        );
      }).length;
    expect(instant()).toBe(1);
    expect(panel.scrollTop).toBe(0);

    act(() => vi.advanceTimersToNextFrame());
    expect(instant()).toBe(2);
    act(() => vi.advanceTimersByTime(60));
    expect(instant()).toBe(3);
    expect(
      screen.getByRole('heading', { level: 1, name: 'Agentic Coaching & Mentoring' }),
    ).toBeInTheDocument();
    panel.remove();
  });

  it('moves focus to the main area on a route change, not on the first load', async () => {
    const { router } = renderRoute('/tribe');
    await screen.findByRole('heading', { level: 1, name: 'The Tribe' });
    const main = screen.getByRole('main');
    expect(main).not.toHaveFocus();
    const link = screen.getAllByRole('link', { name: 'Projects' })[0];
    link?.focus();
    await act(() => router.navigate('/'));
    expect(
      screen.getByRole('heading', { level: 1, name: 'Agentic Coaching & Mentoring' }),
    ).toBeInTheDocument();
    expect(main).toHaveFocus();
  });

  it('leaves focus in an open dialog that navigates', async () => {
    const { router } = renderRoute('/tribe');
    await screen.findByRole('heading', { level: 1, name: 'The Tribe' });
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const button = document.createElement('button');
    dialog.append(button);
    document.body.append(dialog);
    button.focus();
    await act(() => router.navigate('/'));
    expect(button).toHaveFocus();
    dialog.remove();
  });
});
