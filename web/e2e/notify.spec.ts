import { type APIRequestContext, expect, test } from '@playwright/test';
import { account, confirmationLink, confirmedPage } from './accounts';
import { axeAtBothWidths, screenshots } from './checks';

/**
 * Notifications end to end against the real server: a subscriber's Profile shows the mail
 * settings with the browser's time zone saved and a choice changed by keyboard; two sessions
 * planned at a minute's notice send the subscriber a reminder (in the development mailbox) whose
 * one-click unsubscribe link shows a confirm page when opened signed out, changes nothing on GET,
 * and unsubscribes on the button; once both sessions have ended without the subscriber, the
 * admin's at-risk list names them with a prepared mail. At 375 and 1440 px with axe.
 * Screenshots land in test-results/notify/.
 */

const ADMIN_EMAIL = 'notify-admin@example.test';
const SHOTS = 'test-results/notify';
const shots = screenshots(SHOTS);

/** The unsubscribe link of the first reminder mailed to `email`, from the development mailbox. */
async function reminderLink(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/dev/mail');
        if (!res.ok()) return undefined;
        const { messages } = (await res.json()) as {
          messages: { to: string; subject: string; text: string }[];
        };
        const mail = messages.find(
          (m) => m.to.includes(email) && m.subject.startsWith('Reminder:'),
        );
        link = mail
          ? /https?:\/\/\S+\/api\/unsubscribe\?token=[\w.%-]+/.exec(mail.text)?.[0]
          : undefined;
        return link;
      },
      { timeout: 60_000, intervals: [1_000], message: `a reminder mailed to ${email}` },
    )
    .toBeTruthy();
  return link as string;
}

test('notification settings, a one-click unsubscribe and the at-risk list', async ({ browser }) => {
  test.setTimeout(240_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const admin = await confirmedPage(browser, ADMIN_EMAIL, { fullName: 'Nia Notify' });

  // A subscriber whose browser is in Paris.
  const email = `e2e-notify-${Date.now()}@example.test`;
  const context = await browser.newContext({ timezoneId: 'Europe/Paris' });
  await account(context, email, 'Rhea Reminded');
  const me = await (await context.request.get('/api/auth/session')).json();
  const comp = await admin.context.request.put(`/api/admin/members/${me.user.id}/complimentary`, {
    data: { until: null },
  });
  expect(comp.status()).toBe(200);

  // Profile: the settings, the browser's zone saved, a choice changed with the keyboard. Mail
  // goes to confirmed addresses only: the subscriber confirms first.
  const s = await context.newPage();
  await s.goto(await confirmationLink(context.request, email));
  await expect(s).toHaveURL(/\/members$/);

  // Two one-minute sessions at the next whole minute at least 10 s away, planned as soon as the
  // subscriber can get mail (so that the wait for them to end runs alongside the settings below):
  // reminded by the next sweep (every 2 s here, TRIBE_SWEEP_INTERVAL), which comes before they
  // start.
  const at = new Date(Math.ceil((Date.now() + 10_000) / 60_000) * 60_000);
  const ends = at.getTime() + 60_000;
  for (const n of [1, 2]) {
    const created = await admin.context.request.post('/api/admin/sessions', {
      data: {
        title: `Notify quick sync ${n} ${Date.now()}`,
        description: 'A short one.',
        tags: [],
        session_date: at.toISOString().slice(0, 10),
        session_time: at.toISOString().slice(11, 16),
        duration: '1 minute',
        timezone: 'UTC',
        zoom_join_url: 'https://meet.example/notify',
      },
    });
    expect(created.status()).toBe(201);
  }

  await s.getByRole('tab', { name: 'Profile' }).click();
  const settings = s.getByRole('region', { name: 'E-mail notifications' });
  await expect(settings.getByRole('checkbox', { name: 'Session reminders' })).toBeChecked();
  await expect(settings.getByRole('combobox', { name: 'Time zone for times in mail' })).toHaveValue(
    'Europe/Paris',
  );
  await expect
    .poll(
      async () =>
        (await (await context.request.get('/api/members/me/notifications')).json()).time_zone,
    )
    .toBe('Europe/Paris');
  const digest = settings.getByRole('checkbox', { name: 'Weekly digest' });
  await digest.focus();
  await s.keyboard.press('Space');
  await expect(digest).not.toBeChecked();
  await expect(s.getByText('Weekly digest off')).toBeVisible();
  expect(
    (await (await context.request.get('/api/members/me/notifications')).json()).weekly_digest,
  ).toBe(false);
  await shots.part(s, settings, 'settings');
  expect(await axeAtBothWidths(s, 'main')).toEqual([]);

  // The reminder's one-click link, opened signed out: a question, and nothing changes on GET.
  const link = await reminderLink(admin.context.request, email);
  const anon = await browser.newContext();
  const u = await anon.newPage();
  await u.goto(link);
  await expect(u.getByRole('heading', { name: 'Stop session reminders?' })).toBeVisible();
  await u.reload();
  expect(
    (await (await context.request.get('/api/members/me/notifications')).json()).session_reminders,
  ).toBe(true);
  await shots.part(u, u.locator('main'), 'unsubscribe-confirm');
  expect(await axeAtBothWidths(u)).toEqual([]);
  await u.getByRole('button', { name: 'Unsubscribe from session reminders' }).click();
  await expect(u.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  await expect(u.getByRole('status')).toHaveText(
    'You will no longer get session reminders by e-mail.',
  );
  expect(
    (await (await context.request.get('/api/members/me/notifications')).json()).session_reminders,
  ).toBe(false);
  await shots.part(u, u.locator('main'), 'unsubscribe-done');
  expect(await axeAtBothWidths(u)).toEqual([]);
  // A mail provider's one-click POST: no cookie, the token alone.
  const oneClick = await anon.request.post(link, {
    form: { 'List-Unsubscribe': 'One-Click' },
  });
  expect(oneClick.status()).toBe(200);
  await anon.close();

  // Both sessions end without the subscriber: the admin's at-risk list names them.
  await s.waitForTimeout(Math.max(0, ends - Date.now() + 1_000));
  const a = admin.page;
  await a.goto('/members');
  await a.getByRole('tab', { name: 'Admin' }).click();
  const risk = a.getByRole('region', { name: 'At risk' });
  const row = risk.getByRole('listitem').filter({ hasText: 'Rhea Reminded' });
  await expect(row.getByText('Missed the last 2 sessions')).toBeVisible();
  await expect(row.getByText('Apprentice')).toBeVisible();
  const write = row.getByRole('link', { name: 'Write to them: Rhea Reminded' });
  await expect(write).toHaveAttribute(
    'href',
    /^mailto:e2e-notify-\d+%40example\.test\?subject=We%20missed%20you/,
  );
  await shots.part(a, risk, 'at-risk');
  expect(await axeAtBothWidths(a, 'main')).toEqual([]);
});
