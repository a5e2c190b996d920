import { useCallback, useEffect, useRef, useState } from 'react';
import { MD_QUERY } from '@/lib/media';
import { useLocation } from '@/lib/router';

/** Marker put in the history entry pushed when the menu opens, so Back closes the menu. */
export const MENU_HISTORY_KEY = '__ruvMobileMenu';

function hasMenuMarker(state: unknown): boolean {
  return typeof state === 'object' && state !== null && MENU_HISTORY_KEY in state;
}

export interface MobileMenuControls {
  open: boolean;
  openMenu: () => void;
  /** Closes the menu and drops its history entry (Escape, close button, widening). */
  closeMenu: () => void;
  /** Closes the menu because a link is navigating; that navigation replaces the entry. */
  closeForNavigation: () => void;
}

/**
 * State of the full-screen mobile menu. While open it owns one history entry (Back closes it),
 * locks page scroll, and closes when the viewport widens to the `md` breakpoint or the route
 * changes.
 */
export function useMobileMenu(): MobileMenuControls {
  const [open, setOpen] = useState(false);
  const pushed = useRef(false);
  const { pathname } = useLocation();

  const openMenu = useCallback(() => {
    if (!pushed.current) {
      const state: unknown = window.history.state;
      const base = typeof state === 'object' && state !== null ? state : {};
      window.history.pushState({ ...base, [MENU_HISTORY_KEY]: true }, '');
      pushed.current = true;
    }
    setOpen(true);
  }, []);

  const closeMenu = useCallback(() => {
    setOpen(false);
    if (pushed.current) {
      pushed.current = false;
      if (hasMenuMarker(window.history.state)) window.history.back();
    }
  }, []);

  const closeForNavigation = useCallback(() => {
    pushed.current = false;
    setOpen(false);
  }, []);

  // Browser back pops the menu's entry: close without going back again.
  useEffect(() => {
    if (!open) return;
    const onPop = () => {
      pushed.current = false;
      setOpen(false);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [open]);

  // Widening to the desktop layout closes the menu.
  useEffect(() => {
    if (!open || typeof window.matchMedia !== 'function') return;
    const mql = window.matchMedia(MD_QUERY);
    const onChange = (event: MediaQueryListEvent) => {
      if (event.matches) closeMenu();
    };
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, [open, closeMenu]);

  // Lock page scroll while open.
  useEffect(() => {
    if (!open) return;
    const { body, documentElement } = document;
    const previous = { body: body.style.overflow, root: documentElement.style.overflow };
    body.style.overflow = 'hidden';
    documentElement.style.overflow = 'hidden';
    return () => {
      body.style.overflow = previous.body;
      documentElement.style.overflow = previous.root;
    };
  }, [open]);

  // Any route change (however it happened) closes the menu.
  const lastPath = useRef(pathname);
  useEffect(() => {
    if (lastPath.current === pathname) return;
    lastPath.current = pathname;
    closeForNavigation();
  }, [pathname, closeForNavigation]);

  // A reload while the menu was open leaves its marker behind; drop it.
  useEffect(() => {
    const state: unknown = window.history.state;
    if (hasMenuMarker(state) && typeof state === 'object' && state !== null) {
      const { [MENU_HISTORY_KEY]: _marker, ...rest } = state as Record<string, unknown>;
      window.history.replaceState(rest, '');
    }
  }, []);

  return { open, openMenu, closeMenu, closeForNavigation };
}
