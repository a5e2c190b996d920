import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ada, json, mockApi, resetAuthState } from '@/test/mock-api';
import { renderRoute } from '@/test/render';
import { HomeRoute, NotFoundRoute, pageFor, pageRoutes } from './routes';
import { pageMeta } from './seo';

/** The page routes listed in the public-site spec's route table. */
const specRoutes = [
  '/',
  '/about',
  '/projects',
  '/mcp',
  '/tribe',
  '/booking',
  '/auth',
  '/members',
  // The members' library (issue 32).
  '/members/library',
  // The owner's numbers (issue 25), admins only.
  '/admin/insights',
  '/agent-test',
  '/goal',
  '/lean-agentic',
  '/midstreamer',
  '/agentic-payments',
  '/ai-defence',
  '/aimds',
  // Booking on the site (issue 22): one page per offer booked natively.
  '/book/session-15',
  '/book/session-30',
  '/book/session-60',
  '/book/private',
  '/book/group',
];

/** Renders a route as its audience sees it: the members area signed in, everything else signed out. */
function visit(path: string) {
  resetAuthState();
  mockApi(
    path.startsWith('/members') ? { 'GET /api/auth/session': () => json(200, { user: ada }) } : {},
  );
  return renderRoute(path);
}

describe('routes', () => {
  afterEach(resetAuthState);

  it('registers exactly the spec routes', () => {
    expect(pageRoutes.map((r) => r.path).sort()).toEqual([...specRoutes].sort());
  });

  it.each(specRoutes)('%s renders its own page, not the 404', async (path) => {
    const error = vi.spyOn(console, 'error');
    visit(path);
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading).not.toHaveTextContent(/page not found/i);
    expect(screen.queryByText('404')).not.toBeInTheDocument();
    expect(error).not.toHaveBeenCalledWith(expect.stringContaining('404 Error'), expect.anything());
    await waitFor(() => expect(document.title).toMatch(/ \| rUv$/));
    // The shared layout is around every page.
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    // jsdom also counts a page's own <footer> inside <main> as contentinfo (browsers do not):
    // the site footer is the last one.
    expect(screen.getAllByRole('contentinfo').at(-1)).toHaveTextContent('All rights reserved');
    expect(screen.getByRole('progressbar', { name: 'Page scrolled' })).toBeInTheDocument();
  });

  it('has head metadata for exactly the routes the router has', () => {
    // '/bookings' is the head of every /bookings/{id} page.
    expect(Object.keys(pageMeta).sort()).toEqual([...specRoutes, '/bookings'].sort());
  });

  it.each(specRoutes)('%s sets the title its prerendered HTML carries', async (path) => {
    visit(path);
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(document.title).toBe(`${pageMeta[path]?.title} | rUv`));
  });

  it('gives every page a distinct document title', async () => {
    const titles = new Set<string>();
    for (const path of specRoutes) {
      const { unmount } = visit(path);
      await screen.findByRole('heading', { level: 1 });
      // The page's own title, not the one before it still standing: a lazy page that set its
      // title after the loop moved on overwrote the next test's.
      await waitFor(() => expect(document.title).toBe(`${pageMeta[path]?.title} | rUv`));
      titles.add(document.title);
      unmount();
    }
    expect(titles.size).toBe(specRoutes.length);
  });

  it('shows the 404 page for anything else', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderRoute('/definitely/not/here');
    expect(await screen.findByRole('heading', { name: /page not found/i })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Page not found | rUv'));
  });

  it('renders Home with its headline, tagline and links to About and Booking', () => {
    renderRoute('/');
    expect(
      screen.getByRole('heading', { level: 1, name: 'Agentic Coaching & Mentoring' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Personalized AI Mastery: One-on-One Consultations Available'),
    ).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(main.querySelector('a[href="/about"]')).not.toBeNull();
    expect(main.querySelector('a[href="/booking"]')).not.toBeNull();
  });
});

describe('pageFor', () => {
  it('matches the route table exactly but for a trailing slash, else the 404 page', () => {
    expect(pageFor('/')).toBe(HomeRoute);
    expect(pageFor('/about/')).toBe(pageFor('/about'));
    // The server answers 404 for a path in other case; the page must agree.
    expect(pageFor('/About')).toBe(NotFoundRoute);
    expect(pageFor('/about')).not.toBe(NotFoundRoute);
    expect(pageFor('/about/team')).toBe(NotFoundRoute);
    expect(pageFor('/nope')).toBe(NotFoundRoute);
  });

  it('gives /bookings/{id} its page, but not the bare prefix or a deeper path', () => {
    const booking = pageFor('/bookings/abc');
    expect(booking).not.toBe(NotFoundRoute);
    expect(pageFor('/bookings/abc/')).toBe(booking);
    expect(pageFor('/bookings/')).toBe(NotFoundRoute);
    expect(pageFor('/bookings')).toBe(NotFoundRoute);
    expect(pageFor('/bookings/a/b')).toBe(NotFoundRoute);
    expect(pageFor('/book/unknown')).toBe(NotFoundRoute);
  });
});
