import { render } from '@testing-library/react';
import { Providers } from '@/app/providers';
import { AppRoutes } from '@/app/routes';
import { createMemoryHistory, Router } from '@/lib/router';

export interface RenderRouteOptions {
  /** Index into the entries to start at (defaults to the last). */
  initialIndex?: number;
}

/**
 * Renders the real route tree, with the real providers, over a memory history that tests read
 * (`router.location`) and drive (`router.navigate`).
 */
export function renderRoute(entries: string | string[], options: RenderRouteOptions = {}) {
  const initialEntries = Array.isArray(entries) ? entries : [entries];
  const router = createMemoryHistory(initialEntries, options.initialIndex);
  const result = render(
    <Providers>
      <Router history={router}>
        <AppRoutes />
      </Router>
    </Providers>,
  );
  return { router, ...result };
}

/**
 * Loads the members route's chunk. Its first import is transformed on the spot (12 s on a quiet
 * machine, more beside the Go suite), so a file that waits on the members page calls this once in
 * `beforeAll` and its tests' waits then measure the page, not the transform.
 */
export async function preloadMembersRoute() {
  await import('@/app/pages/members');
}
