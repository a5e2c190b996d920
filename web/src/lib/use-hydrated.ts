import { useSyncExternalStore } from 'react';

const noop = () => () => {};

/**
 * False on the server and during hydration, true afterwards (and at once when a page is rendered
 * on the client). Prerendered pages know nothing of the query string, so what depends on it waits
 * for this to become true and hydration matches the prerendered HTML.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
