/**
 * The site's public address (TRIBE_BASE_URL), for text a visitor copies elsewhere, such as the
 * MCP server's URL. Prerendered pages carry the placeholder, which the Go server replaces when it
 * starts (as in canonical links), and every page carries it in <meta name="tribe-base-url">. So
 * the address is the configured one before JavaScript runs and after hydration alike, and the
 * hydrated text matches the server's HTML.
 */
export const BASE_URL_PLACEHOLDER = '%TRIBE_BASE_URL%';

/** The base URL without a trailing slash. */
export function siteBaseUrl(): string {
  // Prerendering (no DOM): the server fills the placeholder in.
  if (typeof document === 'undefined') return BASE_URL_PLACEHOLDER;
  const meta = document
    .querySelector('meta[name="tribe-base-url"]')
    ?.getAttribute('content')
    ?.trim();
  // Unfilled (the Vite dev server) or missing: the address this page came from.
  if (!meta || meta.includes(BASE_URL_PLACEHOLDER)) return window.location.origin;
  return meta.replace(/\/+$/, '');
}
