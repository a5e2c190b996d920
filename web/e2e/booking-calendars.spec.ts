import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { confirmedPage } from './accounts';
import { startTribe, type TribeServer } from './tribe-server';

/**
 * The owner's own calendar as busy time, end to end against the real binary: a calendar file is
 * served from a local server (allowed by TRIBE_CALENDAR_ALLOW_PRIVATE), with one event at the
 * first time the visitor is offered; the owner adds its address in Admin → Booking at 375 and
 * 1440 px, sees it load, and the visitor's page no longer offers that time. Screenshots land in
 * test-results/booking-calendars/.
 */

const SHOTS = 'test-results/booking-calendars';
const OWNER = 'calendar-owner@example.test';
const ZONE = 'America/Toronto';

let tribe: TribeServer;
let feedServer: Server;
let feedURL = '';
let feedBody = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//e2e//EN\r\nEND:VCALENDAR\r\n';

function icsAt(start: Date): string {
  const stamp = (d: Date) =>
    d
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
  const end = new Date(start.getTime() + 60 * 60 * 1000);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//e2e//EN',
    'BEGIN:VEVENT',
    'UID:dentist@e2e',
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(end)}`,
    'SUMMARY:Dentist',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

test.beforeAll(async () => {
  test.setTimeout(60_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  feedServer = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/calendar' });
    res.end(feedBody);
  });
  await new Promise<void>((r) => feedServer.listen(0, '127.0.0.1', () => r()));
  feedURL = `http://127.0.0.1:${(feedServer.address() as AddressInfo).port}/owner.ics`;
  tribe = await startTribe('tribe-calendars-server.log', {
    DATABASE_URL: '',
    TRIBE_ADMIN_EMAILS: OWNER,
    TRIBE_CALENDAR_ALLOW_PRIVATE: 'true',
  });
});

test.afterAll(async () => {
  await tribe?.stop();
  await new Promise<void>((r) => (feedServer ? feedServer.close(() => r()) : r()));
});

/** The first free day on /book/session-30 and the label of its first time. */
async function firstOffered(page: Page): Promise<{ date: string; label: string }> {
  await page.goto('/book/session-30');
  const day = page.getByRole('grid').locator('button[data-date]:not([aria-disabled])').first();
  await expect(day).toBeVisible({ timeout: 15_000 });
  const date = (await day.getAttribute('data-date')) ?? '';
  await day.click();
  const first = page.locator('button[aria-pressed]').first();
  await expect(first).toBeVisible();
  return { date, label: ((await first.textContent()) ?? '').trim() };
}

for (const width of [375, 1440]) {
  test(`the owner adds a calendar at ${width} px and its event's time leaves the booking page`, async ({
    browser,
  }) => {
    test.setTimeout(120_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
    const visitor = await browser.newContext({
      baseURL: tribe.baseURL,
      timezoneId: ZONE,
      viewport: { width, height: 900 },
    });
    const page = await visitor.newPage();
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const before = await firstOffered(page);
    expect(before.label).toMatch(/^\d{1,2}:\d{2} (AM|PM)/);

    // The owner's calendar gets an hour-long event at exactly that time.
    const today = new Date().toISOString().slice(0, 10);
    const to = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const slots = await (
      await visitor.request.get(
        `/api/booking/slots?type=session-30&from=${today}&to=${to}&tz=${encodeURIComponent(ZONE)}`,
      )
    ).json();
    const first: string = slots.days.find((d: { slots: string[] }) => d.slots.length > 0).slots[0];
    feedBody = icsAt(new Date(first));

    const owner = await confirmedPage(browser, OWNER, {
      fullName: 'Cal Owner',
      baseURL: tribe.baseURL,
    });
    await owner.page.setViewportSize({ width, height: 900 });
    // Axe reads colours as they are painted: a toast still fading in fails contrast on a busy machine.
    await owner.page.emulateMedia({ reducedMotion: 'reduce' });
    await owner.page.goto('/members');
    await owner.page.getByRole('tab', { name: 'Admin' }).click();
    const section = owner.page.getByRole('region', { name: 'Booking' });
    const card = section
      .locator('div')
      .filter({ has: owner.page.getByRole('heading', { name: 'Your calendars as busy time' }) })
      .last();
    await expect(card.getByText(/No calendars yet/)).toBeVisible();
    // A private address is refused at the field unless the operator allows it: here it is.
    await card.getByLabel('Calendar address (iCal)').fill(feedURL);
    await card.getByRole('button', { name: 'Add calendar' }).click();
    await expect(owner.page.getByText('Calendar added', { exact: true })).toBeVisible();
    const row = card.getByRole('list', { name: 'Your calendars' }).getByRole('listitem');
    await expect(row).toHaveCount(1);
    // The server loads the address in the background and the page looks again every 3 s.
    await expect(row).toContainText('Working', { timeout: 15_000 });
    await expect(row).toContainText('1 event');
    await card.scrollIntoViewIfNeeded();
    const results = await new AxeBuilder({ page: owner.page }).analyze();
    expect(
      results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    mkdirSync(SHOTS, { recursive: true });
    await card.screenshot({ path: `${SHOTS}/admin-calendars-${width}.png` });

    // The visitor's booking page no longer offers the time of the owner's event.
    await page.goto('/book/session-30');
    const day = page.locator(`button[data-date="${before.date}"]`);
    await expect(day).toBeVisible({ timeout: 15_000 });
    // Late in the owner's day the event can take that day's last free times: the day is then
    // offered no more, which says the same.
    if ((await day.getAttribute('aria-disabled')) === 'true') {
      await expect(day).toHaveAttribute('aria-label', /no free times/);
    } else {
      await day.click();
      await expect(page.locator('button[aria-pressed]').first()).toBeVisible();
      const labels = (await page.locator('button[aria-pressed]').allTextContents()).map((t) =>
        t.trim(),
      );
      expect(labels).not.toContain(before.label);
    }
    await page.screenshot({ path: `${SHOTS}/book-after-calendar-${width}.png`, fullPage: true });

    // Removing the calendar gives the time back.
    await row.getByRole('button', { name: /Remove calendar/ }).click();
    await owner.page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect(card.getByText(/No calendars yet/)).toBeVisible();
    const again = await firstOffered(page);
    expect(again).toEqual(before);

    await owner.context.close();
    await visitor.close();
  });
}
