import { useLayoutEffect, useRef } from 'react';
import { useLocation } from '@/lib/router';
import { resetScrollRepeatedly } from '@/lib/scroll';

/** Turns off the browser's scroll restoration; the app decides where a page starts. */
export function disableScrollRestoration(): void {
  if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
}

/**
 * On every route change, scrolls the window and every `[data-scroll-reset]` element to the top,
 * again after one animation frame and again after 60 ms. The first load is not a route change: a
 * prerendered page can be read and scrolled before the app hydrates, and must not jump back then.
 */
export function ScrollManager() {
  const { pathname } = useLocation();
  const shownPath = useRef(pathname);

  useLayoutEffect(() => {
    disableScrollRestoration();
  }, []);

  useLayoutEffect(() => {
    if (shownPath.current === pathname) return;
    shownPath.current = pathname;
    return resetScrollRepeatedly();
  }, [pathname]);

  return null;
}
