import { expect, test } from '@playwright/test';
import { account, confirmationLink, confirmedPage, dayOffset } from './accounts';
import { axeAtBothWidths, screenshots } from './checks';

/**
 * The notification centre end to end against the real server: a member with the members area
 * open sees the bell's count rise without a reload when they reach a level (three sessions
 * attended and a contribution the admin records; the next sweep, every 2 s here, notifies), opens
 * the list, follows nothing, marks all read; Profile offers push on this device and the channel of
 * each kind. The manifest, its icons and the service worker are served and valid, and Chromium
 * finds the site installable. At 375 and 1440 px with axe. Screenshots land in test-results/inbox/.
 */

const ADMIN_EMAIL = 'inbox-admin@example.test';
const shots = screenshots('test-results/inbox');

test('the bell rises live, the list, mark all read, and the choices in Profile', async ({
  browser,
}) => {
  test.setTimeout(120_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const admin = await confirmedPage(browser, ADMIN_EMAIL, { fullName: 'Ines Inbox' });

  const email = `e2e-inbox-${Date.now()}@example.test`;
  const context = await browser.newContext();
  await account(context, email, 'Lev Level');
  const me = await (await context.request.get('/api/auth/session')).json();
  const page = await context.newPage();
  await page.goto(await confirmationLink(context.request, email));
  await expect(page).toHaveURL(/\/members$/);

  const bell = page.getByRole('button', { name: /^Notifications/ });
  await expect(bell).toHaveAccessibleName('Notifications');
  await bell.click();
  const dialog = page.getByRole('dialog', { name: 'Notifications' });
  await expect(dialog.getByText(/Nothing yet/)).toBeVisible();
  expect(await axeAtBothWidths(page, '[role="dialog"]')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Three sessions yesterday, attended, and a contribution: the member reaches Contributor.
  for (const n of [1, 2, 3]) {
    const created = await admin.context.request.post('/api/admin/sessions', {
      data: {
        title: `Inbox session ${n} ${Date.now()}`,
        description: 'Earlier.',
        tags: [],
        session_date: dayOffset(-1),
        session_time: `0${n + 6}:00`,
        duration: '1 hour',
        timezone: 'UTC',
        zoom_join_url: 'https://meet.example/inbox',
      },
    });
    expect(created.status()).toBe(201);
    const { session } = await created.json();
    const marked = await admin.context.request.put(`/api/admin/sessions/${session.id}/attendance`, {
      data: { user_id: me.user.id, present: true },
    });
    expect(marked.status()).toBe(200);
  }
  const award = await admin.context.request.post('/api/admin/awards', {
    data: { user_id: me.user.id, kind: 'contribution', note: 'Answered three questions.' },
  });
  expect(award.status()).toBe(201);

  // No reload: the live update raises the count.
  await expect(bell).toHaveAccessibleName('Notifications 1 unread', { timeout: 20_000 });
  await expect(page.getByTestId('unread-count')).toHaveText('1');
  expect(await axeAtBothWidths(page)).toEqual([]);
  await shots.page(page, 'members-bell', false);

  await bell.click();
  await expect(dialog).toBeVisible();
  const entry = dialog.getByRole('link', { name: /You reached Contributor!/ });
  await expect(entry).toBeVisible();
  await expect(entry).toHaveAttribute('href', '/members');
  expect(await axeAtBothWidths(page, '[role="dialog"]')).toEqual([]);
  await shots.page(page, 'notifications-list', false);
  await dialog.getByRole('button', { name: 'Mark all read' }).click();
  await expect(dialog.getByText('All caught up.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(bell).toBeFocused();

  // Profile: push on this device (the browser's prompt only after the press) and the channels.
  await page.getByRole('tab', { name: 'Profile' }).click();
  const choices = page.getByRole('region', { name: 'Notifications in the app' });
  await expect(
    choices.getByRole('button', { name: 'Turn on notifications on this device' }),
  ).toBeVisible();
  const reactions = choices.getByRole('combobox', { name: 'Reactions to my posts' });
  await expect(reactions).toHaveValue('app');
  await reactions.selectOption('push');
  await expect
    .poll(async () => {
      const prefs = await (await context.request.get('/api/members/me/notifications')).json();
      return prefs.channels.reaction;
    })
    .toBe('push');
  await expect(
    choices.getByRole('combobox', { name: 'Level reached' }).locator('option'),
  ).toHaveText(['In the app only', 'In the app and on my devices']);
  expect(await axeAtBothWidths(page)).toEqual([]);
  await shots.part(page, choices, 'profile-channels');

  await admin.context.close();
  await context.close();
});

test('the site is installable: manifest, icons and service worker', async ({ browser }) => {
  const context = await browser.newContext();
  const manifest = await context.request.get('/manifest.webmanifest');
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()['content-type']).toBe('application/manifest+json');
  const m = await manifest.json();
  expect(m).toMatchObject({
    start_url: '/members',
    display: 'standalone',
    name: expect.any(String),
  });
  const sizes = new Set<string>();
  for (const icon of m.icons as { src: string; sizes: string; type: string }[]) {
    const res = await context.request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()['content-type']).toBe('image/png');
    sizes.add(icon.sizes);
  }
  expect([...sizes].sort()).toEqual(['192x192', '512x512']);

  const sw = await context.request.get('/sw.js');
  expect(sw.status()).toBe(200);
  expect(sw.headers()['content-type']).toMatch(/^text\/javascript/);
  expect(sw.headers()['cache-control']).toBe('no-cache');
  const source = await sw.text();
  expect(source).toContain("addEventListener('push'");
  expect(source).toContain("addEventListener('notificationclick'");

  // The public home page links the manifest but loads no service worker code.
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
    'href',
    '/manifest.webmanifest',
  );
  expect(
    await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length)),
  ).toBe(0);

  // Signed in, the members area registers /sw.js after load; Chromium's own installability check
  // (what Lighthouse reads) finds nothing missing.
  await account(context, `e2e-install-${Date.now()}@example.test`, 'Ida Install');
  await page.goto('/members');
  await expect(page.getByRole('button', { name: /^Notifications/ })).toBeVisible();
  const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
  expect(new URL(scope).pathname).toBe('/');
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  // Playwright's contexts are incognito, where Chromium never offers to install; nothing else.
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual(
    [],
  );
  await context.close();
});
