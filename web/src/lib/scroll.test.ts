import { afterEach, describe, expect, it, vi } from 'vitest';
import { installMatchMedia } from '@/test/match-media';
import {
  documentScrollPercent,
  resetScrollRepeatedly,
  SCROLL_RESET_ATTR,
  scrollPercent,
  scrollToTopSmooth,
} from './scroll';

describe('scrollPercent', () => {
  it('is 0 at the top and 100 at the bottom', () => {
    expect(scrollPercent(0, 3000, 1000)).toBe(0);
    expect(scrollPercent(2000, 3000, 1000)).toBe(100);
  });

  it('rounds the fraction of the scrollable distance', () => {
    expect(scrollPercent(1000, 3000, 1000)).toBe(50);
    expect(scrollPercent(840, 3000, 1000)).toBe(42);
    expect(scrollPercent(1, 3000, 1000)).toBe(0);
    expect(scrollPercent(333, 1000, 0)).toBe(33);
  });

  it('clamps overscroll (rubber-banding) into 0..100', () => {
    expect(scrollPercent(-50, 3000, 1000)).toBe(0);
    expect(scrollPercent(2600, 3000, 1000)).toBe(100);
  });

  it('reports 0 for pages that cannot scroll', () => {
    expect(scrollPercent(0, 800, 1000)).toBe(0);
    expect(scrollPercent(0, 1000, 1000)).toBe(0);
    expect(scrollPercent(Number.NaN, 3000, 1000)).toBe(0);
  });
});

describe('documentScrollPercent', () => {
  afterEach(() => {
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 0 });
  });

  it('reads the window position and the document height', () => {
    Object.defineProperty(document.documentElement, 'scrollHeight', {
      configurable: true,
      value: 4000,
    });
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 1000 });
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 750 });
    expect(documentScrollPercent()).toBe(25);
  });
});

describe('resetScrollRepeatedly', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resets the window and marked elements now, after a frame and after 60 ms', () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
    });
    const panel = document.createElement('div');
    panel.setAttribute(SCROLL_RESET_ATTR, '');
    document.body.append(panel);
    const scrollTo = vi.mocked(window.scrollTo);

    panel.scrollTop = 120;
    resetScrollRepeatedly();
    expect(scrollTo).toHaveBeenCalledTimes(1);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, left: 0, behavior: 'instant' });
    expect(panel.scrollTop).toBe(0);

    panel.scrollTop = 80;
    vi.advanceTimersToNextFrame();
    expect(scrollTo).toHaveBeenCalledTimes(2);
    expect(panel.scrollTop).toBe(0);

    panel.scrollTop = 40;
    vi.advanceTimersByTime(60);
    expect(scrollTo).toHaveBeenCalledTimes(3);
    expect(panel.scrollTop).toBe(0);
    panel.remove();
  });

  it('cancels the pending passes when cleaned up', () => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame'],
    });
    const cancel = resetScrollRepeatedly();
    cancel();
    vi.advanceTimersByTime(200);
    expect(window.scrollTo).toHaveBeenCalledTimes(1);
  });
});

describe('scrollToTopSmooth', () => {
  it('scrolls smoothly by default', () => {
    scrollToTopSmooth();
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'smooth' });
  });

  it('jumps instantly when the user prefers reduced motion', () => {
    installMatchMedia(1024, true);
    scrollToTopSmooth();
    expect(window.scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'instant' });
  });
});
