import { useLayoutEffect } from 'react';
import { useLocation } from 'react-router';
import { resetScrollRepeatedly } from '@/lib/scroll';

/** Turns off the browser's scroll restoration; the app decides where a page starts. */
export function disableScrollRestoration(): void {
  if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
}

/**
 * On every route change, scrolls the window and every `[data-scroll-reset]` element to the top,
 * again after one animation frame and again after 60 ms.
 */
export function ScrollManager() {
  const { pathname } = useLocation();

  useLayoutEffect(() => {
    disableScrollRestoration();
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the reset must run on each new path
  useLayoutEffect(() => resetScrollRepeatedly(), [pathname]);

  return null;
}
