/** The app at a fixed path, as both server renderers render it (entry-server, entry-rerender). */
import { type ReactElement, StrictMode } from 'react';
import { StaticRouter } from '@/lib/router';
import { Providers } from './providers';
import { AppRoutes } from './routes';

/**
 * The path the 404 page is prerendered at. The server puts the requested path, escaped, in its
 * place (internal/web/notfound.go), and the app hydrates that HTML at the same path.
 */
export const NOT_FOUND_PATH_PLACEHOLDER = '/%TRIBE_REQUEST_PATH%';

/** The whole app rendered at `path`. */
export function staticApp(path: string): ReactElement {
  return (
    <StrictMode>
      <Providers>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </Providers>
    </StrictMode>
  );
}
