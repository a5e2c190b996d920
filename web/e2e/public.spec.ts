import { expect, test } from '@playwright/test';
import { seriousViolations } from './checks';

/** Every public route, its document title and the level-1 heading it must show. */
const publicPages: ReadonlyArray<{ path: string; title: string; heading: RegExp }> = [
  {
    path: '/',
    title: 'Agentic Coaching & Mentoring | rUv',
    heading: /Agentic Coaching & Mentoring/,
  },
  { path: '/about', title: 'About | rUv', heading: /About rUv/ },
  { path: '/projects', title: 'Projects | rUv', heading: /^Projects$/ },
  { path: '/booking', title: 'Booking | rUv', heading: /Book a Session/ },
  { path: '/tribe', title: 'The Tribe | rUv', heading: /The Tribe/ },
  { path: '/mcp', title: 'Client-side MCP tools | rUv', heading: /Client-side MCP tools/ },
  { path: '/agentic-payments', title: 'Agentic Payments | rUv', heading: /./ },
  { path: '/ai-defence', title: 'AI Defence | rUv', heading: /./ },
  { path: '/aimds', title: 'AIMDS | rUv', heading: /./ },
  { path: '/lean-agentic', title: 'Lean Agentic | rUv', heading: /./ },
  { path: '/midstreamer', title: 'Midstreamer | rUv', heading: /./ },
];

/** Key content of the pages built from the content files: prices and offers must be there. */
const keyContent: Record<string, string[]> = {
  '/': ['Featured Projects', 'AgentDB', '$299', '$250', 'Go to booking page'],
  '/about': ['PACT', 'Proactive', 'Clients and institutions', 'Biography'],
  '/projects': ['Claude-Flow', 'Neural Trader', 'Package showcases', 'Client-side MCP tools'],
  '/booking': ['$149', '$299', '$499', '$3,000', '$5,000', '$50,000', 'Frequently asked questions'],
  '/tribe': ['What you will build', '$250', 'Limited to 50 members'],
  '/mcp': ['Real-world applications', 'Healthcare', 'Licence and contributing'],
};

test.describe('public routes', () => {
  for (const { path, title, heading } of publicPages) {
    test(`${path} shows its title and heading and passes axe`, async ({ page }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await expect(page).toHaveTitle(title);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      for (const text of keyContent[path] ?? []) {
        await expect(page.getByRole('main')).toContainText(text);
      }
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
    });
  }

  test('pages fit a 320 px screen without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 700 });
    for (const path of [
      '/',
      '/about',
      '/projects',
      '/booking',
      '/tribe',
      '/mcp',
      '/no-such-page',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(320);
    }
  });
});

test.describe('home', () => {
  test('desktop: three featured projects, four outward project cards, four insights', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto('/');
    const main = page.getByRole('main');
    const hero = main.locator('section').first();
    await expect(hero.getByRole('link', { name: /^About/ })).toHaveAttribute('href', '/about');
    await expect(hero.getByRole('link', { name: 'Book a Session' })).toHaveAttribute(
      'href',
      '/booking',
    );
    await expect(hero.locator('[data-slot="console"]')).toBeVisible();
    const featured = main.getByRole('region', { name: 'Featured Projects' });
    await expect(featured.getByRole('heading', { level: 3 })).toHaveCount(3);
    await expect(
      featured.getByRole('link', { name: /80\+ repositories on GitHub/ }),
    ).toHaveAttribute('href', '/projects');
    const more = main.getByRole('region', { name: 'More from the workshop' });
    const cards = more.getByRole('heading', { level: 3 }).getByRole('link');
    await expect(cards).toHaveCount(4);
    for (const card of await cards.all()) {
      await expect(card).toHaveAttribute('href', /^https:\/\//);
      await expect(card).toHaveAttribute('target', '_blank');
    }
    await expect(
      main.getByRole('region', { name: 'Notes from building agents' }).getByRole('listitem'),
    ).toHaveCount(4);
    const connect = main.getByRole('region', { name: 'Connect' });
    await expect(connect.getByRole('link', { name: /Code on GitHub/ })).toBeVisible();
    await expect(connect.getByRole('link', { name: /Packages on npm/ })).toBeVisible();
    // The quick links belong to the phone layout.
    await expect(main.getByRole('navigation', { name: 'Quick links' })).toBeHidden();
  });

  test('mobile: tagline, NEW project, Neural Trader, services, tribe and quick links', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto('/');
    const main = page.getByRole('main');
    await expect(
      main.getByText('Personalized AI Mastery: One-on-One Consultations Available'),
    ).toBeVisible();
    const featured = main.getByRole('region', { name: 'Featured Projects' });
    await expect(featured.getByText('NEW')).toBeVisible();
    await expect(featured.getByRole('link', { name: 'Neural Trader' })).toBeVisible();
    await expect(main.getByRole('region', { name: 'Coaching services' })).toContainText('$299');
    await expect(main.getByRole('region', { name: 'The Tribe' })).toContainText('$250/month');
    await expect(main.getByRole('region', { name: 'Why work with rUv' })).toBeVisible();
    const quick = main.getByRole('navigation', { name: 'Quick links' });
    await expect(quick).toBeVisible();
    const hrefs = await quick
      .getByRole('link')
      .evaluateAll((links) => links.map((l) => l.getAttribute('href')));
    expect(hrefs).toEqual(['/about', '/projects', '/booking']);
  });

  test('animations are off for people who prefer reduced motion', async ({ page }) => {
    const animation = () =>
      page.locator('[data-slot="console"]').evaluate((el) => getComputedStyle(el).animationName);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/');
    expect(await animation()).toBe('none');
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.reload();
    expect(await animation()).not.toBe('none');
  });
});

