/** Full-page navigation, kept in one place so tests can observe it (jsdom cannot navigate). */
export function loadPage(path: string): void {
  window.location.assign(path);
}

/**
 * Whether `path` is a page the server renders itself (the OAuth consent page an assistant sends a
 * member to): the app has no route for it, so going there takes a full page load.
 */
export function isServerPage(path: string): boolean {
  return path.startsWith('/oauth/');
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

/** The flags a return from Stripe Checkout leaves on /members (spec §2). */
const CHECKOUT_FLAGS = ['success', 'canceled', 'awaiting_subscription'] as const;

/**
 * Where to go after signing in on /auth. `return=members` is what the members area sends a
 * visitor with checkout flags: back to /members with those flags, so the page still finishes the
 * checkout. Any other `return` is read by {@link safeReturnPath}.
 */
export function afterSignInPath(params: URLSearchParams): string {
  const target = params.get('return');
  if (target !== 'members') return safeReturnPath(target);
  const kept = new URLSearchParams();
  for (const flag of CHECKOUT_FLAGS) {
    const value = params.get(flag);
    if (value !== null) kept.set(flag, value);
  }
  const query = kept.toString();
  return query ? `/members?${query}` : '/members';
}
