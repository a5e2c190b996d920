import { mkdirSync } from 'node:fs';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { confirmedPage } from './accounts';
import {
  CHECKOUT_HOST,
  STRIPE_SECRET,
  stripeEvent,
  stripeSignature,
  withBillingServer,
} from './billing-server';
import { screenshots, seriousViolations } from './checks';
import { whenHydrated } from './hydration';

/**
 * Booking on the site, end to end against the real binary: a visitor books a 30-minute session
 * with the keyboard at 375 and 1440 px (payments off: a request, which the owner confirms from the
 * Admin tab after setting hours, and the visitor's open page turns Confirmed live), and with
 * payments on (Stripe's page intercepted, a signed webhook posted, the open page turns Confirmed).
 * Screenshots land in test-results/booking/.
 */

const SHOTS = 'test-results/booking';
const shots = screenshots(SHOTS);
const OWNER = 'booking-admin@example.test';
/** The visitor is in Paris; the owner's hours are on Toronto's clock (content/availability). */
const VISITOR_ZONE = 'Europe/Paris';

/**
 * On /book/{type}: chooses the first free day and its first time with the keyboard alone, and
 * fills the form. Returns the chosen time's label.
 */
async function chooseTimeWithKeyboard(page: Page, name: string, email: string) {
  const grid = page.getByRole('grid');
  await expect(grid).toBeVisible();
  // The calendar loads its month; the day that takes Tab is the first free one.
  const day = grid.locator('button[data-date][tabindex="0"]:not([aria-disabled])');
  await expect(day).toHaveCount(1, { timeout: 15_000 });
  await page.getByRole('button', { name: 'Change time zone' }).focus();
  // Tab from the zone button through the month buttons to the grid's one day.
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    if (await day.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(day).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Enter');
  const first = page.locator('button[aria-pressed]').first();
  await expect(first).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(first).toBeFocused();
  const label = (await first.textContent()) ?? '';
  expect(label).toMatch(/^\d{1,2}:\d{2} (AM|PM)/);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Your details' })).toBeFocused();
  await page.keyboard.press('Tab'); // Change time
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Full name')).toBeFocused();
  await page.keyboard.type(name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(email);
  await page.keyboard.press('Tab');
  await page.keyboard.type('Our agents loop on tool calls; I would like a review of the planner.');
  return label;
}

test("the console's slots lists free times in the visitor's zone; a link opens the booking form on that time", async ({
  browser,
}) => {
  const context = await browser.newContext({
    timezoneId: VISITOR_ZONE,
    viewport: { width: 375, height: 812 },
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  await page.goto('/');
  const slot = page.locator('[data-slot="console"]');
  const input = slot.getByRole('textbox', { name: 'Console command' });
  await whenHydrated(input);
  await input.fill('slots 30');
  await input.press('Enter');
  const output = slot.getByTestId('console-output');
  await expect(output).toContainText(
    `Next free times for the Deep Dive (30 min, $299), ${VISITOR_ZONE}:`,
  );
  const first = output
    .getByRole('link', { name: /^Book \w{3}, \w{3} \d{1,2}, \d{1,2}:\d{2} (AM|PM)$/ })
    .first();
  await expect(first).toBeVisible();
  await slot.screenshot({ path: `${SHOTS}/console-slots-375.png` });
  const when = ((await first.textContent()) ?? '').replace(/^Book /, '');
  const time = when.split(', ').at(-1) ?? '';
  await first.click();
  await expect(page).toHaveURL(/\/book\/session-30\?start=/);
  const details = page.getByRole('region', { name: 'Your details' });
  await expect(details).toContainText(`at ${time} (${VISITOR_ZONE})`);
  await expect(page.getByRole('button', { name: time, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(await seriousViolations(page)).toEqual([]);
  await shots.now(page, 'console-slots-link');
  await context.close();
});

test.describe('booking with payments off', () => {
  test.describe.configure({ mode: 'serial' });

  for (const width of [375, 1440]) {
    test(`a visitor requests a 30-minute session at ${width} px; the owner sets hours and confirms it`, async ({
      browser,
    }) => {
      test.setTimeout(120_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
      const context = await browser.newContext({
        timezoneId: VISITOR_ZONE,
        viewport: { width, height: 900 },
      });
      const page = await context.newPage();
      await page.emulateMedia({ reducedMotion: 'reduce' });

      // The /booking card goes to the booking page in the same tab.
      await page.goto('/booking');
      await page.getByRole('link', { name: /Book Now: 30-minute/ }).click();
      await expect(page).toHaveURL(/\/book\/session-30$/);
      await expect(page).toHaveTitle('Book a 30-minute session | rUv');
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Deep Dive');
      await expect(page.getByText(/^Times are shown in/)).toContainText(VISITOR_ZONE);

      const email = `booker-${width}-${Date.now()}@example.test`;
      await chooseTimeWithKeyboard(page, 'Grace Hopper', email);
      await expect(
        page.getByText(/payment \(\$299\) is arranged after confirmation/),
      ).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page)).toEqual([]);
      await shots.now(page, 'book-form');

      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Request this time' })).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/bookings\/[^/?]+\?token=[\w-]+$/);
      await expect(page.getByRole('status')).toContainText('Request sent');
      await expect(page.getByText(/payment is\s+arranged after confirmation/)).toBeVisible();
      await expect(page.getByText('Your time')).toBeVisible();
      await expect(page.getByText(/^.+'s time$/)).toBeVisible();
      await expect(page.getByText(/\(America\/Toronto\)/)).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await shots.now(page, 'status-requested');

      // The owner opens Saturdays, lets bookers change plans up to the start (cut-off 0), and
      // sees the request in the Admin tab.
      const owner = await confirmedPage(browser, OWNER, { fullName: 'Reuven Owner' });
      await owner.page.setViewportSize({ width, height: 900 });
      await owner.page.goto('/members');
      await owner.page.getByRole('tab', { name: 'Admin' }).click();
      const section = owner.page.getByRole('region', { name: 'Booking' });
      // Saturday starts from no hours whatever an earlier run of this test saved.
      const removeSaturday = section.getByRole('button', { name: 'Remove Saturday range 1' });
      await expect(section.getByRole('button', { name: 'Add hours to Saturday' })).toBeVisible();
      while ((await removeSaturday.count()) > 0) await removeSaturday.click();
      await section.getByRole('button', { name: 'Add hours to Saturday' }).click();
      await expect(section.getByLabel('Saturday range 1 start')).toHaveValue('09:00');
      await section.getByLabel('Change cut-off (minutes)').fill('0');
      await section.getByRole('button', { name: 'Save booking settings' }).click();
      await expect(owner.page.getByText('Booking settings saved')).toBeVisible();
      const saved = await (await owner.context.request.get('/api/admin/booking/settings')).json();
      expect(saved.settings.weekly_hours.saturday).toEqual([{ start: '09:00', end: '17:00' }]);
      expect(saved.settings.cutoff_minutes).toBe(0);

      const row = section.getByRole('article', { name: /Grace Hopper, Deep Dive/ }).filter({
        hasText: email,
      });
      await expect(row).toContainText('Request sent');
      await expect(row).toContainText('$299');
      await row.getByRole('button', { name: 'Details' }).click();
      await expect(row).toContainText('Our agents loop on tool calls');
      mkdirSync(SHOTS, { recursive: true });
      await section.screenshot({ path: `${SHOTS}/admin-booking-section-${width}.png` });
      await row.getByRole('button', { name: 'Confirm' }).click();
      await owner.page.getByRole('alertdialog').getByRole('button', { name: 'Confirm' }).click();
      await expect(row).toContainText('Confirmed');

      // The visitor's open page turns Confirmed without a reload (the booking's live stream).
      await expect(page.getByRole('status')).toContainText('Confirmed', { timeout: 15_000 });
      await expect(page.getByRole('link', { name: 'Add to calendar (.ics)' })).toBeVisible();
      const ics = await context.request.get(
        (await page.getByRole('link', { name: 'Add to calendar (.ics)' }).getAttribute('href')) ??
          '',
      );
      expect(ics.status()).toBe(200);
      expect(await ics.text()).toContain('METHOD:REQUEST');
      await shots.now(page, 'status-confirmed');

      // Cancel (the cut-off is now the start): the dialog says there is nothing to refund.
      await page.reload();
      await page.getByRole('button', { name: 'Cancel booking' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Cancel this booking?' });
      await expect(dialog).toContainText('Nothing has been charged');
      await dialog.getByRole('button', { name: 'Cancel booking' }).click();
      await expect(page.getByRole('status')).toContainText('Cancelled');

      await owner.context.close();
      await context.close();
    });
  }

  test('a wrong token is a clear not-found page', async ({ page }) => {
    await page.goto('/bookings/00000000-0000-4000-8000-000000000000?token=not-the-token');
    await expect(page.getByRole('heading', { level: 1, name: 'Booking not found' })).toBeVisible();
  });
});

test.describe('booking with payments on', () => {
  const billing = withBillingServer('booking-billing-admin@example.test');

  for (const width of [375, 1440]) {
    test(`a visitor pays for a 30-minute session at ${width} px and the open page turns Confirmed`, async ({
      browser,
    }) => {
      test.setTimeout(90_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
      const context: BrowserContext = await browser.newContext({
        baseURL: billing().baseURL,
        timezoneId: VISITOR_ZONE,
        viewport: { width, height: 900 },
      });
      const checkouts: string[] = [];
      // Stripe's page is not on this machine: the navigation answers 204 and the page stays.
      await context.route(`${CHECKOUT_HOST}/**`, async (route) => {
        checkouts.push(route.request().url());
        await route.fulfill({ status: 204 });
      });
      const page = await context.newPage();
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto('/book/session-30');
      const email = `payer-${width}-${Date.now()}@example.test`;
      await chooseTimeWithKeyboard(page, 'Paul Payer', email);
      await expect(page.getByText(/You pay \$299 on Stripe's secure page/)).toBeVisible();
      const created = page.waitForResponse(
        (r) => r.url().endsWith('/api/bookings') && r.request().method() === 'POST',
      );
      await page.getByRole('button', { name: 'Pay $299 and book' }).click();
      const answer = await created;
      expect(answer.status()).toBe(201);
      const body = (await answer.json()) as {
        booking: { id: string; status: string };
        token: string;
        checkout_url: string;
      };
      expect(body.booking.status).toBe('held');
      await expect
        .poll(() => checkouts.length, { message: 'the browser went to Checkout' })
        .toBe(1);
      const sessionId = /\/c\/(cs_e2e\d+)$/.exec(checkouts[0] ?? '')?.[1] ?? '';
      const form = billing().stripe.sessions.get(sessionId);
      expect(form?.get('mode')).toBe('payment');
      expect(form?.get('metadata[booking_id]')).toBe(body.booking.id);

      // Back from Stripe: the booking's page waits for the payment.
      await page.goto(`/bookings/${body.booking.id}?token=${body.token}`);
      await expect(page.getByRole('status')).toContainText('Waiting for payment');
      await shots.now(page, 'status-held');

      const event = stripeEvent(`evt_e2e_booking_${width}`, 'checkout.session.completed', {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        amount_total: 29900,
        currency: 'usd',
        payment_intent: `pi_e2e_booking_${width}`,
        client_reference_id: body.booking.id,
        metadata: { booking_id: body.booking.id },
      });
      const delivered = await context.request.post('/api/billing/webhook', {
        data: event,
        headers: {
          'Content-Type': 'application/json',
          'Stripe-Signature': stripeSignature(event, STRIPE_SECRET),
        },
      });
      expect(delivered.status()).toBe(200);
      await expect(page.getByRole('status')).toContainText('Confirmed', { timeout: 15_000 });
      await expect(page.getByText('$299, paid')).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await shots.now(page, 'status-paid');
      await context.close();
    });
  }
});