test('the footer links the sibling sites, the social profiles and Member Login', async ({
  page,
}) => {
  await page.goto('/about');
  const footer = page.getByRole('contentinfo');
  const sites = footer.getByRole('region', { name: 'Sites' }).getByRole('link');
  await expect(sites).toHaveCount(2);
  const social = footer.getByRole('region', { name: 'Connect' }).getByRole('link');
  await expect(social).toHaveCount(4);
  for (const link of [...(await sites.all()), ...(await social.all())]) {
    await expect(link).toHaveAttribute('target', '_blank');
  }
  await expect(footer.getByRole('link', { name: 'Member Login' })).toHaveAttribute('href', '/auth');
  await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
});

test.describe('projects', () => {
  test('two featured projects, the four showcase pages and the MCP section', async ({ page }) => {
    await page.goto('/projects');
    const main = page.getByRole('main');
    await expect(main.getByRole('list', { name: 'Profiles' }).getByRole('link')).toHaveCount(4);
    await expect(
      main.getByRole('region', { name: 'Featured projects' }).getByRole('heading', { level: 3 }),
    ).toHaveText(['AgentDB', 'Claude-Flow']);
    const showcases = main
      .getByRole('region', { name: 'Package showcases' })
      .getByRole('heading', { level: 3 })
      .getByRole('link');
    const hrefs = await showcases.evaluateAll((links) => links.map((l) => l.getAttribute('href')));
    expect(hrefs).toEqual(['/agentic-payments', '/lean-agentic', '/midstreamer', '/ai-defence']);
    const external = main
      .getByRole('region', { name: 'Frameworks and tools' })
      .getByRole('heading', { level: 3 })
      .getByRole('link');
    expect(await external.count()).toBeGreaterThanOrEqual(10);
    await main.getByRole('link', { name: /Tools and starter kit/ }).click();
    await expect(page).toHaveURL(/\/mcp$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Client-side MCP tools' }),
    ).toBeVisible();
  });
});

