import { expect, test } from '@playwright/test';
import { confirmedPage, dayOffset } from './accounts';
import { screenshots, seriousViolations } from './checks';

/**
 * The wait list of a sold-out group training date, end to end against the real binary with
 * payments off, at 375 and 1440 px: the owner schedules a date of one seat, a visitor requests
 * it, the next visitor finds the date sold out and joins its wait list, and the owner sees them
 * first in line in Admin → Booking. Screenshots land in test-results/seat-waitlist/.
 */

const shots = screenshots('test-results/seat-waitlist');
const OWNER = 'waitlist-admin@example.test';

test.describe('the wait list of a sold-out date', () => {
  test.describe.configure({ mode: 'serial' });

  for (const [i, width] of [375, 1440].entries()) {
    test(`a visitor joins a full date's wait list at ${width} px`, async ({ browser }) => {
      test.setTimeout(120_000 * (process.env.CI ? 2 : 1));
      const owner = await confirmedPage(browser, OWNER, { fullName: 'Reuven Owner' });
      await owner.page.setViewportSize({ width, height: 900 });
      await owner.page.goto('/members');
      await owner.page.getByRole('tab', { name: 'Admin' }).click();
      const section = owner.page.getByRole('region', { name: 'Booking' });
      const schedule = section.getByRole('form', { name: 'Schedule a date of Group Training' });
      // Before the seats spec's dates (it books the last date listed), each run's its own day.
      const date = dayOffset(12 + i);
      const day = new Date(`${date}T12:00:00Z`).toLocaleDateString('en-US', {
        month: 'long',
        day: 'numeric',
        timeZone: 'UTC',
      });
      await schedule.getByLabel('Date').fill(date);
      await schedule.getByLabel('Start').fill('17:00');
      await schedule.getByLabel('Seats').fill('1');
      await schedule.getByRole('button', { name: 'Schedule date' }).click();
      await expect(owner.page.getByText('Date scheduled')).toBeVisible();

      const context = await browser.newContext({
        timezoneId: 'Europe/Paris',
        viewport: { width, height: 900 },
      });
      const page = await context.newPage();
      await page.emulateMedia({ reducedMotion: 'reduce' });

      // The one seat is requested.
      await page.goto('/book/group');
      const dates = page.getByRole('group', { name: 'Upcoming dates' });
      const mine = dates.getByRole('listitem').filter({ hasText: day });
      const seat = mine.getByRole('radio');
      await expect(seat).toBeEnabled({ timeout: 15_000 });
      await seat.check();
      await page.getByLabel('Full name').fill('Grace Hopper');
      await page.getByLabel('E-mail').fill(`taker-${width}-${Date.now()}@example.test`);
      await page.getByRole('button', { name: 'Request a seat' }).click();
      await expect(page).toHaveURL(/\/bookings\/[^/?]+\?token=[\w-]+$/);

      // The next visitor finds it sold out and joins the wait list.
      await page.goto('/book/group');
      await expect(dates.getByRole('radio').last()).toBeDisabled({ timeout: 15_000 });
      await expect(dates.getByRole('listitem').last()).toContainText('Sold out');
      await dates
        .getByRole('button', { name: /Join the wait list for/ })
        .last()
        .click();
      const form = page.getByRole('form', { name: /Wait list for/ });
      const waiting = `waiting-${width}-${Date.now()}@example.test`;
      await form.getByLabel('Full name').fill('Wanda Waiter');
      await form.getByLabel('E-mail').fill(waiting);
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
      await shots.now(page, `waitlist-form-${width}`);
      await form.getByRole('button', { name: 'Join the wait list' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'You are on the wait list' }),
      ).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await shots.now(page, `waitlist-joined-${width}`);

      // The owner sees them first in line.
      await owner.page.reload();
      await owner.page.getByRole('tab', { name: 'Admin' }).click();
      const row = section.getByRole('listitem').filter({
        hasText: day,
        has: owner.page.getByRole('button', { name: 'Wait list (1)' }),
      });
      await row.getByRole('button', { name: 'Wait list (1)' }).click();
      const table = row.getByRole('table', { name: 'Wait list' });
      await expect(table).toContainText(waiting);
      await expect(table).toContainText('Waiting');
      expect(await seriousViolations(owner.page)).toEqual([]);
      await context.close();
      await owner.context.close();
    });
  }
});
