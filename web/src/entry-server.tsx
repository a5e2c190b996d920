/**
 * Build-time renderer: scripts/prerender.mjs loads the server build of this module and turns each
 * public route into HTML.
 */
import { renderToString } from 'react-dom/server';
import { prerender } from 'react-dom/static';
import { staticApp } from './app/static-app';

export {
  BASE_URL_META,
  BASE_URL_PLACEHOLDER,
  headTags,
  renderHeadTags,
  structuredData,
} from './app/head';
export { pageDocument } from './app/page-document';
export { notFoundMeta, pageMeta } from './app/seo';
export { NOT_FOUND_PATH_PLACEHOLDER } from './app/static-app';

/** Renders the app at `path` to the HTML that goes inside #root. */
export async function render(path: string): Promise<string> {
  const app = staticApp(path);
  // The first pass waits for the lazily loaded page to arrive. Its output finishes Suspense
  // boundaries with inline scripts, which the site's Content-Security-Policy forbids, so the
  // HTML comes from a second, synchronous pass that finds the page loaded and needs no script.
  await prerender(app);
  const html = renderToString(app);
  if (html.includes('<script')) throw new Error(`prerender ${path}: the HTML needs a script`);
  return html;
}
