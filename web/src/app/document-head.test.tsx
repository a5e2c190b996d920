import { act, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryHistory, Router } from '@/lib/router';
import { mockApi, resetAuthState } from '@/test/mock-api';
import { renderRoute } from '@/test/render';
import { Providers } from './providers';
import { AppRoutes } from './routes';
import { notFoundMeta, pageMeta } from './seo';

const BASE = 'https://ruv.example';

function head() {
  const attr = (selector: string, name: string) =>
    document.head.querySelector(selector)?.getAttribute(name) ?? null;
  const ld = [...document.head.querySelectorAll('script[type="application/ld+json"]')].map(
    (s) => (JSON.parse(s.textContent ?? 'null') as { '@type': string })['@type'],
  );
  return {
    description: attr('meta[name="description"]', 'content'),
    descriptions: document.head.querySelectorAll('meta[name="description"]').length,
    canonical: attr('link[rel="canonical"]', 'href'),
    canonicals: document.head.querySelectorAll('link[rel="canonical"]').length,
    ogUrl: attr('meta[property="og:url"]', 'content'),
    ogTitle: attr('meta[property="og:title"]', 'content'),
    ogDescription: attr('meta[property="og:description"]', 'content'),
    twitterTitle: attr('meta[name="twitter:title"]', 'content'),
    twitterDescription: attr('meta[name="twitter:description"]', 'content'),
    robots: attr('meta[name="robots"]', 'content'),
    ld,
  };
}

/** What the prerendered page of `path` carries in its head (the JSON-LD types aside). */
function expected(path: string, ld: string[]) {
  const meta = pageMeta[path];
  if (!meta) throw new Error(`no meta for ${path}`);
  return {
    description: meta.description,
    descriptions: 1,
    canonical: `${BASE}${path}`,
    canonicals: 1,
    ogUrl: `${BASE}${path}`,
    ogTitle: `${meta.title} | rUv`,
    ogDescription: meta.description,
    twitterTitle: `${meta.title} | rUv`,
    twitterDescription: meta.description,
    robots: meta.index ? null : 'noindex',
    ld,
  };
}

beforeEach(() => {
  resetAuthState();
  mockApi();
  document.head.innerHTML = `<meta name="description" content="shell" />
    <meta name="tribe-base-url" content="${BASE}" />`;
});

afterEach(() => {
  document.head.innerHTML = '';
});

// The first navigations load page chunks and the content files: give them time.
describe('document head', { timeout: 30_000 }, () => {
  it('follows client-side navigation: description, canonical, social tags and JSON-LD', async () => {
    const { router } = renderRoute('/');
    await waitFor(() => expect(head()).toEqual(expected('/', ['Person'])));

    await act(async () => router.navigate('/about'));
    await screen.findByRole('heading', { level: 1, name: 'About rUv' });
    await waitFor(() => expect(head()).toEqual(expected('/about', ['ProfilePage'])));

    await act(async () => router.navigate('/projects'));
    await screen.findByRole('heading', { level: 1, name: 'Projects' });
    await waitFor(() => expect(head()).toEqual(expected('/projects', [])));

    await act(async () => router.navigate('/mcp'));
    await waitFor(() => expect(head()).toEqual(expected('/mcp', ['SoftwareSourceCode'])));

    await act(async () => router.navigate('/booking'));
    await waitFor(() => expect(head()).toEqual(expected('/booking', ['Service'])));

    await act(async () => router.navigate('/auth'));
    await waitFor(() => expect(head()).toEqual(expected('/auth', [])));

    await act(async () => router.navigate('/no/such/page'));
    await screen.findByRole('heading', { level: 1, name: /Page Not Found/ });
    await waitFor(() =>
      expect(head()).toEqual({
        description: notFoundMeta.description,
        descriptions: 1,
        canonical: null,
        canonicals: 0,
        ogUrl: null,
        ogTitle: 'Page not found | rUv',
        ogDescription: notFoundMeta.description,
        twitterTitle: 'Page not found | rUv',
        twitterDescription: notFoundMeta.description,
        robots: 'noindex',
        ld: [],
      }),
    );

    await act(async () => router.go(-6));
    await waitFor(() => expect(head()).toEqual(expected('/', ['Person'])));
  });

  it('leaves a hydrated page’s prerendered head alone until the first navigation', async () => {
    document.head.innerHTML += '<link rel="canonical" href="prerendered" />';
    const history = createMemoryHistory(['/']);
    render(
      <Providers>
        <Router history={history}>
          <AppRoutes prerendered />
        </Router>
      </Providers>,
    );
    await screen.findByRole('heading', { level: 1 });
    // Give a wrong update every chance to land.
    await new Promise((r) => setTimeout(r, 50));
    expect(head().canonical).toBe('prerendered');
    expect(head().description).toBe('shell');

    await act(async () => history.navigate('/tribe'));
    await waitFor(() => expect(head()).toEqual(expected('/tribe', ['Service'])));
  });
});
