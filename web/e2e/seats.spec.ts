import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { confirmedPage, dayOffset } from './accounts';
import { screenshots, seriousViolations } from './checks';

/**
 * Group trainings sold by the seat and the enterprise inquiry, end to end against the real
 * binary with payments off (the `make run` default), at 375 and 1440 px: the owner schedules a
 * date in Admin → Booking, a visitor takes a seat of it from the /booking card, the owner sees
 * the attendee and writes to every attendee; a team sends the enterprise inquiry from the
 * /booking card and the owner sees it and records a status and a note. Screenshots land in
 * test-results/seats/.
 */

const SHOTS = 'test-results/seats';
const shots = screenshots(SHOTS);
const OWNER = 'seats-admin@example.test';
const VISITOR_ZONE = 'Europe/Paris';

test.describe('group training seats and enterprise inquiries', () => {
  test.describe.configure({ mode: 'serial' });

  for (const [i, width] of [375, 1440].entries()) {
    test(`the owner schedules a date and a visitor takes a seat at ${width} px`, async ({
      browser,
    }) => {
      test.setTimeout(120_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
      const owner = await confirmedPage(browser, OWNER, { fullName: 'Reuven Owner' });
      await owner.page.setViewportSize({ width, height: 900 });
      await owner.page.goto('/members');
      await owner.page.getByRole('tab', { name: 'Admin' }).click();
      const section = owner.page.getByRole('region', { name: 'Booking' });
      const schedule = section.getByRole('form', { name: 'Schedule a date of Group Training' });
      const date = dayOffset(20 + i);
      await schedule.getByLabel('Date').fill(date);
      await schedule.getByLabel('Start').fill('18:00');
      await schedule.getByLabel('Seats').fill('3');
      await schedule.getByRole('button', { name: 'Schedule date' }).click();
      await expect(owner.page.getByText('Date scheduled')).toBeVisible();
      // The owner's row of this date: "Month D, YYYY at 6:00 PM" on their clock.
      const day = new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
        month: 'long',
        day: 'numeric',
        year: 'numeric',
        timeZone: 'UTC',
      });
      const row = section.getByRole('listitem').filter({
        hasText: `${day} at 6:00 PM`,
        has: owner.page.getByRole('button', { name: 'Attendees' }),
      });
      await expect(row).toContainText('0 of 3 seats taken');

      // The visitor: from the /booking card to the date, with seats left, and one seat.
      const context = await browser.newContext({
        timezoneId: VISITOR_ZONE,
        viewport: { width, height: 900 },
      });
      const page = await context.newPage();
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto('/booking');
      await page.getByRole('link', { name: 'Join a Group Session' }).click();
      await expect(page).toHaveURL(/\/book\/group$/);
      await expect(page).toHaveTitle('Book a seat in Neural Trader group training | rUv');
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Group Training');
      const dates = page.getByRole('group', { name: 'Upcoming dates' });
      // Each run schedules a later date than the one before: this run's is the last.
      const seat = dates.getByRole('radio').last();
      await expect(seat).toBeEnabled({ timeout: 15_000 });
      await expect(dates).toContainText('3 seats left');
      await seat.focus();
      await page.keyboard.press('Space');
      await expect(page.getByRole('heading', { name: 'Your details' })).toBeVisible();
      const email = `seat-${width}-${Date.now()}@example.test`;
      await page.getByLabel('Full name').fill('Grace Hopper');
      await page.getByLabel('E-mail').fill(email);
      await expect(
        page.getByText(/payment \(\$500\) is arranged after confirmation/),
      ).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
      await shots.now(page, 'book-group');
      await page.getByRole('button', { name: 'Request a seat' }).click();
      await expect(page).toHaveURL(/\/bookings\/[^/?]+\?token=[\w-]+$/);
      await expect(page.getByRole('status')).toContainText('Request sent');
      await expect(page.getByText(/A seat keeps its date/)).toBeVisible();
      await expect(page.getByRole('button', { name: 'Reschedule' })).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
      await shots.now(page, 'seat-requested');

      // The owner sees the attendee and writes to everyone on the date.
      await owner.page.reload();
      await owner.page.getByRole('tab', { name: 'Admin' }).click();
      const taken = row;
      await expect(taken).toContainText('1 of 3 seats taken');
      await taken.getByRole('button', { name: 'Attendees' }).click();
      await expect(taken.getByRole('table', { name: 'Attendees' })).toContainText(email);
      await taken.getByRole('button', { name: 'Message all' }).click();
      const message = taken.getByRole('form', { name: 'Message every attendee' });
      await message.getByLabel('Subject').fill('Bring your laptop');
      await message.getByLabel('Message').fill('Install Node 22 before we start.');
      await message.getByRole('button', { name: 'Send to all attendees' }).click();
      await expect(owner.page.getByText('Sent to 1 attendee.')).toBeVisible();

      // Fewer seats than are taken is refused at the field; more are saved on the row.
      await taken.getByRole('button', { name: 'Seats', exact: true }).click();
      const seats = taken.getByRole('form', { name: 'Change the seats of this date' });
      await expect(seats.getByText('1 seat taken.')).toBeVisible();
      await seats.getByLabel('Seats').fill('0');
      await seats.getByRole('button', { name: 'Save seats' }).click();
      await expect(seats.getByLabel('Seats')).toHaveAttribute('aria-invalid', 'true');
      await seats.getByLabel('Seats').fill('8');
      await seats.getByRole('button', { name: 'Save seats' }).click();
      await expect(taken).toContainText('1 of 8 seats taken');
      await expect(seats).toHaveCount(0);

      // The owner moves the date an hour later: the seat goes with it, and the attendee is told.
      await taken.getByRole('button', { name: 'Move', exact: true }).click();
      const move = taken.getByRole('form', { name: 'Move this date' });
      await expect(move.getByLabel('New start')).toHaveValue('18:00');
      await expect(move.getByText('1 attendee will get the new time by e-mail.')).toBeVisible();
      await move.getByLabel('New start').fill('19:00');
      await move.getByRole('button', { name: 'Move date' }).click();
      const later = section.getByRole('listitem').filter({
        hasText: `${day} at 7:00 PM`,
        has: owner.page.getByRole('button', { name: 'Attendees' }),
      });
      await expect(later).toContainText('1 of 8 seats taken');
      await expect
        .poll(
          async () => {
            const res = await owner.context.request.get('/api/dev/mail');
            const { messages } = (await res.json()) as {
              messages: { to: string; subject: string }[];
            };
            return messages.some((m) => m.to.includes(email) && m.subject.startsWith('New date:'));
          },
          { timeout: 15_000, message: `the new date mailed to ${email}` },
        )
        .toBe(true);
      expect(await seriousViolations(owner.page)).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await later.getByRole('button', { name: 'Move', exact: true }).click();
      await section
        .getByText(/Group Training: dates and seats/)
        .locator('xpath=ancestor::*[contains(@class,"rounded")][1]')
        .screenshot({ path: `${SHOTS}/admin-group-${width}.png` });

      await owner.context.close();
      await context.close();
    });

    test(`a team sends the enterprise inquiry and the owner follows it up at ${width} px`, async ({
      browser,
    }) => {
      test.setTimeout(90_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto('/booking');
      const open = page.getByRole('button', { name: 'Contact for Enterprise' });
      await open.click();
      await expect(open).toHaveAttribute('aria-expanded', 'true');
      const form = page.getByRole('form', { name: 'Enterprise Package inquiry' });
      await expect(
        page.getByRole('heading', { name: /Enterprise Package: tell us about your team/ }),
      ).toBeFocused();
      // An empty form is refused at its first field, said to a screen reader.
      await form.getByRole('button', { name: 'Send inquiry' }).click();
      await expect(form.getByLabel('Your name')).toBeFocused();
      await expect(form.getByLabel('Your name')).toHaveAttribute('aria-invalid', 'true');
      const company = `Fleet Analytics ${width}`;
      await form.getByLabel('Your name').fill('Grace Hopper');
      await form.getByLabel('Work e-mail').fill(`grace-${width}@fleet.example`);
      await form.getByLabel('Company').fill(company);
      await form.getByLabel(/^Team size/).fill('25');
      await form
        .getByLabel('What would your team like?')
        .fill('Neural Trader training for our futures desk.\n\nWe deploy on Kubernetes.');
      await form.getByLabel(/Preferred start/).fill(dayOffset(40));
      expect(await seriousViolations(page)).toEqual([]);
      mkdirSync(SHOTS, { recursive: true });
      await page
        .locator('#enterprise-inquiry')
        .screenshot({ path: `${SHOTS}/inquiry-form-${width}.png` });
      await form.getByRole('button', { name: 'Send inquiry' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Thank you' })).toContainText(
        `grace-${width}@fleet.example`,
      );
      await page
        .locator('#enterprise-inquiry')
        .screenshot({ path: `${SHOTS}/inquiry-sent-${width}.png` });

      const owner = await confirmedPage(browser, OWNER, { fullName: 'Reuven Owner' });
      await owner.page.setViewportSize({ width, height: 900 });
      await owner.page.goto('/members');
      await owner.page.getByRole('tab', { name: 'Admin' }).click();
      const followUp = owner.page.getByRole('form', { name: `Follow-up of ${company}` });
      const item = owner.page.getByRole('listitem').filter({ has: followUp });
      await expect(item).toContainText('25 people');
      await expect(item).toContainText('We deploy on Kubernetes.');
      await followUp.getByLabel('Status').selectOption('replied');
      await followUp.getByLabel('Note').fill('Call on Friday with their CTO.');
      await followUp.getByRole('button', { name: 'Save' }).click();
      await expect(owner.page.getByText(`${company}: Replied.`)).toBeVisible();
      await expect(item).toContainText('Replied');
      const list = await (await owner.context.request.get('/api/admin/inquiries')).json();
      expect(list.inquiries.find((q: { company: string }) => q.company === company)).toMatchObject({
        status: 'replied',
        note: 'Call on Friday with their CTO.',
      });
      expect(await seriousViolations(owner.page)).toEqual([]);
      await item.screenshot({ path: `${SHOTS}/admin-inquiry-${width}.png` });
      await owner.context.close();
      await context.close();
    });
  }
});
