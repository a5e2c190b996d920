// @vitest-environment node
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  BASE_URL_PLACEHOLDER,
  escapeHtml,
  fillTemplate,
  headTags,
  jsonLd,
  structuredData,
} from './prerender.mjs';

const template = `<!doctype html><html><head>
<meta name="description" content="generic" />
<title>Generic | rUv</title>
</head><body><div id="root"></div></body></html>`;

const meta = {
  title: 'About',
  description: 'About "rUv" & friends',
  keywords: ['agentic AI', 'PACT'],
  prerender: true,
  index: true,
};

const contentDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'content');
const readContent = async (name) => JSON.parse(await readFile(join(contentDir, name), 'utf8'));

describe('prerender', () => {
  it('escapes attribute text', () => {
    expect(escapeHtml('a "b" <c> & d')).toBe('a &quot;b&quot; &lt;c&gt; &amp; d');
  });

  it('keeps JSON-LD from closing its script block', () => {
    expect(jsonLd({ x: '</script><script>alert(1)</script>' })).not.toContain('</script><script>');
  });

  it('fills body, title, description, canonical and social tags', () => {
    const page = fillTemplate(template, '/about', meta, '<h1>About rUv</h1>', null);
    expect(page).toContain('<div id="root"><h1>About rUv</h1></div>');
    expect(page).toContain('<title>About | rUv</title>');
    expect(page).not.toContain('Generic');
    expect(page).toContain(
      '<meta name="description" content="About &quot;rUv&quot; &amp; friends" />',
    );
    expect(page).toContain(`<link rel="canonical" href="${BASE_URL_PLACEHOLDER}/about" />`);
    expect(page).toContain('<meta property="og:title" content="About | rUv" />');
    expect(page).toContain('<meta name="twitter:card" content="summary" />');
    expect(page).toContain('<meta name="keywords" content="agentic AI, PACT" />');
    expect(page).not.toContain('noindex');
  });

  it('marks pages that are not for search engines', () => {
    expect(headTags('/auth', { ...meta, index: false }, null)).toContain(
      '<meta name="robots" content="noindex" />',
    );
  });

  it('refuses a template without the root element', () => {
    expect(() => fillTemplate('<html></html>', '/', meta, '', null)).toThrow(/root/);
  });

  it('builds the home Person record with the three session offers from the content files', async () => {
    const content = {
      about: await readContent('about.json'),
      services: await readContent('services.json'),
      contact: await readContent('contact.json'),
    };
    const person = structuredData('/', content, 'Home', 'desc');
    expect(person['@type']).toBe('Person');
    expect(person.name).toBe(content.about.name);
    expect(person.makesOffer).toHaveLength(3);
    expect(person.makesOffer.map((o) => o.price)).toEqual(
      content.services.sessions.map((s) => String(s.price)),
    );
    expect(person.makesOffer.map((o) => o.price)).toContain('299');
    expect(structuredData('/mcp', content, 'MCP', 'desc')['@type']).toBe('SoftwareSourceCode');
    expect(structuredData('/projects', content, 'Projects', 'desc')).toBeNull();
  });

  it('builds the about, booking and tribe records from the content files', async () => {
    const content = {
      about: await readContent('about.json'),
      services: await readContent('services.json'),
      contact: await readContent('contact.json'),
    };
    const profile = structuredData('/about', content, 'About', 'desc');
    expect(profile['@type']).toBe('ProfilePage');
    expect(profile.mainEntity.name).toBe(content.about.name);
    const booking = structuredData('/booking', content, 'Booking', 'desc');
    const prices = booking.hasOfferCatalog.itemListElement.map((o) => o.price);
    expect(prices).toEqual(['149', '299', '499', '500', '3000', '50000']);
    // A mailto: booking link is not a page to point search engines at.
    expect(booking.hasOfferCatalog.itemListElement[5].url).toBe('%TRIBE_BASE_URL%/booking');
    const tribe = structuredData('/tribe', content, 'The Tribe', 'desc');
    expect(tribe.offers.price).toBe('250');
    expect(tribe.offers.priceSpecification.unitCode).toBe('MON');
  });
});
