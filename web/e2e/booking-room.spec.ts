import { type APIRequestContext, expect, test } from '@playwright/test';
import { confirmedPage } from './accounts';
import { screenshots, seriousViolations } from './checks';

/**
 * A room for every call, against the real binary: the owner, warned that no room address is set,
 * saves a template with {room} in Admin → Booking (a refused one shows why at the field); a call
 * booked to start within 15 minutes shows "Join the call" to its token holder with its own room,
 * and one days ahead says when the link appears. Screenshots at 375 and 1440 px land in
 * test-results/booking-room/.
 */

const SHOTS = 'test-results/booking-room';
const shots = screenshots(SHOTS);
const OWNER = 'room-admin@example.test';
const ROOM = /^https:\/\/meet\.jit\.si\/ruv-[a-z2-7]{26}$/;

/** Today and tomorrow on the owner's clock (the content's zone). */
function ownerDates(zone: string): string[] {
  const day = (ms: number) => new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(ms);
  return [day(Date.now()), day(Date.now() + 86_400_000)];
}

/** Books session-30 at start as a visitor (payments off: a request); returns id and token. */
async function request(api: APIRequestContext, start: string, email: string) {
  const res = await api.post('/api/bookings', {
    data: {
      type: 'session-30',
      start,
      name: 'Ada Lovelace',
      email,
      notes: '',
      time_zone: 'Europe/Paris',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { booking: { id: string }; token: string };
  return { id: body.booking.id, token: body.token };
}

async function slots(api: APIRequestContext, from: string, to: string): Promise<string[]> {
  const res = await api.get(`/api/booking/slots?type=session-30&from=${from}&to=${to}&tz=UTC`);
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { days: { slots: string[] }[] };
  return body.days.flatMap((d) => d.slots);
}

test('the owner sets a room template; a call shows its own room inside the join window only', async ({
  browser,
}) => {
  test.setTimeout(120_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const owner = await confirmedPage(browser, OWNER, { fullName: 'Reuven Owner' });
  const api = owner.context.request;
  const before = await (await api.get('/api/admin/booking/settings')).json();
  before.settings.meeting_link = '';
  expect((await api.put('/api/admin/booking/settings', { data: before.settings })).status()).toBe(
    200,
  );

  await owner.page.setViewportSize({ width: 375, height: 900 });
  await owner.page.goto('/members');
  await owner.page.getByRole('tab', { name: 'Admin' }).click();
  const section = owner.page.getByRole('region', { name: 'Booking' });
  const warning = section.getByRole('alert').filter({ hasText: 'No room address is set' });
  await expect(warning).toBeVisible();
  await shots.part(owner.page, warning, 'admin-room-warning');

  const field = section.getByLabel('Room address');
  await warning.getByRole('button', { name: 'Set the room address' }).click();
  await expect(field).toBeFocused();
  await field.fill('http://meet.jit.si/ruv-{room}');
  await section.getByRole('button', { name: 'Save booking settings' }).click();
  await expect(field).toHaveAccessibleDescription(/must start with https:\/\//);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await shots.part(owner.page, section.locator('#booking-room'), 'admin-room-refused');
  await field.fill('https://meet.jit.si/ruv-{room}');
  await section.getByRole('button', { name: 'Save booking settings' }).click();
  await expect(owner.page.getByText('Booking settings saved')).toBeVisible();
  await expect(warning).toHaveCount(0);
  // axe reads a toast caught in its fade as low contrast: look once it has gone.
  await expect(owner.page.getByText('Booking settings saved')).toBeHidden({ timeout: 15_000 });
  expect(await seriousViolations(owner.page)).toEqual([]);
  await shots.part(owner.page, section.locator('#booking-room'), 'admin-room-saved');

  // Open the owner's whole day today and tomorrow with no notice, so a call can start at once.
  const st = (await (await api.get('/api/admin/booking/settings')).json()).settings;
  expect(st.meeting_link).toBe('https://meet.jit.si/ruv-{room}');
  st.minimum_notice_minutes = 0;
  st.overrides = ownerDates(st.time_zone).map((date) => ({
    date,
    hours: [{ start: '00:00', end: '24:00' }],
  }));
  expect((await api.put('/api/admin/booking/settings', { data: st })).status()).toBe(200);

  const visitor = await browser.newContext({ timezoneId: 'Europe/Paris' });
  const today = new Date().toISOString().slice(0, 10);
  const soon =
    (
      await slots(
        visitor.request,
        today,
        new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10),
      )
    )[0] ?? '';
  expect(Date.parse(soon) - Date.now()).toBeLessThanOrEqual(15 * 60_000);
  const now = await request(visitor.request, soon, `room-now-${Date.now()}@example.test`);
  const later3 = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const laterEmail = `room-later-${Date.now()}@example.test`;
  const later = await request(
    visitor.request,
    (
      await slots(
        visitor.request,
        later3,
        new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10),
      )
    )[0] ?? '',
    laterEmail,
  );
  for (const b of [now, later]) {
    const res = await api.post(`/api/admin/bookings/${b.id}/confirm`);
    expect(res.status(), await res.text()).toBe(200);
  }

  const page = await visitor.newPage();
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.goto(`/bookings/${now.id}?token=${now.token}`);
  await expect(page.getByRole('status')).toContainText('Confirmed');
  const join = page.getByRole('link', { name: /Join the call/ });
  await expect(join).toBeVisible();
  const room = (await join.getAttribute('href')) ?? '';
  expect(room).toMatch(ROOM);
  await expect(page.getByText(/Join the call with the button below/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await shots.page(page, 'manage-room-open');

  await page.goto(`/bookings/${later.id}?token=${later.token}`);
  await expect(page.getByRole('status')).toContainText('Confirmed');
  await expect(
    page.getByText(/it also appears here at .+, 15 minutes before the start/),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: /Join the call/ })).toHaveCount(0);
  await shots.page(page, 'manage-room-later');

  // Without the token the page opens nothing; the owner's view has the room.
  await page.goto(`/bookings/${now.id}?token=not-the-token`);
  await expect(page.getByRole('heading', { level: 1, name: 'Booking not found' })).toBeVisible();
  const adminView = await (await api.get(`/api/admin/bookings/${later.id}`)).json();
  expect(adminView.booking.meeting_link).toMatch(ROOM);
  expect(adminView.booking.meeting_link).not.toBe(room);

  // The owner's details of the booking name its room.
  await owner.page.reload();
  await owner.page.getByRole('tab', { name: 'Admin' }).click();
  const row = section
    .getByRole('article', { name: /Ada Lovelace, Deep Dive/ })
    .filter({ hasText: laterEmail });
  await row.getByRole('button', { name: 'Details' }).click();
  await expect(row.getByRole('link', { name: adminView.booking.meeting_link })).toBeVisible();
  await shots.part(owner.page, row, 'admin-booking-room');

  await visitor.close();
  await owner.context.close();
});
