import { useLayoutEffect, useRef } from 'react';
import { useLocation } from '@/lib/router';
import { resetScrollRepeatedly } from '@/lib/scroll';
import { MAIN_ID } from './SkipLink';

/** Turns off the browser's scroll restoration; the app decides where a page starts. */
export function disableScrollRestoration(): void {
  if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
}

/**
 * On every route change, scrolls the window and every `[data-scroll-reset]` element to the top,
 * again after one animation frame and again after 60 ms, and moves focus to the main area, so a
 * keyboard or screen-reader user continues at the new page instead of at the link that led there
 * (a dialog that is still open keeps its focus; it hands focus back itself when it closes). The
 * first load is not a route change: a prerendered page can be read and scrolled before the app
 * hydrates, and must not jump back then.
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
    if (!document.activeElement?.closest('[role="dialog"]')) {
      document.getElementById(MAIN_ID)?.focus({ preventScroll: true });
    }
    return resetScrollRepeatedly();
  }, [pathname]);

  return null;
}
