import { expect, type Page, test } from '@playwright/test';
import { confirmedPage, PASSWORD } from './accounts';
import {
  STRIPE_SECRET,
  stripeEvent,
  stripeSignature,
  subscriptionObject,
  withBillingServer,
} from './billing-server';
import { axeAtBothWidths, screenshots } from './checks';

/**
 * Admin → Insights against a `tribe serve` with online payment on (e2e/billing-billing().ts): a
 * member's subscription arrives by signed webhook, the admin opens Insights from the Admin tab
 * and sees its MRR, then switches the period. Screenshots at 375 and 1440 px land in
 * test-results/insights/, and axe finds nothing serious at either width.
 */

const ADMIN_EMAIL = 'insights-admin@example.test';
const SHOTS = 'test-results/insights';
const shots = screenshots(SHOTS);

test.describe.configure({ mode: 'serial' });

const billing = withBillingServer(ADMIN_EMAIL);

/** Screenshots at both widths, no sideways scrolling, and no serious axe finding. */
async function checkWidths(page: Page, name: string) {
  await shots.page(page, name);
  expect(await axeAtBothWidths(page)).toEqual([]);
}

test('an admin sees MRR after a subscription webhook and switches the period', async ({
  browser,
}) => {
  test.setTimeout(120_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  // The member: an account whose subscription Stripe reports by webhook.
  const member = await browser.newContext({ baseURL: billing().baseURL });
  const signup = await member.request.post('/api/auth/signup', {
    data: {
      full_name: 'Mia Member',
      email: `e2e-insights-${Date.now()}@example.test`,
      password: PASSWORD,
    },
  });
  expect(signup.status()).toBe(201);
  const me = (await (await member.request.get('/api/auth/session')).json()) as {
    user: { id: string };
  };
  const now = Math.floor(Date.now() / 1000);
  const sub = {
    id: 'sub_e2e_insights',
    customer: 'cus_e2e_insights',
    status: 'active',
    userId: me.user.id,
    periodEnd: now + 30 * 86_400,
    amount: 4900,
  };
  billing().stripe.subscriptions.set(sub.id, sub);
  const created = stripeEvent(
    'evt_e2e_insights_1',
    'customer.subscription.created',
    subscriptionObject(sub),
  );
  const delivered = await member.request.post('/api/billing/webhook', {
    data: created,
    headers: {
      'Content-Type': 'application/json',
      'Stripe-Signature': stripeSignature(created, STRIPE_SECRET),
    },
  });
  expect(delivered.status()).toBe(200);
  await member.close();

  const { context, page } = await confirmedPage(browser, ADMIN_EMAIL, {
    fullName: 'Ines Insight',
    baseURL: billing().baseURL,
  });
  await page.goto('/members');
  await page.getByRole('tab', { name: /Admin/ }).click();
  await page.getByRole('link', { name: 'Open Insights' }).click();
  await expect(page).toHaveURL(/\/admin\/insights$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible();

  const revenue = page.getByRole('region', { name: 'Revenue' });
  const committed = revenue
    .locator('dt', { hasText: 'Committed MRR' })
    .locator('xpath=following-sibling::dd[1]');
  await expect(committed).toHaveText('$49.00', { timeout: 15_000 });
  await expect(page.getByRole('radio', { name: 'Last 30 days' })).toBeChecked();
  const paying = page
    .getByRole('region', { name: 'Members' })
    .locator('dt', { hasText: 'Paying' })
    .locator('xpath=following-sibling::dd[1]');
  await expect(paying).toHaveText('1');
  await expect(
    page.getByRole('img', { name: 'MRR over time, committed and at risk' }),
  ).toBeVisible();
  await checkWidths(page, 'insights-30-days');

  // Another period asks the server for its range and keeps the MRR.
  const asked = page.waitForRequest((r) => r.url().includes('/api/admin/insights?'));
  await page.getByText('Last 12 months', { exact: true }).click();
  const url = new URL((await asked).url());
  const from = new Date(`${url.searchParams.get('from')}T00:00:00Z`);
  const to = new Date(`${url.searchParams.get('to')}T00:00:00Z`);
  expect(Math.round((to.getTime() - from.getTime()) / 86_400_000)).toBeGreaterThanOrEqual(364);
  await expect(page.getByRole('radio', { name: 'Last 12 months' })).toBeChecked();
  await expect(committed).toHaveText('$49.00');
  await expect(
    page.getByRole('table', { name: 'Net new MRR by month' }).locator('tbody tr'),
  ).toHaveCount(13, {
    timeout: 15_000,
  });
  await checkWidths(page, 'insights-12-months');

  // A member who is not an admin gets nothing from the API.
  const stranger = await browser.newContext({ baseURL: billing().baseURL });
  expect((await stranger.request.get('/api/admin/insights')).status()).toBe(401);
  await stranger.close();
  await context.close();
});
