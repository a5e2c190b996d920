import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { whenHydrated } from './hydration';

interface Showcase {
  path: string;
  title: string;
  heading: string;
  /** Phrases that must be in the HTML before any JavaScript runs (no HTML-escaped characters). */
  rawText: readonly string[];
  /** The badge list's accessible name and its items, in order, as the spec lists them. */
  badges: { list: string; items: readonly string[] };
  /** Sections (by heading) and how many cards (h3) each one holds. */
  cards: ReadonlyArray<readonly [section: string, count: number]>;
}

const showcases: readonly Showcase[] = [
  {
    path: '/agentic-payments',
    title: 'Agentic Payments | rUv',
    heading: 'Agentic Payments',
    rawText: [
      '31K+ downloads',
      'v2.1.8',
      'Agent Payments Protocol',
      'RFC 9421',
      '3 of 4 agents',
      'AP/AR automation',
      'npx agentic-payments mandate create',
      '--private-key ./keys/alice.ed25519',
    ],
    badges: {
      list: 'Package facts',
      items: [
        '31K+ downloads',
        'v2.1.8',
        'MIT',
        'Production Ready',
        '< 200 KB bundle',
        'TypeScript + Rust',
      ],
    },
    cards: [
      ['Four payment protocols, one library', 4],
      ['What a mandate controls', 9],
      ['Use cases', 8],
    ],
  },
  {
    path: '/ai-defence',
    title: 'AI Defence | rUv',
    heading: 'AI Defence',
    rawText: [
      'v0.1.0',
      'Node 18+',
      'Prompt injection',
      '27',
      'Command reference',
      'npx aidefence detect',
      'threshold: 0.8',
      'Security layers',
    ],
    badges: { list: 'aidefence versions and requirements', items: ['v0.1.0', 'MIT', 'Node 18+'] },
    cards: [
      ['Why AI applications need their own defence', 6],
      ['Key features', 6],
      ['Security layers', 5],
    ],
  },
  {
    path: '/aimds',
    title: 'AIMDS | rUv',
    heading: 'AIMDS',
    rawText: [
      'v2.1.1',
      'Rust 1.85+',
      'TypeScript 5.0+',
      '98.3% test coverage',
      'aimds-detection',
      'cargo add aimds-core',
      'Architecture',
    ],
    badges: {
      list: 'aimds versions and requirements',
      items: [
        'v2.1.1',
        'Dual licence MIT/Apache-2.0',
        'Rust 1.85+',
        'TypeScript 5.0+',
        '98.3% test coverage',
      ],
    },
    cards: [
      ['Features', 6],
      ['Core libraries', 4],
      ['Use cases', 6],
    ],
  },
  {
    path: '/lean-agentic',
    title: 'Lean Agentic | rUv',
    heading: 'Lean Agentic',
    rawText: ['A WebAssembly theorem prover', 'Hash-consing', 'npm install lean-agentic', '150x'],
    badges: {
      list: 'Package facts',
      items: [
        'WebAssembly',
        'Dependent types',
        '150x faster equality',
        '< 100 KB',
        '10 MCP tools',
        'Rust + TypeScript',
      ],
    },
    cards: [['Features', 8]],
  },
  {
    path: '/midstreamer',
    title: 'Midstreamer | rUv',
    heading: 'Midstreamer',
    rawText: ['Dynamic time warping', 'npm install midstreamer', 'Benchmarks', 'O(n·m)'],
    badges: {
      list: 'Package facts',
      items: [
        'WebAssembly',
        'DTW · LCS · edit distance',
        '< 100 KB per target',
        'Rust + TypeScript',
        'CLI included',
      ],
    },
    cards: [['Features', 8]],
  },
];

