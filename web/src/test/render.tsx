import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Providers } from '@/app/providers';
import { routes } from '@/app/routes';

export interface RenderRouteOptions {
  /** Index into the entries to start at (defaults to the last). */
  initialIndex?: number;
}

/**
 * Renders the real route tree, with the real providers, in a memory router. The app itself uses
 * the declarative BrowserRouter over the same route objects; the memory data router is used here
 * because tests read and drive its state (`router.state`, `router.navigate`).
 */
export function renderRoute(entries: string | string[], options: RenderRouteOptions = {}) {
  const initialEntries = Array.isArray(entries) ? entries : [entries];
  const router = createMemoryRouter(routes, {
    initialEntries,
    initialIndex: options.initialIndex ?? initialEntries.length - 1,
  });
  const result = render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { router, ...result };
}
