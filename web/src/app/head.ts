/**
 * The <head> of every page beyond its title: description, keywords, canonical link, Open Graph and
 * Twitter tags, robots and structured data (JSON-LD). One description of them serves both the
 * prerendered HTML (scripts/prerender.mjs writes renderHeadTags' output) and the running app
 * (applyHead replaces them on every navigation), so a page reached by a click carries the same
 * head as the same page loaded afresh.
 */
import type { About, Contact, Services } from '@/content/types';
import { formatTitle } from '@/lib/page-title';
import { notFoundMeta, type PageMeta, pageMeta } from './seo';

/** Stands for TRIBE_BASE_URL in prerendered pages; the server fills it in when it loads the build. */
export const BASE_URL_PLACEHOLDER = '%TRIBE_BASE_URL%';

/** The meta tag that tells the running app TRIBE_BASE_URL (for canonical and social URLs). */
export const BASE_URL_META = 'tribe-base-url';

/** One element of the head: a meta or link tag with its attributes, or a JSON-LD block. */
export type HeadTag =
  | { tag: 'meta' | 'link'; attrs: Readonly<Record<string, string>> }
  | { tag: 'script'; json: string };

/** The content files the structured data is made of. */
export interface StructuredContent {
  about: About;
  services: Services;
  contact: Contact;
}

/** A JSON-LD object. */
export type StructuredData = Record<string, unknown>;

/** The head metadata of a path: its route's, or the 404 page's for any other path. */
export function metaFor(pathname: string): { path: string | null; meta: PageMeta } {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  // A booking's own page (/bookings/{id}) has the head of all of them, and no index; a
  // community thread (/members/community/{id}) the members area's, a library item
  // (/members/library/{id}) the library's.
  const meta =
    pageMeta[path] ??
    (/^\/bookings\/[^/]+$/.test(path)
      ? pageMeta['/bookings']
      : /^\/members\/community\/[^/]+$/.test(path)
        ? pageMeta['/members']
        : /^\/members\/library\/[^/]+$/.test(path)
          ? pageMeta['/members/library']
          : undefined);
  return meta ? { path, meta } : { path: null, meta: notFoundMeta };
}

/** Where an offer is booked: the site's own page when booked on the site, else its link. */
function offerUrl(
  offer: { id: string; booking?: string; booking_link?: string },
  base: string,
): string {
  if (offer.booking === 'native') return `${base}/book/${offer.id}`;
  // Asked about through the form on the booking page, not a mail link.
  if (offer.booking === 'inquiry') return `${base}/booking`;
  return offer.booking_link || `${base}/booking`;
}

/** Routes whose structured data is built from the content files. */
export function hasStructuredData(path: string | null): boolean {
  return path !== null && ['/', '/about', '/booking', '/tribe', '/mcp'].includes(path);
}

/** Structured data of a route, built from the content files (the one source of prices). */
export function structuredData(
  path: string | null,
  content: StructuredContent,
  meta: PageMeta,
  base: string,
): StructuredData | null {
  const { about, services, contact } = content;
  const title = formatTitle(meta.title);
  const { description } = meta;
  const person = {
    name: about.name,
    alternateName: about.handle,
    jobTitle: about.title,
    description: about.summary,
  };
  const sameAs = Object.values(contact.online_presence.links);
  const provider = { '@type': 'Person', name: about.name, url: `${base}/about` };
  switch (path) {
    case '/':
      return {
        '@context': 'https://schema.org',
        '@type': 'Person',
        ...person,
        url: `${base}/`,
        sameAs,
        knowsAbout: about.expertise,
        makesOffer: services.sessions.map((s) => ({
          '@type': 'Offer',
          name: `${s.name} (${s.duration} minutes)`,
          description: s.description,
          price: String(s.price),
          priceCurrency: services.currency,
          url: offerUrl(s, base),
          availability: 'https://schema.org/InStock',
        })),
      };
    case '/about':
      return {
        '@context': 'https://schema.org',
        '@type': 'ProfilePage',
        name: title,
        description,
        url: `${base}/about`,
        mainEntity: { '@type': 'Person', ...person, sameAs, knowsAbout: about.expertise },
      };
    case '/booking': {
      const offer = (name: string, text: string, price: number, url: string) => ({
        '@type': 'Offer',
        name,
        description: text,
        price: String(price),
        priceCurrency: services.currency,
        // The site's own booking pages, or a scheduler's web address; anything else (a mailto:
        // link) is booked from the booking page.
        url: url.startsWith(`${base}/`) || /^https?:/.test(url) ? url : `${base}/booking`,
      });
      return {
        '@context': 'https://schema.org',
        '@type': 'Service',
        name: title,
        description,
        url: `${base}/booking`,
        provider,
        hasOfferCatalog: {
          '@type': 'OfferCatalog',
          name: 'Sessions and training',
          itemListElement: [
            ...services.sessions.map((s) =>
              offer(`${s.name} (${s.duration} minutes)`, s.description, s.price, offerUrl(s, base)),
            ),
            ...services.training.map((t) =>
              offer(
                `Neural Trader ${t.title}`,
                t.subtitle ?? t.duration,
                t.price,
                offerUrl(t, base),
              ),
            ),
          ],
        },
      };
    }
    case '/tribe': {
      const { tribe } = services;
      const price = String(tribe.price_monthly);
      return {
        '@context': 'https://schema.org',
        '@type': 'Service',
        name: tribe.name,
        description: tribe.summary,
        url: `${base}/tribe`,
        provider,
        offers: {
          '@type': 'Offer',
          price,
          priceCurrency: tribe.currency,
          priceSpecification: {
            '@type': 'UnitPriceSpecification',
            price,
            priceCurrency: tribe.currency,
            unitCode: 'MON',
          },
        },
      };
    }
    case '/mcp':
      return {
        '@context': 'https://schema.org',
        '@type': 'SoftwareSourceCode',
        name: title,
        description,
        url: `${base}/mcp`,
        programmingLanguage: 'TypeScript',
        license: 'https://opensource.org/licenses/MIT',
        codeSampleType: 'template',
        author: provider,
      };
    default:
      return null;
  }
}