/** Collects console errors and page errors (hydration mismatches show up as either). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

test.describe('showcase pages', () => {
  for (const s of showcases) {
    test(`${s.path} arrives prerendered with its content`, async ({ request }) => {
      const response = await request.get(s.path);
      expect(response.status()).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<title>${s.title}</title>`);
      expect(html).toMatch(new RegExp(`<h1[^>]*>.*?${s.heading}.*?</h1>`, 's'));
      for (const text of s.rawText) expect(html, `raw HTML holds "${text}"`).toContain(text);
      expect(html).toContain('href="/projects"');
    });

    test(`${s.path} hydrates without errors and has no serious axe violations`, async ({
      page,
    }) => {
      // axe walks the whole page; give it room on a busy machine.
      test.setTimeout(60_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
      const errors = watchErrors(page);
      await page.goto(s.path);
      await expect(page).toHaveTitle(s.title);
      await expect(page.getByRole('heading', { level: 1, name: s.heading })).toBeVisible();
      await page.waitForLoadState('networkidle');

      await expect(
        page.getByRole('list', { name: s.badges.list }).getByRole('listitem'),
      ).toHaveText([...s.badges.items]);
      for (const [section, count] of s.cards) {
        await expect(
          page.getByRole('region', { name: section }).getByRole('heading', { level: 3 }),
          `${section} holds ${count} cards`,
        ).toHaveCount(count);
      }

      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious).toEqual([]);

      // External links open a new tab without a handle on this one.
      const external = page.locator('main a[href^="https://"]');
      expect(await external.count()).toBeGreaterThan(0);
      for (const link of await external.all()) {
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
      }
      expect(errors).toEqual([]);
    });
  }

  test('the way back to /projects works', async ({ page }) => {
    await page.goto('/lean-agentic');
    await page.getByRole('link', { name: 'All projects' }).click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  });
});

test.describe('tabs by keyboard', () => {
  test('ai-defence command reference starts on Detection and follows the arrow keys', async ({
    page,
  }) => {
    await page.goto('/ai-defence');
    const list = page.getByRole('tablist', { name: 'Command groups' });
    const tabs = list.getByRole('tab');
    await expect(tabs).toHaveText([
      'Detection',
      'Analysis',
      'Verification',
      'Response',
      'Monitoring',
    ]);
    const detection = list.getByRole('tab', { name: 'Detection' });
    await expect(detection).toHaveAttribute('aria-selected', 'true');
    const panel = page.getByRole('tabpanel', { name: 'Detection' });
    await expect(panel).toContainText('npx aidefence detect');

    await whenHydrated(detection);
    await detection.focus();
    await page.keyboard.press('ArrowRight');
    const analysis = list.getByRole('tab', { name: 'Analysis' });
    await expect(analysis).toBeFocused();
    await expect(analysis).toHaveAttribute('aria-selected', 'true');
    await expect(detection).toHaveAttribute('aria-selected', 'false');
    await expect(page.getByRole('tabpanel', { name: 'Analysis' })).toContainText(
      'npx aidefence analyze',
    );
    await expect(panel).toBeHidden();

    await page.keyboard.press('End');
    await expect(list.getByRole('tab', { name: 'Monitoring' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByRole('tabpanel', { name: 'Monitoring' })).toContainText('9090');

    await page.keyboard.press('Home');
    await expect(detection).toBeFocused();
    await expect(detection).toHaveAttribute('aria-selected', 'true');

    await page.keyboard.press('ArrowLeft');
    await expect(list.getByRole('tab', { name: 'Monitoring' })).toBeFocused();
  });

  test('aimds quick start starts on Rust and ArrowRight shows the TypeScript API', async ({
    page,
  }) => {
    await page.goto('/aimds');
    const list = page.getByRole('tablist', { name: 'Quick start language' });
    const rust = list.getByRole('tab', { name: 'Rust' });
    await expect(rust).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'Rust' })).toContainText(
      'cargo add aimds-core',
    );

    await whenHydrated(rust);
    await rust.focus();
    await page.keyboard.press('ArrowRight');
    const ts = list.getByRole('tab', { name: 'TypeScript API' });
    await expect(ts).toBeFocused();
    await expect(ts).toHaveAttribute('aria-selected', 'true');
    const panel = page.getByRole('tabpanel', { name: 'TypeScript API' });
    await expect(panel).toContainText('POST /api/v1/defend');
    await expect(panel).toContainText('"userAgent"');
    await expect(page.getByRole('tabpanel', { name: 'Rust' })).toBeHidden();
  });
});

test.describe('code blocks', () => {
  test('copy puts the command on the clipboard and says Copied', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/midstreamer');
    await page.waitForLoadState('networkidle');
    const button = page.getByRole('button', { name: 'Copy npm' });
    await button.click();
    await expect(page.getByRole('button', { name: 'Copied npm' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Copied to clipboard' })).toHaveCount(
      1,
    );
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe('npm install midstreamer');
    await expect(page.getByRole('button', { name: 'Copy npm' })).toBeVisible({ timeout: 5000 });
  });
});

test.describe('typed title', () => {
  test('types out on the client and ends with the full title', async ({ page }) => {
    await page.goto('/agentic-payments');
    const heading = page.getByRole('heading', { level: 1, name: 'Agentic Payments' });
    await expect(heading).toBeVisible();
    await expect(heading.locator('[data-typing]')).toHaveCount(0, { timeout: 5000 });
    await expect(heading).toHaveText(/Agentic Payments/);
  });

  test.describe('with reduced motion', () => {
    test.use({ reducedMotion: 'reduce' });
    test('shows the full title at once', async ({ page }) => {
      await page.goto('/agentic-payments');
      const heading = page.getByRole('heading', { level: 1, name: 'Agentic Payments' });
      await page.waitForLoadState('networkidle');
      await expect(heading.locator('[data-typing]')).toHaveCount(0);
      await expect(heading.locator('.invisible')).toHaveCount(0);
    });
  });
});

/** How far the page can scroll sideways (0 when nothing sticks out). */
function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

