// Prerenders every public route into dist/<route>/index.html (dist/index.html for /) with its real
// content, title, description, keywords, canonical link, Open Graph and Twitter tags and structured
// data (all made by src/app/head.ts, which the running app also uses on navigation), so search
// engines and first paint get the page before any JavaScript runs. The app shell is kept as
// dist/shell.html for client-only pages (members area), and the 404 page as dist/404.html with the
// placeholder /%TRIBE_REQUEST_PATH% where it shows the requested path.
//
// Absolute URLs carry the placeholder %TRIBE_BASE_URL%; the Go server replaces it with its
// TRIBE_BASE_URL at start, so one build serves any domain, and fills the 404 page's path in per
// request.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The shell with the base-URL tag the running app reads (app/head.ts) and nothing else. */
export function shellTemplate(template, baseUrlTag) {
  return template.replace('</head>', `  ${baseUrlTag}\n  </head>`);
}

async function main() {
  const webDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const dist = join(webDir, 'dist');
  const ssrEntry = join(webDir, 'dist-ssr', 'entry-server.js');
  const contentDir = resolve(webDir, '..', 'content');
  const readJson = async (name) => JSON.parse(await readFile(join(contentDir, name), 'utf8'));
  const content = {
    about: await readJson('about.json'),
    services: await readJson('services.json'),
    contact: await readJson('contact.json'),
  };
  const ssr = await import(pathToFileURL(ssrEntry).href);
  const { render, pageMeta, pageDocument, renderHeadTags } = ssr;
  const base = ssr.BASE_URL_PLACEHOLDER;
  const baseUrlTag = renderHeadTags([
    { tag: 'meta', attrs: { name: ssr.BASE_URL_META, content: base } },
  ]);
  const template = shellTemplate(await readFile(join(dist, 'index.html'), 'utf8'), baseUrlTag);
  await writeFile(join(dist, 'shell.html'), template);
  // The server renders pages again from the site owner's content through the same pageDocument
  // (src/entry-rerender.tsx), so the two ways of writing a page cannot drift apart.
  const page = async (path, renderAt) =>
    pageDocument(template, path, await render(renderAt), content);
  let count = 0;
  for (const [path, meta] of Object.entries(pageMeta)) {
    if (!meta.prerender) continue;
    const file = path === '/' ? join(dist, 'index.html') : join(dist, path.slice(1), 'index.html');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, await page(path, path));
    count += 1;
  }
  // The 404 page, rendered at a placeholder path the server replaces by the requested one.
  const placeholder = ssr.NOT_FOUND_PATH_PLACEHOLDER;
  const notFound = await page(null, placeholder);
  if (!notFound.includes(`>${placeholder}<`)) {
    throw new Error(`prerender 404: the page does not show the path placeholder ${placeholder}`);
  }
  await writeFile(join(dist, '404.html'), notFound);
  await rm(join(webDir, 'dist-ssr'), { recursive: true, force: true });
  console.log(`prerendered ${count} pages and the 404 page`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