/** JSON for a JSON-LD block; "<" is escaped so the text can never end its script element. */
export function jsonLdText(data: StructuredData): string {
  return JSON.stringify(data).replaceAll('<', '\\u003c');
}

/**
 * The head tags of a page, in order. `path` is null for the 404 page, which has no address of
 * its own (no canonical link or og:url) and is never indexed.
 */
export function headTags(
  path: string | null,
  meta: PageMeta,
  base: string,
  data: StructuredData | null,
): HeadTag[] {
  const title = formatTitle(meta.title);
  const url = path === null ? null : `${base}${path}`;
  const meta_ = (key: 'name' | 'property', name: string, content: string): HeadTag => ({
    tag: 'meta',
    attrs: { [key]: name, content },
  });
  const tags: HeadTag[] = [
    meta_('name', 'description', meta.description),
    meta_('name', 'keywords', meta.keywords.join(', ')),
  ];
  if (url) tags.push({ tag: 'link', attrs: { rel: 'canonical', href: url } });
  tags.push(
    meta_('property', 'og:type', 'website'),
    meta_('property', 'og:site_name', 'rUv'),
    meta_('property', 'og:title', title),
    meta_('property', 'og:description', meta.description),
  );
  if (url) tags.push(meta_('property', 'og:url', url));
  tags.push(
    meta_('name', 'twitter:card', 'summary'),
    meta_('name', 'twitter:site', '@ruv'),
    meta_('name', 'twitter:title', title),
    meta_('name', 'twitter:description', meta.description),
  );
  if (!meta.index) tags.push(meta_('name', 'robots', 'noindex'));
  if (data) tags.push({ tag: 'script', json: jsonLdText(data) });
  return tags;
}

/** Escapes text for an HTML attribute value or text node. */
export function escapeHtml(s: string): string {
  return s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** The tags as HTML, one a line, for the prerendered pages. */
export function renderHeadTags(tags: readonly HeadTag[], indent = '    '): string {
  return tags
    .map((t) => {
      if (t.tag === 'script') return `<script type="application/ld+json">${t.json}</script>`;
      const attrs = Object.entries(t.attrs)
        .map(([k, v]) => ` ${k}="${escapeHtml(v)}"`)
        .join('');
      return `<${t.tag}${attrs} />`;
    })
    .join(`\n${indent}`);
}

/** What applyHead replaces: every tag headTags makes, and the description of the bare shell. */
const MANAGED = [
  'meta[name="description"]',
  'meta[name="keywords"]',
  'meta[name="robots"]',
  'link[rel="canonical"]',
  'meta[property^="og:"]',
  'meta[name^="twitter:"]',
  'script[type="application/ld+json"]',
].join(', ');

/** Replaces the document's head tags with `tags`. */
export function applyHead(doc: Document, tags: readonly HeadTag[]): void {
  for (const element of doc.head.querySelectorAll(MANAGED)) element.remove();
  const fragment = doc.createDocumentFragment();
  for (const t of tags) {
    if (t.tag === 'script') {
      const script = doc.createElement('script');
      script.type = 'application/ld+json';
      script.textContent = t.json;
      fragment.append(script);
    } else {
      const element = doc.createElement(t.tag);
      for (const [k, v] of Object.entries(t.attrs)) element.setAttribute(k, v);
      fragment.append(element);
    }
  }
  doc.head.append(fragment);
}

/**
 * TRIBE_BASE_URL as the server filled it into the page; the page's own origin when it did not
 * (the Vite dev server serves the bare index.html).
 */
export function documentBaseUrl(doc: Document): string {
  const value = doc.querySelector(`meta[name="${BASE_URL_META}"]`)?.getAttribute('content');
  if (value && value !== BASE_URL_PLACEHOLDER) return value.replace(/\/+$/, '');
  return doc.location?.origin ?? '';
}
