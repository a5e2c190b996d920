/**
 * Build-time renderer: scripts/prerender.mjs loads the server build of this module and turns each
 * public route into HTML.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { StaticRouter } from '@/lib/router';
import { Providers } from './app/providers';
import { AppRoutes } from './app/routes';

export {
  BASE_URL_META,
  BASE_URL_PLACEHOLDER,
  headTags,
  renderHeadTags,
  structuredData,
} from './app/head';
export { notFoundMeta, pageMeta } from './app/seo';

/**
 * The path the 404 page is prerendered at. The server puts the requested path, escaped, in its
 * place (internal/web/notfound.go), and the app hydrates that HTML at the same path.
 */
export const NOT_FOUND_PATH_PLACEHOLDER = '/%TRIBE_REQUEST_PATH%';

/** Renders the app at `path` to the HTML that goes inside #root. */
export async function render(path: string): Promise<string> {
  const app = (
    <StrictMode>
      <Providers>
        <StaticRouter location={path}>
          <AppRoutes />
        </StaticRouter>
      </Providers>
    </StrictMode>
  );
  // The first pass waits for the lazily loaded page to arrive. Its output finishes Suspense
  // boundaries with inline scripts, which the site's Content-Security-Policy forbids, so the
  // HTML comes from a second, synchronous pass that finds the page loaded and needs no script.
  await prerender(app);
  const html = renderToString(app);
  if (html.includes('<script')) throw new Error(`prerender ${path}: the HTML needs a script`);
  return html;
}
