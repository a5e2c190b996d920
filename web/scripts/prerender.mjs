// Prerenders every public route into dist/<route>/index.html (dist/index.html for /) with its real
// content, title, description, keywords, canonical link, Open Graph and Twitter tags and structured
// data, so search engines and first paint get the page before any JavaScript runs. The untouched
// app shell is kept as dist/shell.html for client-only pages (members area).
//
// Absolute URLs carry the placeholder %TRIBE_BASE_URL%; the Go server replaces it with its
// TRIBE_BASE_URL at start, so one build serves any domain.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const BASE_URL_PLACEHOLDER = '%TRIBE_BASE_URL%';
const ROOT_TAG = '<div id="root"></div>';

/** Escapes text for an HTML attribute value or text node. */
export function escapeHtml(s) {
  return String(s)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** JSON for a <script type="application/ld+json"> block; "<" is escaped so it cannot end the block. */
export function jsonLd(data) {
  return `<script type="application/ld+json">${JSON.stringify(data).replaceAll('<', '\\u003c')}</script>`;
}

/** Structured data of a route, built from the content files (the one source of prices). */
export function structuredData(path, content, title, description) {
  const base = BASE_URL_PLACEHOLDER;
  if (path === '/') {
    const { about, services, contact } = content;
    return {
      '@context': 'https://schema.org',
      '@type': 'Person',
      name: about.name,
      alternateName: about.handle,
      jobTitle: about.title,
      description: about.summary,
      url: `${base}/`,
      sameAs: Object.values(contact.online_presence.links),
      knowsAbout: about.expertise,
      makesOffer: services.sessions.map((s) => ({
        '@type': 'Offer',
        name: `${s.name} (${s.duration} minutes)`,
        description: s.description,
        price: String(s.price),
        priceCurrency: services.currency,
        url: s.booking_link || `${base}/booking`,
        availability: 'https://schema.org/InStock',
      })),
    };
  }
  if (path === '/about') {
    const { about, contact } = content;
    return {
      '@context': 'https://schema.org',
      '@type': 'ProfilePage',
      name: title,
      description,
      url: `${base}/about`,
      mainEntity: {
        '@type': 'Person',
        name: about.name,
        alternateName: about.handle,
        jobTitle: about.title,
        description: about.summary,
        sameAs: Object.values(contact.online_presence.links),
        knowsAbout: about.expertise,
      },
    };
  }
  if (path === '/booking') {
    const { about, services } = content;
    const offer = (name, description, price, url) => ({
      '@type': 'Offer',
      name,
      description,
      price: String(price),
      priceCurrency: services.currency,
      url: url && /^https?:/.test(url) ? url : `${base}/booking`,
    });
    return {
      '@context': 'https://schema.org',
      '@type': 'Service',
      name: title,
      description,
      url: `${base}/booking`,
      provider: { '@type': 'Person', name: about.name, url: `${base}/about` },
      hasOfferCatalog: {
        '@type': 'OfferCatalog',
        name: 'Sessions and training',
        itemListElement: [
          ...services.sessions.map((s) =>
            offer(`${s.name} (${s.duration} minutes)`, s.description, s.price, s.booking_link),
          ),
          ...services.training.map((t) =>
            offer(`Neural Trader ${t.title}`, t.subtitle ?? t.duration, t.price, t.booking_link),
          ),
        ],
      },
    };
  }
  if (path === '/tribe') {
    const { about, services } = content;
    const { tribe } = services;
    return {
      '@context': 'https://schema.org',
      '@type': 'Service',
      name: tribe.name,
      description: tribe.summary,
      url: `${base}/tribe`,
      provider: { '@type': 'Person', name: about.name, url: `${base}/about` },
      offers: {
        '@type': 'Offer',
        price: String(tribe.price_monthly),
        priceCurrency: tribe.currency,
        priceSpecification: {
          '@type': 'UnitPriceSpecification',
          price: String(tribe.price_monthly),
          priceCurrency: tribe.currency,
          unitCode: 'MON',
        },
      },
    };
  }
  if (path === '/mcp') {
    return {
      '@context': 'https://schema.org',
      '@type': 'SoftwareSourceCode',
      name: title,
      description,
      url: `${base}/mcp`,
      programmingLanguage: 'TypeScript',
      license: 'https://opensource.org/licenses/MIT',
      codeSampleType: 'template',
      author: { '@type': 'Person', name: content.about.name, url: `${base}/about` },
    };
  }
  return null;
}

/** The <head> additions of one page. */
export function headTags(path, meta, data) {
  const url = `${BASE_URL_PLACEHOLDER}${path === '/' ? '/' : path}`;
  const title = `${meta.title} | rUv`;
  const tags = [
    `<meta name="keywords" content="${escapeHtml(meta.keywords.join(', '))}" />`,
    `<link rel="canonical" href="${url}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="rUv" />`,
    `<meta property="og:title" content="${escapeHtml(title)}" />`,
    `<meta property="og:description" content="${escapeHtml(meta.description)}" />`,
    `<meta property="og:url" content="${url}" />`,
    `<meta name="twitter:card" content="summary" />`,
    `<meta name="twitter:site" content="@ruv" />`,
    `<meta name="twitter:title" content="${escapeHtml(title)}" />`,
    `<meta name="twitter:description" content="${escapeHtml(meta.description)}" />`,
  ];
  if (!meta.index) tags.push('<meta name="robots" content="noindex" />');
  if (data) tags.push(jsonLd(data));
  return tags.join('\n    ');
}

/** Puts a rendered page into the shell: body, title, description and head tags. */
export function fillTemplate(template, path, meta, html, data) {
  if (!template.includes(ROOT_TAG)) throw new Error(`index.html lacks ${ROOT_TAG}`);
  const title = escapeHtml(`${meta.title} | rUv`);
  return template
    .replace(/<title>[^<]*<\/title>/, `<title>${title}</title>`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/>/,
      `<meta name="description" content="${escapeHtml(meta.description)}" />`,
    )
    .replace('</head>', `  ${headTags(path, meta, data)}\n  </head>`)
    .replace(ROOT_TAG, `<div id="root">${html}</div>`);
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
  const { render, pageMeta } = await import(pathToFileURL(ssrEntry).href);
  const template = await readFile(join(dist, 'index.html'), 'utf8');
  await writeFile(join(dist, 'shell.html'), template);
  let count = 0;
  for (const [path, meta] of Object.entries(pageMeta)) {
    if (!meta.prerender) continue;
    const html = await render(path);
    const page = fillTemplate(
      template,
      path,
      meta,
      html,
      structuredData(path, content, meta.title, meta.description),
    );
    const file = path === '/' ? join(dist, 'index.html') : join(dist, path.slice(1), 'index.html');
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, page);
    count += 1;
  }
  await rm(join(webDir, 'dist-ssr'), { recursive: true, force: true });
  console.log(`prerendered ${count} pages`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
