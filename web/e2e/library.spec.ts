import { fileURLToPath } from 'node:url';
import { expect, type Page, test } from '@playwright/test';
import { confirmedPage, dayOffset } from './accounts';
import { axeAtBothWidths, screenshots } from './checks';

/**
 * The library end to end against the real server: the owner records yesterday's session in the
 * library on a desk (1440 px), uploading a 30-second WebM (e2e/fixtures/replay.webm) with its
 * progress shown, and adds its transcript; a subscriber on a phone (375 px) finds "Watch the
 * replay" on the past session's card, plays it, seeks from the transcript (the player's
 * currentTime moves there), pauses, leaves, and on coming back the player resumes where she
 * stopped, and J takes her 10 s back. Axe is clean on every screen. Screenshots land in test-results/library/.
 */

const shots = screenshots('test-results/library');

const ADMIN_EMAIL = 'library-admin@example.test';
const VIDEO = fileURLToPath(new URL('./fixtures/replay.webm', import.meta.url));
const TRANSCRIPT = `WEBVTT

00:00:00.000 --> 00:00:09.000
Welcome to the session on agent memory.

00:00:10.000 --> 00:00:19.000
First, what a context window holds.

00:00:20.000 --> 00:00:29.000
Then, memory that outlives a conversation.
`;

/** The player's currentTime. */
function currentTime(page: Page): Promise<number> {
  return page.locator('video').evaluate((v: HTMLVideoElement) => v.currentTime);
}

/** Waits until the player has read the file's header (so currentTime is where it will play). */
async function loaded(page: Page) {
  await expect
    .poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.readyState), {
      message: 'the player reads the recording',
    })
    .toBeGreaterThan(0);
}

