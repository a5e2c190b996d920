/**
 * The server's renderer for the site owner's content. The build bundles this module into
 * dist/server/render.js, one script without imports; when the content the Go server loads differs
 * from the build's, the server runs it in a JavaScript engine (internal/prerender) and serves the
 * pages it writes instead of the build's, so every page's HTML carries the owner's text, prices
 * and links before any script runs, and the browser hydrates it without a mismatch.
 */
import { renderToString } from 'react-dom/server.browser';
import { pageDocument } from './app/page-document';
import { NOT_FOUND_PATH_PLACEHOLDER, staticApp } from './app/static-app';
import { setServerContent } from './content/override';
import type { SiteContent } from './content/types';

/** What renderToString leaves where a part of the page was not ready (client-rendered boundary). */
const PENDING = '<!--$!-->';

/**
 * The document of `route` (null: the 404 page) rendered from `contentJson` (every content file by
 * name, as the server embeds them in #tribe-content) into `template` (the build's shell.html).
 * Null while a lazily loaded part is still loading: its module arrives once the engine has run
 * its pending jobs, after this call returns, and the next call renders it.
 */
export function renderPage(
  route: string | null,
  template: string,
  contentJson: string,
): string | null {
  const content = JSON.parse(contentJson) as SiteContent;
  setServerContent(content);
  try {
    const at = route ?? NOT_FOUND_PATH_PLACEHOLDER;
    const html = renderToString(staticApp(at));
    if (html.includes(PENDING)) return null;
    if (html.includes('<script')) throw new Error(`render ${at}: the HTML needs a script`);
    return pageDocument(template, route, html, content);
  } finally {
    setServerContent(null);
  }
}
