/**
 * Scroll helpers shared by the layout: the progress math (pure, unit tested),
 * the reset applied on every route change, and the smooth scroll for nav clicks.
 */

/** Elements carrying this attribute are scrolled to the top on every route change. */
export const SCROLL_RESET_ATTR = 'data-scroll-reset';

/**
 * Percentage of the page scrolled, as an integer from 0 to 100.
 * A page that cannot scroll (content no taller than the viewport) reports 0.
 */
export function scrollPercent(
  scrollTop: number,
  scrollHeight: number,
  clientHeight: number,
): number {
  const scrollable = scrollHeight - clientHeight;
  if (!Number.isFinite(scrollable) || scrollable <= 0) return 0;
  const ratio = scrollTop / scrollable;
  if (!Number.isFinite(ratio)) return 0;
  return Math.round(Math.min(1, Math.max(0, ratio)) * 100);
}

/** Reads the current document's scroll position and returns {@link scrollPercent}. */
export function documentScrollPercent(doc: Document = document): number {
  const root = doc.documentElement;
  const win = doc.defaultView;
  const top = win?.scrollY ?? root.scrollTop;
  const viewport = win?.innerHeight ?? root.clientHeight;
  return scrollPercent(top, root.scrollHeight, viewport);
}

export function prefersReducedMotion(): boolean {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return false;
  return window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Jumps the window and every `[data-scroll-reset]` element to the top, instantly. */
export function resetScroll(): void {
  window.scrollTo({ top: 0, left: 0, behavior: 'instant' });
  for (const el of document.querySelectorAll<HTMLElement>(`[${SCROLL_RESET_ATTR}]`)) {
    el.scrollTop = 0;
    el.scrollLeft = 0;
  }
}

/**
 * Applies {@link resetScroll} now, after the next animation frame and again after 60 ms,
 * so late layout (lazy chunks, images) cannot leave the page part-way down.
 * Returns a cleanup that cancels the pending passes.
 */
export function resetScrollRepeatedly(): () => void {
  resetScroll();
  const frame = window.requestAnimationFrame(() => resetScroll());
  const timer = window.setTimeout(() => resetScroll(), 60);
  return () => {
    window.cancelAnimationFrame(frame);
    window.clearTimeout(timer);
  };
}

/** Scrolls the window to the top smoothly, or instantly when the user prefers reduced motion. */
export function scrollToTopSmooth(): void {
  window.scrollTo({ top: 0, left: 0, behavior: prefersReducedMotion() ? 'instant' : 'smooth' });
}
