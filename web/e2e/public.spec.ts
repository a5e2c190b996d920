import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

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
  '/projects': ['Claude-Flow', 'Package showcases', 'Client-side MCP tools'],
  '/booking': ['$149', '$299', '$499', '$3,000', '$5,000', '$50,000', 'Frequently asked questions'],
  '/tribe': ['What you will build', '$250', 'Limited to 50 members'],
  '/mcp': ['Real-world applications', 'Healthcare', 'Licence and contributing'],
};

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

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
    for (const path of ['/', '/about', '/projects', '/booking', '/tribe', '/mcp']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, path).toBeLessThanOrEqual(320);
    }
  });
});

test.describe('booking', () => {
  test('every Book link opens the scheduling page in a new tab', async ({ page }) => {
    await page.goto('/booking');
    const sessions = page.getByTestId('session-card');
    await expect(sessions).toHaveCount(3);
    const book = page.getByRole('link', { name: /^Book Now/ });
    await expect(book).toHaveCount(3);
    for (const link of await book.all()) {
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
      await expect(link).toHaveAttribute('href', /^https:\/\//);
    }
    for (const card of await sessions.all()) {
      const height = (await card.boundingBox())?.height ?? 0;
      expect(height).toBeGreaterThanOrEqual(449);
    }
    // The scheduling site is not reachable offline; the new tab itself is what is tested.
    await page
      .context()
      .route('https://cal.com/**', (route) => route.fulfill({ body: 'scheduling page' }));
    const [popup] = await Promise.all([page.waitForEvent('popup'), book.nth(1).click()]);
    await expect(popup).toHaveURL('https://cal.com/ruv/30min');
    await popup.close();
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

test('home opens the goal dialog with ?goal=true', async ({ page }) => {
  await page.goto('/?goal=true');
  const dialog = page.getByRole('dialog', { name: /goal --plan/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('goal-widget-mount')).toBeEmpty();
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
