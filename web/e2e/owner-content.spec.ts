/**
 * A site owner's own content (TRIBE_CONTENT_DIR): the server renders its pages again from it, so
 * the HTML carries the owner's prices, names and links before any script runs, and the browser
 * hydrates that HTML (keeping its nodes) without a mismatch.
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { whenHydrated } from './hydration';
import { startTribe, type TribeServer } from './tribe-server';

const contentDir = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'content');

/**
 * The owner's edits of services.json: a price raised, a session renamed, and another paused (no
 * longer booked on the site, its link removed; its member price and package go with it).
 */
const edits: ReadonlyArray<[string, string]> = [
  ['"name": "Quick Consultation"', '"name": "Rapid Review"'],
  ['"price": 149,', '"price": 177,'],
  [
    '"booking": "native",\n      "features": [\n        "End-to-end design',
    '"booking_link": "",\n      "features": [\n        "End-to-end design',
  ],
  // A session no longer booked here has no member price and no package (the server refuses to
  // start on them, naming the field).
  ['"member_price": 449,\n', ''],
  ['"type": "session-60",', '"type": "session-30",'],
];

let server: TribeServer;
let ownerDir = '';

test.beforeAll(async () => {
  ownerDir = await mkdtemp(join(tmpdir(), 'tribe-owner-content-'));
  await cp(contentDir, ownerDir, { recursive: true });
  const file = join(ownerDir, 'services.json');
  let text = await readFile(file, 'utf8');
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`services.json has no ${from} to edit`);
    text = text.replace(from, to);
  }
  await writeFile(file, text);
  server = await startTribe('owner-content-server.log', { TRIBE_CONTENT_DIR: ownerDir });
});

test.afterAll(async () => {
  await server?.stop();
  await rm(ownerDir, { recursive: true, force: true });
});

/** Collects what would show a failed hydration: uncaught errors and React's error reports. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && /hydrat|react|#41[89]|#42[35]/i.test(message.text())) {
      errors.push(`console: ${message.text()}`);
    }
  });
  return errors;
}

/**
 * Opens `path` with the app's script held back, marks `selector`'s element in the server's HTML,
 * then lets the script run and waits for hydration of `hydrated`. Returns whether the marked node
 * is still the one in the document: hydration keeps the server's nodes, rendering afresh (which a
 * mismatch falls back to) replaces them.
 */
async function hydratesKeepingNodes(page: Page, path: string, selector: string, hydrated: string) {
  let release: () => void = () => {};
  const held = new Promise<void>((resolveHeld) => {
    release = resolveHeld;
  });
  await page.route('**/assets/index-*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${server.baseURL}${path}`, { waitUntil: 'commit' });
  const marked = page.locator(selector).first();
  await expect(marked).toBeAttached();
  await marked.evaluate((node) => {
    (node as unknown as { tribeMark: boolean }).tribeMark = true;
  });
  release();
  await whenHydrated(page.locator(hydrated).first());
  return marked.evaluate((node) => (node as unknown as { tribeMark?: boolean }).tribeMark === true);
}

test.describe("the owner's content", () => {
  test('the raw HTML of /booking and / carries the new price and name, and no removed link', async ({
    request,
  }) => {
    for (const path of ['/booking', '/']) {
      const html = await (await request.get(`${server.baseURL}${path}`)).text();
      expect(html, path).toContain('$177');
      expect(html, path).toContain('Rapid Review');
      expect(html, path).not.toContain('$149');
      expect(html, path).not.toContain('Quick Consultation');
      expect(html, path).not.toContain('href="/book/session-60"');
      expect(html, path).toMatch(
        /<script id="tribe-content" type="application\/json" data-rendered>/,
      );
    }
    const booking = await (await request.get(`${server.baseURL}/booking`)).text();
    expect(booking).toMatch(
      /<button type="button" disabled="" [^>]*aria-label="Book Now: 60-minute Strategy Session">/,
    );
  });

  test('/booking hydrates the rendered HTML without a mismatch', async ({ page }) => {
    const errors = watchErrors(page);
    const kept = await hydratesKeepingNodes(
      page,
      '/booking',
      '[data-testid="session-card"] h3',
      '[data-testid="session-card"] a',
    );
    expect(errors).toEqual([]);
    expect(kept).toBe(true);
    const first = page.getByTestId('session-card').first();
    await expect(first).toContainText('Rapid Review');
    await expect(first).toContainText('$177');
    const paused = page.getByRole('button', { name: 'Book Now: 60-minute Strategy Session' });
    await expect(paused).toBeDisabled();
  });

  test('Home hydrates the rendered HTML without a mismatch', async ({ page }) => {
    const errors = watchErrors(page);
    const kept = await hydratesKeepingNodes(
      page,
      '/',
      '[data-slot="console"]',
      '[data-slot="console"] input',
    );
    expect(errors).toEqual([]);
    expect(kept).toBe(true);
    await expect(page.locator('body')).toContainText('$177');
    await expect(page.locator('body')).not.toContainText('$149');
  });
});
