import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  test,
} from '@playwright/test';
import { confirmedPage, dayOffset, PASSWORD } from './accounts';
import {
  CHECKOUT_HOST,
  PORTAL_HOST,
  STRIPE_SECRET,
  stripeEvent,
  stripeSignature,
  withBillingServer,
} from './billing-server';
import { screenshots } from './checks';

/**
 * Paid membership end to end: its own `tribe serve` with online payment on, against a fake Stripe
 * API (e2e/billing-billing().ts). A member presses Upgrade, the browser is sent to Stripe Checkout
 * (intercepted: the navigation answers 204, so the page stays), Stripe's signed webhook arrives,
 * and the open dashboard turns active with Join Session buttons without a reload; Manage opens the
 * customer portal in a new tab; the return from Checkout says "Subscription Active!". Screenshots
 * at 375 and 1440 px land in test-results/billing/.
 */

const ADMIN_EMAIL = 'billing-admin@example.test';
const SHOTS = 'test-results/billing';
const shots = screenshots(SHOTS);

test.describe.configure({ mode: 'serial' });

const billing = withBillingServer(ADMIN_EMAIL);

async function signUp(context: BrowserContext, fullName: string, email: string) {
  const res = await context.request.post('/api/auth/signup', {
    data: { full_name: fullName, email, password: PASSWORD },
  });
  expect(res.status(), `sign-up of ${email}`).toBe(201);
  const me = (await (await context.request.get('/api/auth/session')).json()) as {
    user: { id: string };
  };
  return me.user.id;
}

/** An admin request context: signed up, address confirmed through the development mailbox. */
async function adminRequest(browser: Browser): Promise<BrowserContext> {
  const { context, page } = await confirmedPage(browser, ADMIN_EMAIL, {
    fullName: 'Bea Admin',
    baseURL: billing().baseURL,
  });
  await page.close();
  return context;
}

async function createSession(request: APIRequestContext, title: string) {
  const res = await request.post('/api/admin/sessions', {
    data: {
      title,
      description: 'Paid members get the link.',
      tags: ['agents'],
      session_date: dayOffset(14),
      session_time: '17:00',
      duration: '2 hours',
      timezone: 'America/New_York',
      zoom_meeting_id: '321 654 987',
      zoom_password: 'paid-only',
      zoom_join_url: 'https://zoom.us/j/321654987',
    },
  });
  expect(res.status()).toBe(201);
}

async function postWebhook(request: APIRequestContext, body: string, signature?: string) {
  return request.post('/api/billing/webhook', {
    data: body,
    headers: {
      'Content-Type': 'application/json',
      ...(signature === undefined ? {} : { 'Stripe-Signature': signature }),
    },
  });
}

async function expectToast(page: Page, title: string) {
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: title }).first()).toBeVisible({
    timeout: 20_000,
  });
}

