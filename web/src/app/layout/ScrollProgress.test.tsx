import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryHistory, Router } from '@/lib/router';
import { ScrollProgress } from './ScrollProgress';

function setScroll(y: number) {
  Object.defineProperty(window, 'scrollY', { configurable: true, value: y });
}

describe('ScrollProgress', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'cancelAnimationFrame'] });
    Object.defineProperty(document.documentElement, 'scrollHeight', {
      configurable: true,
      value: 5000,
    });
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 1000 });
    setScroll(0);
  });

  afterEach(() => {
    vi.useRealTimers();
    setScroll(0);
  });

  it('shows the percentage scrolled as text and as progressbar value', () => {
    render(
      <Router history={createMemoryHistory(['/about'])}>
        <ScrollProgress />
      </Router>,
    );
    const bar = screen.getByRole('progressbar', { name: 'Page scrolled' });
    expect(bar).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getByTestId('scroll-percent')).toHaveTextContent('0%');

    setScroll(1680);
    act(() => {
      window.dispatchEvent(new Event('scroll'));
      vi.advanceTimersToNextFrame();
    });
    expect(screen.getByTestId('scroll-percent')).toHaveTextContent('42%');
    expect(bar).toHaveAttribute('aria-valuenow', '42');

    setScroll(4000);
    act(() => {
      window.dispatchEvent(new Event('scroll'));
      vi.advanceTimersToNextFrame();
    });
    expect(screen.getByTestId('scroll-percent')).toHaveTextContent('100%');
  });
});
