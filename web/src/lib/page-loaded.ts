/**
 * Resolves once the page has finished loading (at once when it already has, as on a client-side
 * visit, and while prerendering). Parts of a page that arrive prerendered and readable wait for
 * it before loading their code, so that code does not compete with the first paint; until it
 * arrives, hydration leaves the prerendered HTML of that part in place.
 */
export function pageLoaded(): Promise<void> {
  if (typeof document === 'undefined' || document.readyState === 'complete')
    return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}