test('a member subscribes, the webhook turns the open dashboard active, and Manage opens the portal', async ({
  browser,
}) => {
  test.setTimeout(120_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const admin = await adminRequest(browser);
  const title = `Paid session ${Date.now()}`;
  await createSession(admin.request, title);

  const email = `e2e-billing-${Date.now()}@example.test`;
  // Holding a seat needs a confirmed address (docs/billing.md, "The hold rule").
  const { context, page } = await confirmedPage(browser, email, {
    fullName: 'Paula Payer',
    baseURL: billing().baseURL,
  });
  const me = (await (await context.request.get('/api/auth/session')).json()) as {
    user: { id: string };
  };
  const userId = me.user.id;

  // Stripe's pages are not on this machine: Checkout answers 204, so the page stays where it is
  // (as if the member paid in another window); the portal is a small page of its own.
  const checkouts: string[] = [];
  await context.route(`${CHECKOUT_HOST}/**`, async (route) => {
    checkouts.push(route.request().url());
    await route.fulfill({ status: 204 });
  });
  await context.route(`${PORTAL_HOST}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Stripe portal</h1>' }),
  );

  await page.goto('/members');
  await expect(page.getByText('Free Member', { exact: true })).toBeVisible();
  const card = page.getByRole('listitem').filter({ hasText: title });
  await expect(card.getByRole('button', { name: 'Subscribe to Join' })).toBeVisible();
  await expect(card.getByText('paid-only')).toHaveCount(0);
  await shots.page(page, 'free-member');

  // A refused webhook changes nothing.
  const early = stripeEvent('evt_e2e_forged', 'customer.subscription.created', {});
  expect((await postWebhook(context.request, early)).status()).toBe(400);
  expect(
    (await postWebhook(context.request, early, stripeSignature(early, 'whsec_wrong'))).status(),
  ).toBe(400);

  await page.getByRole('button', { name: 'Upgrade' }).click();
  await expect.poll(() => checkouts.length, { message: 'the browser went to Checkout' }).toBe(1);
  const sessionId = /\/c\/(cs_e2e\d+)$/.exec(checkouts[0] ?? '')?.[1] ?? '';
  expect(sessionId).not.toBe('');
  const customer = billing().stripe.customers[0] ?? '';
  expect(billing().stripe.sessions.get(sessionId)?.get('client_reference_id')).toBe(userId);
  await expect(page).toHaveURL(/\/members$/);

  // While Checkout is open the seat is held, and the Tribe page counts it as such.
  await page.goto('/tribe');
  await expect(page.getByText(/left of \d+, 1 being checked out/).first()).toBeVisible();
  await page.goto('/members');

  // The member paid: Stripe has the subscription and sends checkout.session.completed.
  billing().stripe.subscriptions.set('sub_e2e_paula', {
    id: 'sub_e2e_paula',
    customer,
    status: 'active',
    userId,
    periodEnd: Math.floor(Date.now() / 1000) + 30 * 86_400,
  });
  const completed = stripeEvent('evt_e2e_completed', 'checkout.session.completed', {
    id: sessionId,
    object: 'checkout.session',
    mode: 'subscription',
    customer,
    subscription: 'sub_e2e_paula',
    client_reference_id: userId,
    metadata: { user_id: userId },
    payment_status: 'paid',
    status: 'complete',
  });
  const delivered = await postWebhook(
    context.request,
    completed,
    stripeSignature(completed, STRIPE_SECRET),
  );
  expect(delivered.status()).toBe(200);

  // No reload: the live-update stream brings it.
  await expect(page.getByText('Active Subscriber', { exact: true })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText(/^Renews /)).toBeVisible();
  // Join goes through the site, which records attendance and redirects the
  // subscriber, and only the subscriber, to the meeting.
  const join = card.getByRole('link', { name: /Join Session/ });
  await expect(join).toHaveAttribute('href', /^\/api\/sessions\/[^/]+\/join$/);
  const joined = await page.request.get((await join.getAttribute('href')) ?? '', {
    maxRedirects: 0,
  });
  expect(joined.status()).toBe(303);
  expect(joined.headers().location).toBe('https://zoom.us/j/321654987');
  await expect(card.getByText('paid-only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe to Join' })).toHaveCount(0);
  await shots.page(page, 'active-subscriber');

  // Manage opens the customer portal in a new tab.
  const popup = context.waitForEvent('page');
  await page.getByRole('button', { name: 'Manage' }).click();
  const portal = await popup;
  await portal.waitForURL(`${PORTAL_HOST}/p/**`);
  await expect(portal.getByRole('heading', { name: 'Stripe portal' })).toBeVisible();
  await portal.close();

  // The return from Checkout: the flags go, the wait ends with the toast.
  await page.goto('/members?success=true');
  await expectToast(page, 'Subscription successful!');
  await expect(page).toHaveURL(/\/members$/);
  await expectToast(page, 'Subscription Active!');

  // The admin sees Paula as a paying member.
  const list = (await admin.request.get('/api/admin/members').then((r) => r.json())) as {
    members: { email: string; status: string; has_access: boolean }[];
  };
  expect(list.members.find((m) => m.email === email)).toMatchObject({
    status: 'active',
    has_access: true,
  });
  await admin.close();
  await context.close();
});

test('a canceled checkout says so, and the tribe page offers a member Subscribe', async ({
  browser,
}) => {
  test.setTimeout(60_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const context = await browser.newContext({ baseURL: billing().baseURL });
  await signUp(context, 'Carl Canceled', `e2e-billing-cancel-${Date.now()}@example.test`);
  const page = await context.newPage();
  await page.goto('/members?canceled=true');
  await expectToast(page, 'Checkout canceled');
  await expect(page).toHaveURL(/\/members$/);

  await page.goto('/tribe');
  await expect(page.getByRole('button', { name: 'Subscribe' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Members Area' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login' })).toHaveCount(0);
  await shots.page(page, 'tribe-member', false);
  await context.close();
});

test('an admin makes a member complimentary from the Admin tab', async ({ browser }) => {
  test.setTimeout(90_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const adminContext = await adminRequest(browser);
  const member = await browser.newContext({ baseURL: billing().baseURL });
  const email = `e2e-billing-comp-${Date.now()}@example.test`;
  await signUp(member, 'Gina Gift', email);
  const memberPage = await member.newPage();
  await memberPage.goto('/members');
  await expect(memberPage.getByText('Free Member', { exact: true })).toBeVisible();

  const page = await adminContext.newPage();
  await page.goto('/members');
  await page.getByRole('tab', { name: /Admin/ }).click();
  const list = page.locator('section').filter({
    has: page.getByRole('heading', { name: 'Member list' }),
  });
  await list.getByRole('button', { name: `Make complimentary: ${email}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Complimentary membership' });
  await dialog.getByLabel(/Last day/).fill(dayOffset(60));
  await shots.page(page, 'admin-comp-dialog', false);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(list.getByText(/^Complimentary through /).first()).toBeVisible();
  await shots.page(page, 'admin-members');

  // The member's open dashboard follows.
  await expect(memberPage.getByText('Complimentary', { exact: true })).toBeVisible({
    timeout: 15_000,
  });
  await list.getByRole('button', { name: `End complimentary: ${email}` }).click();
  await expect(memberPage.getByText('Free Member', { exact: true })).toBeVisible({
    timeout: 15_000,
  });
  await adminContext.close();
  await member.close();
});

test('without Stripe (the default server) nothing pretends to take money', async ({ browser }) => {
  test.setTimeout(60_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  // The suite's own server runs without Stripe settings, like `make run`.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/tribe');
  const hero = page.locator('section').first();
  await expect(hero.getByText(/Online payment is not set up yet/)).toBeVisible();
  await expect(hero.getByRole('button', { name: 'Join Wait List' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign Up to Join' })).toHaveCount(0);
  await hero.getByRole('button', { name: 'Join Wait List' }).click();
  const waitlist = page.getByRole('dialog', { name: 'Join the Wait List' });
  await expect(waitlist).toContainText('Online payment is not set up yet.');
  await expect(waitlist).not.toContainText('at capacity');
  await shots.page(page, 'tribe-payments-off-waitlist', false);
  await page.keyboard.press('Escape');

  const email = `e2e-billing-off-${Date.now()}@example.test`;
  const res = await context.request.post('/api/auth/signup', {
    data: { full_name: 'Otto Offline', email, password: PASSWORD },
  });
  expect(res.status()).toBe(201);
  await page.goto('/members');
  await expect(page.getByRole('link', { name: 'Join the wait list' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upgrade' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Subscribe to Join' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Payments are not set up yet' });
  await expect(dialog).toContainText('Online payment is not set up yet.');
  await shots.page(page, 'members-payments-off', false);
  await context.close();
});
