import { expect, test } from '@playwright/test';
import { startTribe, type TribeServer } from './tribe-server';

/**
 * A tribe capped at one member (TRIBE_CAPACITY=1) once read "limited to 1 members" on /booking and
 * "All 1 places are taken" on /tribe. The server renders its pages from the content it loaded, so
 * the raw HTML a crawler reads and the page after JavaScript must both count in the singular.
 */

let server: TribeServer;

test.beforeAll(async () => {
  server = await startTribe('tribe-plurals-server.log', { DATABASE_URL: '', TRIBE_CAPACITY: '1' });
});

test.afterAll(async () => {
  await server?.stop();
});

test('a cap of one member reads in the singular, in the served HTML and on the live pages', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: server.baseURL });
  for (const [path, phrase] of [
    ['/booking', /limited to 1 member\b/],
    ['/tribe', /Limited to 1 member\b/],
    ['/', /Limited to 1 member\b/],
  ] as const) {
    // React separates text parts with empty comments; the pages are rendered just after start.
    const served = async () =>
      (await (await context.request.get(path)).text()).replaceAll('<!-- -->', '');
    await expect.poll(served, { message: `${path} as served`, timeout: 20_000 }).toMatch(phrase);
    expect(await served(), `${path} as served`).not.toMatch(
      /\b1 members\b|\b1 places\b|\b1 spots\b/,
    );
  }
  const page = await context.newPage();
  await page.goto('/tribe');
  // The live status: nobody has the one seat yet.
  await expect(page.getByText('1 spot left of 1').first()).toBeVisible();
  await expect(page.locator('body')).not.toContainText(/\b1 members\b|\b1 places\b|\b1 spots\b/);
  await page.goto('/booking');
  await expect(page.getByText('limited to 1 member', { exact: true })).toBeVisible();
  await context.close();
});
