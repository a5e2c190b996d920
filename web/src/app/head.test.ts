import { describe, expect, it } from 'vitest';
import { bundledContent } from '@/content/site';
import {
  applyHead,
  BASE_URL_PLACEHOLDER,
  documentBaseUrl,
  headTags,
  metaFor,
  renderHeadTags,
  type StructuredContent,
  type StructuredData,
  structuredData,
} from './head';
import { notFoundMeta, type PageMeta, pageMeta } from './seo';

const meta: PageMeta = {
  title: 'About',
  description: 'About "rUv" & friends',
  keywords: ['agentic AI', 'PACT'],
  prerender: true,
  index: true,
};

/** The repository's content files, as the build bundles them. */
async function content(): Promise<StructuredContent> {
  return bundledContent;
}

const base = BASE_URL_PLACEHOLDER;

/** Reads a nested field of a JSON-LD object. */
function field(data: StructuredData | null, ...keys: Array<string | number>): unknown {
  let value: unknown = data;
  for (const key of keys) value = (value as Record<string | number, unknown>)[key];
  return value;
}

describe('head tags', () => {
  it('renders description, keywords, canonical and social tags, escaped', () => {
    const html = renderHeadTags(headTags('/about', meta, base, null));
    expect(html).toContain(
      '<meta name="description" content="About &quot;rUv&quot; &amp; friends" />',
    );
    expect(html).toContain('<meta name="keywords" content="agentic AI, PACT" />');
    expect(html).toContain(`<link rel="canonical" href="${base}/about" />`);
    expect(html).toContain(`<meta property="og:url" content="${base}/about" />`);
    expect(html).toContain('<meta property="og:title" content="About | rUv" />');
    expect(html).toContain('<meta name="twitter:card" content="summary" />');
    expect(html).toContain('<meta name="twitter:title" content="About | rUv" />');
    expect(html).not.toContain('noindex');
    expect(html).not.toContain('ld+json');
  });

  it('gives home the canonical link of the site root', () => {
    const html = renderHeadTags(headTags('/', meta, 'https://ruv.example', null));
    expect(html).toContain('<link rel="canonical" href="https://ruv.example/" />');
  });

  it('marks pages that are not for search engines', () => {
    expect(renderHeadTags(headTags('/auth', { ...meta, index: false }, base, null))).toContain(
      '<meta name="robots" content="noindex" />',
    );
  });

  it('gives the 404 page no address of its own, and noindex', () => {
    const html = renderHeadTags(headTags(null, notFoundMeta, base, null));
    expect(html).not.toContain('canonical');
    expect(html).not.toContain('og:url');
    expect(html).toContain('<meta name="robots" content="noindex" />');
    expect(html).toContain('<meta property="og:title" content="Page not found | rUv" />');
  });

  it('keeps JSON-LD from closing its script block', () => {
    const html = renderHeadTags(
      headTags('/', meta, base, { x: '</script><script>alert(1)</script>' }),
    );
    expect(html).not.toContain('</script><script>');
    expect(html).toContain('\\u003c/script>');
  });

  it('finds the metadata of a path: its route, trailing slash ignored, or the 404 page', () => {
    expect(metaFor('/about')).toEqual({ path: '/about', meta: pageMeta['/about'] });
    expect(metaFor('/about/')).toEqual({ path: '/about', meta: pageMeta['/about'] });
    expect(metaFor('/About')).toEqual({ path: null, meta: notFoundMeta });
    expect(metaFor('/')).toEqual({ path: '/', meta: pageMeta['/'] });
  });
});

describe('structured data', () => {
  it('builds the home Person record with the three session offers from the content files', async () => {
    const files = await content();
    const person = structuredData('/', files, meta, base);
    expect(field(person, '@type')).toBe('Person');
    expect(field(person, 'name')).toBe(files.about.name);
    const offers = field(person, 'makesOffer') as Array<{ price: string }>;
    expect(offers.map((o) => o.price)).toEqual(files.services.sessions.map((s) => String(s.price)));
    expect(offers.map((o) => o.price)).toContain('299');
    expect(field(structuredData('/mcp', files, meta, base), '@type')).toBe('SoftwareSourceCode');
    expect(structuredData('/projects', files, meta, base)).toBeNull();
    expect(structuredData(null, files, notFoundMeta, base)).toBeNull();
  });

  it('builds the about, booking and tribe records from the content files', async () => {
    const files = await content();
    const profile = structuredData('/about', files, meta, base);
    expect(field(profile, '@type')).toBe('ProfilePage');
    expect(field(profile, 'mainEntity', 'name')).toBe(files.about.name);
    const booking = structuredData('/booking', files, meta, base);
    const items = field(booking, 'hasOfferCatalog', 'itemListElement') as Array<{
      price: string;
      url: string;
    }>;
    expect(items.map((o) => o.price)).toEqual(['149', '299', '499', '500', '3000', '50000']);
    // A mailto: booking link is not a page to point search engines at.
    expect(items[5]?.url).toBe('%TRIBE_BASE_URL%/booking');
    const tribe = structuredData('/tribe', files, meta, base);
    expect(field(tribe, 'offers', 'price')).toBe('250');
    expect(field(tribe, 'offers', 'priceSpecification', 'unitCode')).toBe('MON');
  });
});

describe('applyHead', () => {
  it('replaces every managed tag, the shell description included, and leaves the rest', () => {
    document.head.innerHTML = `
      <meta charset="UTF-8" />
      <meta name="description" content="shell" />
      <meta name="tribe-base-url" content="https://ruv.example" />
      <link rel="icon" href="/favicon.svg" />
      <link rel="canonical" href="https://ruv.example/" />
      <meta property="og:url" content="https://ruv.example/" />
      <meta name="twitter:title" content="Home" />
      <script type="application/ld+json">{"@type":"Person"}</script>`;
    applyHead(
      document,
      headTags('/about', meta, 'https://ruv.example', { '@type': 'ProfilePage' }),
    );
    const descriptions = document.head.querySelectorAll('meta[name="description"]');
    expect([...descriptions].map((m) => m.getAttribute('content'))).toEqual([meta.description]);
    expect(document.head.querySelectorAll('link[rel="canonical"]')).toHaveLength(1);
    expect(document.head.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(
      'https://ruv.example/about',
    );
    const ld = document.head.querySelectorAll('script[type="application/ld+json"]');
    expect([...ld].map((s) => s.textContent)).toEqual(['{"@type":"ProfilePage"}']);
    expect(document.head.querySelectorAll('meta[name="twitter:title"]')).toHaveLength(1);
    expect(document.head.querySelector('link[rel="icon"]')).not.toBeNull();
    expect(document.head.querySelector('meta[charset]')).not.toBeNull();
    expect(documentBaseUrl(document)).toBe('https://ruv.example');
  });

  it('falls back to the page origin when the server did not fill the base URL in', () => {
    document.head.innerHTML = `<meta name="tribe-base-url" content="${BASE_URL_PLACEHOLDER}" />`;
    expect(documentBaseUrl(document)).toBe(window.location.origin);
    document.head.innerHTML = '';
    expect(documentBaseUrl(document)).toBe(window.location.origin);
  });
});