test.describe('booking', () => {
  test("session Book links open the site's booking page in the same tab", async ({ page }) => {
    await page.goto('/booking');
    const sessions = page.getByTestId('session-card');
    await expect(sessions).toHaveCount(3);
    const book = page.getByRole('link', { name: /^Book Now/ });
    await expect(book).toHaveCount(3);
    const hrefs = await book.evaluateAll((links) => links.map((l) => l.getAttribute('href')));
    expect(hrefs).toEqual(['/book/session-15', '/book/session-30', '/book/session-60']);
    for (const link of await book.all()) await expect(link).not.toHaveAttribute('target');
    for (const card of await sessions.all()) {
      const height = (await card.boundingBox())?.height ?? 0;
      expect(height).toBeGreaterThanOrEqual(449);
    }
    await book.nth(1).click();
    await expect(page).toHaveURL(/\/book\/session-30$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Deep Dive');
  });

  test('group training opens its booking page in the same tab', async ({ page }) => {
    await page.goto('/booking');
    const group = page.getByTestId('training-card').first().getByRole('link');
    await expect(group).not.toHaveAttribute('target');
    await group.click();
    await expect(page).toHaveURL(/\/book\/group$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Group Training');
  });

  test('the training cards show the struck-through price and the limited-time badge', async ({
    page,
  }) => {
    await page.goto('/booking');
    const cards = page.getByTestId('training-card');
    await expect(cards).toHaveCount(3);
    await expect(cards.nth(1).locator('s')).toHaveText('was $5,000');
    await expect(cards.nth(1).getByText('Limited time')).toBeVisible();
  });

  test('the tribe card goes to /tribe', async ({ page }) => {
    await page.goto('/booking');
    await page.getByRole('region', { name: 'Tribe membership' }).getByRole('link').click();
    await expect(page).toHaveURL(/\/tribe$/);
    await expect(page.getByRole('heading', { level: 1, name: 'The Tribe' })).toBeVisible();
  });
});

test.describe('tribe capacity', () => {
  test('the prerendered page shows the neutral cap, the live page the status', async ({
    page,
    request,
  }) => {
    const html = await (await request.get('/tribe')).text();
    expect(html).toContain('Limited to 50 members');
    expect(html).not.toContain('At Capacity');

    await page.route('**/api/tribe/status', (route) =>
      route.fulfill({
        json: { capacity: 50, active_members: 50, spots_left: 0, at_capacity: true },
      }),
    );
    await page.goto('/tribe');
    await expect(page.getByText('At Capacity').first()).toBeVisible();
  });

  test('a failing status keeps the neutral notice', async ({ page }) => {
    await page.route('**/api/tribe/status', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/tribe');
    await expect(page.getByRole('status').first()).toHaveText('Limited to 50 members');
  });
});

test.describe('tribe landing', () => {
  test('three steps, six things to build, the buttons three times and two social links', async ({
    page,
  }) => {
    await page.goto('/tribe');
    const main = page.getByRole('main');
    await expect(
      main.getByRole('region', { name: 'How it works' }).getByRole('heading', { level: 3 }),
    ).toHaveText(['Find your tribe', 'Meet and build together', 'Ship and iterate']);
    await expect(
      main.getByRole('region', { name: 'What you will build' }).getByRole('listitem'),
    ).toHaveCount(6);
    await expect(main.getByRole('button', { name: 'Join Wait List' })).toHaveCount(3);
    await expect(main.getByRole('button', { name: 'Login' })).toHaveCount(3);
    await expect(main.getByRole('region', { name: 'Membership' })).toContainText('$250/month');
    const social = main.getByRole('list', { name: 'Follow rUv' }).getByRole('link');
    await expect(social).toHaveText(['LinkedIn', 'GitHub']);
  });

  test('the typed text is complete at once when motion is reduced', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/tribe');
    await page.waitForLoadState('networkidle');
    const hero = page.getByRole('main').locator('section').first();
    // Nothing types: no typed copy over the text, nothing of it invisible.
    await expect(hero.locator('[data-typing]')).toHaveCount(0);
    await expect(hero.locator('[data-typed-lines], .invisible')).toHaveCount(0);
    await expect(hero.getByText('Build agentic AI with a small cohort of builders.')).toHaveCount(
      2,
    );
  });
});

test.describe('mcp page', () => {
  test('six application groups, the comparison table and a real ZIP download', async ({
    page,
    request,
  }) => {
    await page.goto('/mcp');
    const main = page.getByRole('main');
    await expect(
      main.getByRole('region', { name: 'Real-world applications' }).getByRole('heading', {
        level: 3,
      }),
    ).toHaveText([
      'E-commerce',
      'Professional tools',
      'Search',
      'Education',
      'Healthcare',
      'Business',
    ]);
    await expect(main.getByRole('table').getByRole('row')).not.toHaveCount(0);
    await expect(main.getByRole('region', { name: 'What is in the package' })).toContainText(
      'mcpLocal.ts',
    );
    await expect(main.getByRole('region', { name: 'Licence and contributing' })).toContainText(
      'MIT',
    );
    const href = await main
      .getByRole('link', { name: 'Download ZIP Package' })
      .getAttribute('href');
    expect(href).toBeTruthy();
    const zip = await request.get(href ?? '');
    expect(zip.status()).toBe(200);
    expect(zip.headers()['content-type']).toContain('zip');
  });
});

test('home opens the goal dialog with ?goal=true', async ({ page }) => {
  await page.goto('/?goal=true');
  const dialog = page.getByRole('dialog', { name: /goal --plan/ });
  await expect(dialog).toBeVisible();
  // No external widget is configured: the built-in planner, with the default goal.
  await expect(dialog.getByRole('textbox', { name: 'Your goal' })).toHaveValue(/quantum computing/);
  await expect(dialog.getByTestId('goal-widget-mount')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/$/);
});

test.describe('screenshots of the public pages', () => {
  for (const width of [375, 1440]) {
    for (const path of ['/', '/about', '/projects', '/booking', '/tribe', '/mcp']) {
      const name = path === '/' ? 'home' : path.slice(1);
      test(`${name} at ${width}px`, async ({ page }) => {
        await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.screenshot({
          path: `test-results/screenshots/public-${name}-${width}.png`,
          fullPage: true,
        });
      });
    }
  }
});
