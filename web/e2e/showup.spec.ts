import { expect, test } from '@playwright/test';
import { account, confirmedPage } from './accounts';
import { axeAtBothWidths, screenshots } from './checks';

/**
 * The show-up loop end to end against the real server: an admin makes a member complimentary (a
 * subscriber) and plans a session starting in a few minutes; the subscriber answers "Going" (the
 * admin's open tab sees the count change live), joins through the site (the meeting opens and
 * the attendance counts: "Sessions Attended: 1"), and sees the real progress in the level dialog;
 * the admin reads the attendance sheet. At 375 and 1440 px, with axe on the new screens.
 * Screenshots land in test-results/showup/.
 */

const ADMIN_EMAIL = 'showup-admin@example.test';
const SHOTS = 'test-results/showup';
const shots = screenshots(SHOTS);

/** A session date and time (UTC) `minutes` from now, rounded up to the next whole minute. */
function startingIn(minutes: number): { date: string; time: string } {
  const at = new Date(Math.ceil((Date.now() + minutes * 60_000) / 60_000) * 60_000);
  const iso = at.toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

test('a subscriber RSVPs, joins through the site and sees the attendance counted', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const title = `Show-up live build ${Date.now()}`;
  // The meeting the session links to: a page of the site itself, so the browser reaches it offline
  // (a routed URL would not be: Playwright routes only the first request of a redirect chain).
  const MEETING = `${baseURL}/tribe?meeting=e2e`;

  // The admin, on the dashboard (an open tab that should see the count change).
  const admin = await confirmedPage(browser, ADMIN_EMAIL, { fullName: 'Sam Showup' });
  const a = admin.page;
  if (!admin.confirmedNow) await a.goto('/members');

  // A subscriber: an account made complimentary by the admin.
  const email = `e2e-showup-${Date.now()}@example.test`;
  const context = await browser.newContext();
  await account(context, email, 'Sia Subscriber');
  const me = await (await context.request.get('/api/auth/session')).json();
  const comp = await admin.context.request.put(`/api/admin/members/${me.user.id}/complimentary`, {
    data: { until: null },
  });
  expect(comp.status()).toBe(200);

  // A session that starts within the join window (15 minutes before the start).
  const when = startingIn(5);
  const created = await admin.context.request.post('/api/admin/sessions', {
    data: {
      title,
      description: 'Building an agent live.',
      tags: ['agents'],
      session_date: when.date,
      session_time: when.time,
      duration: '1 hour',
      timezone: 'UTC',
      zoom_meeting_id: '111 222 333',
      zoom_password: 'e2e',
      zoom_join_url: MEETING,
    },
  });
  expect(created.status()).toBe(201);
  const sessionId = (await created.json()).session.id as string;

  const s = await context.newPage();
  await s.goto('/members');
  await expect(s.getByText('Complimentary', { exact: true })).toBeVisible();
  const membership = s.getByRole('region', { name: 'Your membership' });
  await expect(membership.getByText('Sessions Attended')).toBeVisible();
  await expect(membership).toContainText(/Sessions Attended\s*0/);
  await expect(membership.getByRole('button', { name: /Apprentice/ })).toBeVisible();

  // RSVP: the control says which answer is chosen; the admin's tab follows live.
  const card = s.getByRole('listitem').filter({ hasText: title });
  const adminCard = a.getByRole('listitem').filter({ hasText: title });
  await expect(adminCard.getByText('Nobody has said they are going yet')).toBeVisible();
  const going = card.getByRole('button', { name: 'Going' });
  await expect(going).toHaveAttribute('aria-pressed', 'false');
  await going.focus();
  await s.keyboard.press('Enter');
  await expect(going).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByText('1 going')).toBeVisible();
  await expect(adminCard.getByText('1 going')).toBeVisible();
  await shots.part(s, card, 'session-card-rsvp');

  // Join: the meeting opens in a new tab through the site, and the attendance counts.
  const [meeting] = await Promise.all([
    context.waitForEvent('page'),
    card.getByRole('link', { name: /Join Session/ }).click(),
  ]);
  await meeting.waitForLoadState();
  expect(meeting.url()).toBe(MEETING);
  await meeting.close();
  await s.bringToFront();
  await expect(membership).toContainText(/Sessions Attended\s*1/);

  // The level dialog shows the real progress, by keyboard.
  await membership.getByRole('button', { name: /Apprentice/ }).focus();
  await s.keyboard.press('Enter');
  const levels = s.getByRole('dialog', { name: 'Tribal progression' });
  const towards = levels.getByRole('list', { name: 'Towards Contributor' });
  await expect(towards.getByText('Sessions 1 / 3')).toBeVisible();
  await expect(towards.getByText('Contributions 0 / 1')).toBeVisible();
  await expect(levels.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '17');
  await expect(levels.getByText('Next Milestone')).toBeVisible();
  await expect(levels.getByRole('button', { name: /Suggest a contribution/ })).toBeVisible();
  await shots.part(s, levels, 'level-dialog');
  expect(await axeAtBothWidths(s, '[role="dialog"]')).toEqual([]);
  await s.keyboard.press('Escape');
  await expect(levels).toBeHidden();
  expect(await axeAtBothWidths(s)).toEqual([]);

  // The admin's attendance sheet lists the subscriber: RSVP'd and joined.
  await a.bringToFront();
  await a.setViewportSize({ width: 1440, height: 900 });
  await a.getByRole('tab', { name: /Admin/ }).click();
  const adminRow = a.getByRole('listitem').filter({ hasText: title });
  await adminRow.getByRole('button', { name: 'Attendance' }).click();
  const sheet = a.getByRole('dialog', { name: `Attendance: ${title}` });
  await expect(sheet.getByText('Sia Subscriber')).toBeVisible();
  await expect(sheet.getByRole('cell', { name: 'Going', exact: true })).toBeVisible();
  await expect(sheet).toContainText('1 going · 1 present');
  await expect(sheet.getByRole('link', { name: /Download CSV/ })).toHaveAttribute(
    'href',
    `/api/admin/sessions/${sessionId}/attendance?format=csv`,
  );
  const csv = await admin.context.request.get(
    `/api/admin/sessions/${sessionId}/attendance?format=csv`,
  );
  expect(csv.headers()['content-type']).toContain('text/csv');
  expect(await csv.text()).toContain(`Sia Subscriber,${email},going,`);
  await shots.part(a, sheet, 'attendance-sheet');
  expect(await axeAtBothWidths(a, '[role="dialog"]')).toEqual([]);
  await a.keyboard.press('Escape');
  await expect(a.getByRole('region', { name: 'Awards' })).toBeVisible();
  await shots.part(a, a.getByRole('region', { name: 'Awards' }), 'admin-awards');

  await context.close();
  await admin.context.close();
});