test.describe('narrow screens', () => {
  test.use({ viewport: { width: 320, height: 640 }, isMobile: true, hasTouch: true });

  for (const s of showcases) {
    test(`${s.path} fits 320 px without sideways scrolling`, async ({ page }) => {
      await page.goto(s.path);
      await expect(page.getByRole('heading', { level: 1, name: s.heading })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        320,
      );
    });
  }

  test('the command tabs stay on one row that scrolls, and the keyboard reaches the last', async ({
    page,
  }) => {
    await page.goto('/ai-defence');
    const list = page.getByRole('tablist', { name: 'Command groups' });
    await list.scrollIntoViewIfNeeded();
    const tops = await list
      .getByRole('tab')
      .evaluateAll((tabs) => tabs.map((t) => Math.round(t.getBoundingClientRect().top)));
    expect(new Set(tops).size).toBe(1);
    const detection = list.getByRole('tab', { name: 'Detection' });
    await whenHydrated(detection);
    await detection.focus();
    await page.keyboard.press('End');
    const monitoring = list.getByRole('tab', { name: 'Monitoring' });
    await expect(monitoring).toBeFocused();
    await expect(monitoring).toBeInViewport();
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });
});

test.describe('phones and wide screens', () => {
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1440, height: 900 },
  ]) {
    test(`every page fits ${viewport.width} px without sideways scrolling`, async ({ browser }) => {
      const page = await browser.newPage({ viewport });
      for (const s of showcases) {
        await page.goto(s.path);
        await expect(page.getByRole('heading', { level: 1, name: s.heading })).toBeVisible();
        expect(await sidewaysOverflow(page), s.path).toBeLessThanOrEqual(0);
      }
      await page.close();
    });
  }
});

test.describe('sticky package bar', () => {
  const cases = [
    { path: '/ai-defence', viewport: { width: 375, height: 812 }, bar: 'package-bar-row', top: 77 },
    { path: '/ai-defence', viewport: { width: 1280, height: 800 }, bar: 'package-bar', top: 85 },
    { path: '/aimds', viewport: { width: 375, height: 812 }, bar: 'package-bar-row', top: 77 },
    { path: '/aimds', viewport: { width: 1280, height: 800 }, bar: 'package-bar', top: 85 },
  ];
  for (const c of cases) {
    test(`${c.path} keeps its bar under the site header at ${c.viewport.width} px`, async ({
      browser,
    }) => {
      const page = await browser.newPage({ viewport: c.viewport, reducedMotion: 'reduce' });
      await page.goto(c.path);
      const bar = page.getByTestId(c.bar);
      await expect(bar).toBeVisible();
      await expect(bar).toContainText(c.path === '/aimds' ? 'aimds' : 'aidefence');
      await page.getByRole('heading', { level: 2, name: 'Quick start' }).scrollIntoViewIfNeeded();
      await page.mouse.wheel(0, 1500);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
      const box = await bar.boundingBox();
      expect(box?.y).toBe(c.top);
      await expect(bar).toBeInViewport();
      await page.close();
    });
  }
});

test.describe('reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  for (const s of showcases) {
    test(`${s.path} runs no animations`, async ({ page }) => {
      await page.goto(s.path);
      await expect(page.getByRole('heading', { level: 1, name: s.heading })).toBeVisible();
      await page.waitForLoadState('networkidle');
      const running = await page.evaluate(() =>
        document.getAnimations().map((a) => (a instanceof CSSAnimation ? a.animationName : a.id)),
      );
      expect(running).toEqual([]);
    });
  }
});