test('the owner uploads a replay with its transcript; a member plays, seeks from the transcript and resumes', async ({
  browser,
}) => {
  test.setTimeout(150_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const stamp = Date.now();
  const sessionTitle = `Agent memory ${stamp}`;
  const title = `Replay: agent memory ${stamp}`;

  const owner = await confirmedPage(browser, ADMIN_EMAIL, { fullName: 'Olga Owner' });
  const o = owner.page;
  await o.setViewportSize({ width: 1440, height: 900 });
  const created = await owner.context.request.post('/api/admin/sessions', {
    data: {
      title: sessionTitle,
      description: 'How agents remember.',
      tags: ['agents'],
      session_date: dayOffset(-1),
      session_time: '17:00',
      duration: '1 hour',
      timezone: 'UTC',
      zoom_join_url: 'https://meet.example/library',
    },
  });
  expect(created.status()).toBe(201);
  const sessionDate = dayOffset(-1);

  // The owner makes the item, tied to the session, published at once.
  await o.goto('/members/library');
  await o.getByRole('button', { name: 'New item' }).click();
  const form = o.getByRole('form', { name: 'New library item' });
  await form.getByLabel('Kind').selectOption('recording');
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Session').selectOption({ label: `${sessionDate} · ${sessionTitle}` });
  await form.getByLabel('Publish now').check();
  await form.getByRole('button', { name: 'Create item' }).click();
  await expect(o).toHaveURL(/\/members\/library\/[^/?]+$/);
  const itemPath = new URL(o.url()).pathname;
  const itemId = decodeURIComponent(itemPath.split('/').pop() as string);
  await expect(o.getByRole('heading', { name: title })).toBeVisible();

  // The upload: each chunk is held back a moment, so the progress is there to be seen.
  await o.route('**/api/admin/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 1_500));
    await route.continue();
  });
  await o.getByLabel('Upload a file').setInputFiles(VIDEO);
  await o.getByRole('button', { name: 'Upload', exact: true }).click();
  const progress = o.getByRole('progressbar', { name: 'Upload progress' });
  await expect(progress).toBeVisible();
  await expect(o.getByText(/^\d+ % · .+ of 4\d(\.\d)? KB/)).toBeVisible(); // 48.5 KB
  await shots.part(o, o.getByRole('region', { name: 'Manage' }), 'owner-uploading');
  await expect(progress).toBeHidden({ timeout: 30_000 });
  await expect(o.getByText('File attached')).toBeVisible();
  await o.unroute('**/api/admin/uploads/*');
  await expect(o.getByText(/Now: video\/webm/)).toBeVisible();
  await expect(o.getByRole('button', { name: 'Upload', exact: true })).toBeDisabled();
  // The owner's player tells the server the recording's length, which it never reads itself.
  await loaded(o);
  await expect
    .poll(async () => {
      const res = await owner.context.request.get(`/api/library/${encodeURIComponent(itemId)}`);
      return (await res.json()).item.duration_s;
    })
    .toBe(30);

  // The transcript, pasted.
  await o.getByLabel('Transcript (WebVTT or SRT)').fill(TRANSCRIPT);
  await o.getByRole('button', { name: 'Save transcript' }).click();
  await expect(o.getByText('Transcript saved')).toBeVisible();
  const ownerLines = o.getByRole('region', { name: 'Transcript' }).getByRole('button');
  await expect(ownerLines).toHaveCount(3);
  expect(await axeAtBothWidths(o, '[role="tabpanel"]')).toEqual([]);
  await shots.page(o, 'owner-item');

  // A subscriber on a phone finds the replay on the past session's card.
  const email = `e2e-library-${stamp}@example.test`;
  const member = await confirmedPage(browser, email, { fullName: 'Ada Watcher' });
  const me = await (await member.context.request.get('/api/auth/session')).json();
  const comp = await owner.context.request.put(`/api/admin/members/${me.user.id}/complimentary`, {
    data: { until: null },
  });
  expect(comp.status()).toBe(200);
  const m = member.page;
  await m.setViewportSize({ width: 375, height: 812 });
  await m.goto('/members');
  await m.getByRole('button', { name: /^Archive/ }).click();
  const watch = m.getByRole('link', { name: `Watch the replay of ${sessionTitle}` });
  await expect(watch).toBeVisible();
  await shots.part(m, m.getByRole('listitem').filter({ has: watch }), 'session-card');
  await watch.click();
  await expect(m).toHaveURL(new RegExp(`${itemPath}$`));
  await expect(m.getByRole('heading', { name: title })).toBeVisible();
  await loaded(m);
  expect(await currentTime(m)).toBe(0);

  // She plays it: the recording has no sound, so it may start without a gesture of its own.
  await m.locator('video').evaluate((v: HTMLVideoElement) => v.play());
  await expect.poll(() => currentTime(m), { message: 'the recording plays' }).toBeGreaterThan(0.5);

  // She seeks from the transcript: the player moves to the line's start, and the line is current.
  const line = m.getByRole('button', { name: /0:20\s*Then, memory that outlives/ });
  await line.click();
  await expect
    .poll(async () => Math.abs((await currentTime(m)) - 20), { message: 'the player is at 0:20' })
    .toBeLessThan(1.5);
  await expect(line).toHaveAttribute('aria-current', 'true');
  await m.locator('video').evaluate((v: HTMLVideoElement) => v.pause());
  const at = await currentTime(m);
  expect(await axeAtBothWidths(m, '[role="tabpanel"]')).toEqual([]);
  await shots.page(m, 'member-item');

  // She leaves for the library; her place is saved.
  await m.getByRole('link', { name: 'Back to the library' }).click();
  await expect(m.getByRole('list', { name: 'Library items' })).toBeVisible();
  let saved = -1;
  await expect
    .poll(
      async () => {
        const res = await member.context.request.get(`/api/library/${encodeURIComponent(itemId)}`);
        saved = (await res.json()).item.progress.position_s;
        return saved;
      },
      { message: 'the position is saved' },
    )
    .toBe(Math.floor(at));
  await expect(m.getByRole('progressbar', { name: `Progress in ${title}` })).toHaveAttribute(
    'aria-valuenow',
    String(Math.round((saved / 30) * 100)),
  );
  // The library filters by the session, and says so in the address.
  await m.getByLabel('Session').selectOption({ label: `${sessionDate} · ${sessionTitle}` });
  await expect(m).toHaveURL(/\/members\/library\?session=/);
  await expect(m.getByRole('link', { name: title })).toBeVisible();
  expect(await axeAtBothWidths(m, '[role="tabpanel"]')).toEqual([]);
  await shots.page(m, 'member-library');

  // She comes back on another visit: the player starts where she stopped.
  await m.goto('/members');
  await m.goto(itemPath);
  await loaded(m);
  await expect
    .poll(() => currentTime(m), { message: 'the player resumes at the saved position' })
    .toBe(saved);
  await expect(
    m.getByRole('button', { name: /0:20\s*Then, memory that outlives/ }),
  ).toHaveAttribute('aria-current', 'true');

  // The player's keys: J goes 10 s back.
  await m.locator('video').focus();
  await m.keyboard.press('j');
  await expect.poll(() => currentTime(m), { message: 'J goes 10 s back' }).toBe(saved - 10);

  await owner.context.close();
  await member.context.close();
});
