import { type BrowserContext, expect, type Page, test } from '@playwright/test';
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
 * Session packages end to end against the real binary with payments on: a visitor buys the
 * "4 Deep Dives" package on /booking (Stripe's page intercepted, a signed webhook posted as the
 * booking spec does), lands on the credits page with 4 credits, books a Deep Dive with a credit
 * (confirmed at once, no Checkout) and sees 3 left; at 375 and 1440 px, with axe on each page.
 * Screenshots land in test-results/packages/.
 */

const shots = screenshots('test-results/packages');
const VISITOR_ZONE = 'Europe/Paris';

/** The page fits the viewport's width: nothing scrolls sideways. */
async function fitsWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    width,
  );
}

/** On /book/{type}: chooses the first free day and its first time, and types the name. */
async function chooseFirstTime(page: Page, name: string) {
  const grid = page.getByRole('grid');
  await expect(grid).toBeVisible();
  const day = grid.locator('button[data-date][tabindex="0"]:not([aria-disabled])');
  await expect(day).toHaveCount(1, { timeout: 15_000 });
  await day.click();
  const first = page.locator('button[aria-pressed]').first();
  await expect(first).toBeVisible();
  await first.click();
  await expect(page.getByRole('heading', { name: 'Your details' })).toBeFocused();
  await page.getByLabel('Full name').fill(name);
}

test.describe('session packages with payments on', () => {
  const billing = withBillingServer('packages-billing-admin@example.test');

  for (const width of [375, 1440]) {
    test(`a visitor buys a package, books with a credit and sees the balance at ${width} px`, async ({
      browser,
    }) => {
      test.setTimeout(90_000 * (process.env.CI ? 2 : 1));
      const context: BrowserContext = await browser.newContext({
        baseURL: billing().baseURL,
        timezoneId: VISITOR_ZONE,
        viewport: { width, height: 900 },
        reducedMotion: 'reduce',
      });
      const checkouts: string[] = [];
      // Stripe's page is not on this machine: the navigation answers 204 and the page stays.
      await context.route(`${CHECKOUT_HOST}/**`, async (route) => {
        checkouts.push(route.request().url());
        await route.fulfill({ status: 204 });
      });
      const page = await context.newPage();
      await page.goto('/booking#packages');
      const card = page.getByTestId('package-card').filter({ hasText: '4 Deep Dives' });
      await expect(card).toContainText('$999');
      await expect(card).toContainText('Tribe members pay $899 (member price)');
      const buy = card.getByRole('button', { name: 'Buy 4 Deep Dives' });
      await whenHydrated(buy);
      await expect(buy).toBeEnabled();
      await buy.click();
      const email = `credits-${width}-${Date.now()}@example.test`;
      await card.getByLabel('Full name').fill('Cora Credit');
      await card.getByLabel('E-mail').fill(email);
      expect(await seriousViolations(page)).toEqual([]);
      await fitsWidth(page, width);
      await shots.now(page, `packages-${width}`);
      await card.getByRole('button', { name: 'Pay $999' }).click();
      await expect
        .poll(() => checkouts.length, { message: 'the browser went to Checkout' })
        .toBe(1);
      const sessionId = /\/c\/(cs_e2e\d+)$/.exec(checkouts[0] ?? '')?.[1] ?? '';
      const form = billing().stripe.sessions.get(sessionId);
      expect(form?.get('mode')).toBe('payment');
      expect(form?.get('allow_promotion_codes')).toBe('true');
      const reference = form?.get('metadata[booking_id]') ?? '';
      expect(reference).toMatch(/^package-/);

      // Stripe says it is paid; then the buyer comes back through the success URL.
      const event = stripeEvent(`evt_e2e_package_${width}`, 'checkout.session.completed', {
        id: sessionId,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        amount_total: 99900,
        currency: 'usd',
        payment_intent: `pi_e2e_package_${width}`,
        client_reference_id: reference,
        metadata: { booking_id: reference },
      });
      const delivered = await context.request.post('/api/billing/webhook', {
        data: event,
        headers: {
          'Content-Type': 'application/json',
          'Stripe-Signature': stripeSignature(event, STRIPE_SECRET),
        },
      });
      expect(delivered.status()).toBe(200);
      const success = new URL(form?.get('success_url') ?? '');
      await page.goto(`${success.pathname}${success.search}`);
      await expect(page).toHaveURL(/\/bookings\/credits\?email=.*&token=.*&paid=1$/);
      const credits = page.getByTestId('credit-card');
      await expect(credits).toContainText('4 of 4 credits left', { timeout: 15_000 });
      // The owner's last day, as the mail gives it: a date, never the owner's midnight as an hour here.
      await expect(credits).toContainText(/Use them by \w+day, \w+ \d{1,2}, \d{4}\./);
      await expect(credits).not.toContainText(/Use them by[^.]*\d:\d\d/);
      expect(await seriousViolations(page)).toEqual([]);
      await fitsWidth(page, width);
      await shots.now(page, `credits-${width}`);
      const balance = page.url();

      // Book with a credit: confirmed at once, no Checkout.
      await credits.getByRole('link', { name: 'Book a Deep Dive with a credit' }).click();
      await expect(page).toHaveURL(/\/book\/session-30\?credit=1&/);
      await chooseFirstTime(page, 'Cora Credit');
      await expect(page.getByRole('radio', { name: /Use a credit \(4 left\)/ })).toBeChecked();
      await expect(page.getByLabel('E-mail')).toHaveValue(email);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Book with a credit' }).click();
      await expect(page).toHaveURL(/\/bookings\/[0-9a-f-]{36}\?token=/);
      await expect(page.getByRole('status')).toContainText('Confirmed', { timeout: 15_000 });
      expect(checkouts).toHaveLength(1);

      await page.goto(balance.replace('&paid=1', ''));
      await expect(page.getByTestId('credit-card')).toContainText('3 of 4 credits left');
      expect(await seriousViolations(page)).toEqual([]);
      await shots.now(page, `credits-after-${width}`);
      await context.close();
    });
  }
});
