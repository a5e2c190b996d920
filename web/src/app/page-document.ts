/**
 * A prerendered page as a whole document: the app's HTML inside the shell, with the page's title
 * and head tags. The build (scripts/prerender.mjs) and the server's render from the site owner's
 * content (entry-rerender.tsx) both write pages through it, so a page rendered again from the
 * build's content is, byte for byte, the page the build wrote.
 */
import {
  BASE_URL_PLACEHOLDER,
  escapeHtml,
  headTags,
  renderHeadTags,
  type StructuredContent,
  structuredData,
} from './head';
import { notFoundMeta, pageMeta } from './seo';

const ROOT_TAG = '<div id="root"></div>';

/**
 * Puts a rendered page into the shell: its body, its title and its head tags (rendered by
 * app/head.ts, which also includes the description, so the shell's generic one goes).
 */
export function fillTemplate(template: string, title: string, head: string, html: string): string {
  if (!template.includes(ROOT_TAG)) throw new Error(`the page template lacks ${ROOT_TAG}`);
  // Functions as replacements, so a "$" in the page is never read as a replacement pattern.
  return template
    .replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`)
    .replace(/\s*<meta\s+name="description"\s+content="[^"]*"\s*\/>/, '')
    .replace('</head>', () => `  ${head}\n  </head>`)
    .replace(ROOT_TAG, () => `<div id="root">${html}</div>`);
}

/**
 * The document of `route` (null: the 404 page) with `html` in #root, its head tags and structured
 * data made from `content`, and %TRIBE_BASE_URL% where absolute URLs need the site's address.
 */
export function pageDocument(
  template: string,
  route: string | null,
  html: string,
  content: StructuredContent,
): string {
  const meta = route === null ? notFoundMeta : pageMeta[route];
  if (!meta) throw new Error(`no page metadata for ${route}`);
  const base = BASE_URL_PLACEHOLDER;
  const data = structuredData(route, content, meta, base);
  return fillTemplate(
    template,
    `${meta.title} | rUv`,
    renderHeadTags(headTags(route, meta, base, data)),
    html,
  );
}
