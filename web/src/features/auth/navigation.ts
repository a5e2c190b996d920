/** Full-page navigation, kept in one place so tests can observe it (jsdom cannot navigate). */
export function loadPage(path: string): void {
  window.location.assign(path);
}

/** Delay before the login modal's full-page load to the members area, so the toast is seen. */
export const MODAL_REDIRECT_DELAY_MS = 500;

/**
 * Where to go after signing in on /auth: the `return` parameter when it is a path on this site,
 * otherwise the members area. Anything that could leave the site (`//host`, `https:`, `\\`) is
 * ignored.
 */
export function safeReturnPath(value: string | null): string {
  if (!value?.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return '/members';
  }
  return value;
}
