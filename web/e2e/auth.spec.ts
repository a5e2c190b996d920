import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { whenHydrated } from './hydration';

/**
 * Accounts end to end against the real server in dev-mailbox mode: sign-up, logout, sign-in
 * through the Tribe page's modal, a password reset through the mailed link, the wait list, and
 * what /auth does for a visitor who already has a session.
 */

interface DevMessage {
  id: string;
  to: string;
  subject: string;
  text: string;
}

function uniqueEmail(tag: string): string {
  return `e2e-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.test`;
}

/** Waits for a message to `to` whose subject matches, in the dev mailbox (newest first). */
async function waitForMail(
  request: APIRequestContext,
  to: string,
  subject: RegExp,
): Promise<DevMessage> {
  let found: DevMessage | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/dev/mail');
        if (!res.ok()) return undefined;
        const { messages } = (await res.json()) as { messages: DevMessage[] };
        found = messages.find((m) => m.to.includes(to) && subject.test(m.subject));
        return found?.id;
      },
      { timeout: 15_000, message: `a mail to ${to} matching ${subject}` },
    )
    .toBeTruthy();
  return found as DevMessage;
}

/** A toast with this title (and description) is on screen. */
async function expectToast(page: Page, title: string, description?: string) {
  const toast = page.locator('[data-sonner-toast]').filter({ hasText: title }).first();
  await expect(toast).toBeVisible();
  if (description) await expect(toast).toContainText(description);
}

function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

async function logOut(page: Page) {
  await mainNav(page).getByRole('button', { name: 'Logout' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'logout' });
  await expect(dialog).toContainText('Are you sure you want to log out?');
  await dialog.getByRole('button', { name: 'Logout' }).click();
  await expectToast(page, 'Logged out', 'You have been successfully logged out.');
  await expect(page).toHaveURL(/\/$/);
  await expect(mainNav(page).getByRole('link', { name: 'Member Login' })).toBeVisible();
}

/** Collects console errors and page errors (hydration mismatches show up as either). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

test('sign up, log out, sign in by the modal, reset the password by mail, join the wait list', async ({
  page,
}) => {
  test.setTimeout(150_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const email = uniqueEmail('journey');
  const firstPassword = 'first-password-1';
  const newPassword = 'second-password-2';

  // Sign up on /auth.
  await page.goto('/auth');
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to the Tribe' })).toBeVisible();
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  const signUp = page.getByRole('form', { name: 'Sign up' });
  await expect(signUp.getByText('At least 8 characters.')).toBeVisible();
  await signUp.getByLabel('Full name').fill('Ada E2E');
  await signUp.getByLabel('Email').fill(email);
  // Too short: the server says so, in the form and in a toast, until the password is long enough.
  await signUp.getByLabel('Password').fill('short');
  await signUp.getByRole('button', { name: 'Sign Up' }).click();
  const tooShort = page
    .locator('[data-sonner-toast]')
    .filter({ hasText: 'Password must be at least 8 characters.' });
  await expect(tooShort).toBeVisible();
  await signUp.getByLabel('Password').fill(firstPassword);
  await expect(tooShort).toHaveCount(0);
  await expect(signUp.getByText('Password must be at least 8 characters.')).toHaveCount(0);
  await signUp.getByRole('button', { name: 'Sign Up' }).click();
  await expectToast(
    page,
    'Account created!',
    'You have successfully signed up. Redirecting to members area...',
  );
  await expect(page).toHaveURL(/\/members$/);

  // The logout dialog.
  await mainNav(page).getByRole('button', { name: 'Logout' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'logout' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(page).toHaveURL(/\/members$/);
  await logOut(page);

  // Sign in through the Tribe page's modal: a full-page load of /members.
  await page.goto('/tribe');
  await page.getByRole('button', { name: 'Login', exact: true }).first().click();
  let modal = page.getByRole('dialog', { name: 'Member Login' });
  await modal.getByLabel('Email').fill(email);
  await modal.getByLabel('Password').fill(firstPassword);
  // The toast shows for the 500 ms before the full-page load, shorter than a polling locator
  // may look: the page itself reports every toast it draws, and the URL it draws it on.
  const drawn: string[] = [];
  await page.exposeFunction('reportToast', (text: string) => drawn.push(text));
  await page.evaluate(() => {
    const report = (window as unknown as { reportToast: (text: string) => void }).reportToast;
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
        if (toast.getBoundingClientRect().height > 0) {
          report(`${location.pathname} ${toast.textContent ?? ''}`);
        }
      }
    }).observe(document.body, { childList: true, subtree: true, attributes: true });
  });
  await modal.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/members$/);
  expect(drawn).toContainEqual(
    expect.stringMatching(/^\/tribe .*Welcome back!.*Redirecting to members area\.\.\./),
  );
  await logOut(page);

  // Forgot password? in the modal.
  await page.goto('/tribe');
  await page.getByRole('button', { name: 'Login', exact: true }).first().click();
  modal = page.getByRole('dialog', { name: 'Member Login' });
  await modal.getByRole('button', { name: 'Forgot password?' }).click();
  const reset = page.getByRole('dialog', { name: 'Reset Password' });
  await reset.getByLabel('Email').fill(email);
  await reset.getByRole('button', { name: 'Send Reset Link' }).click();
  await expectToast(page, 'Check your email', "We've sent you a password reset link.");

  // Follow the mailed link and set a new password.
  const mail = await waitForMail(page.request, email, /reset/i);
  const link = mail.text.match(/https?:\/\/\S+\/auth\?reset=true&token=[^\s"<>)]+/)?.[0];
  expect(link, 'the reset mail carries the reset link').toBeDefined();
  await page.goto(link as string);
  const newForm = page.getByRole('form', { name: 'Set a new password' });
  await newForm.getByLabel('New password', { exact: true }).fill(newPassword);
  await newForm.getByLabel('Confirm new password').fill(newPassword);
  await newForm.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page).toHaveURL(/\/members$/);
  await logOut(page);

  // The old password no longer works; the new one does.
  await page.goto('/auth');
  const signIn = page.getByRole('form', { name: 'Sign in' });
  await signIn.getByLabel('Email').fill(email);
  await signIn.getByLabel('Password').fill(firstPassword);
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Error', 'Invalid login credentials');
  await expect(signIn.getByRole('alert')).toContainText('Invalid login credentials');
  await expect(page).toHaveURL(/\/auth$/);
  await signIn.getByLabel('Password').fill(newPassword);
  await signIn.getByRole('button', { name: 'Sign In' }).click();
  await expectToast(page, 'Welcome back!', 'You have successfully logged in.');
  await expect(page).toHaveURL(/\/members$/);

  // The wait list, twice.
  const waitEmail = uniqueEmail('wait');
  for (const [title, closes] of [
    ["You're on the list!", "We'll notify you when spots open up."],
    ["You're already on the list", ''],
  ] as const) {
    await page.goto('/tribe');
    await page.getByRole('button', { name: 'Join Wait List' }).first().click();
    const wait = page.getByRole('dialog', { name: 'Join the Wait List' });
    await expect(wait).toContainText('What happens next');
    await wait.getByLabel('Full name').fill('Grace E2E');
    await wait.getByLabel('Email').fill(waitEmail);
    await wait.getByRole('button', { name: 'Join Wait List' }).click();
    await expectToast(page, title, closes || undefined);
    await expect(wait).toBeHidden();
  }
});

test.describe('/auth with a session', () => {
  test.beforeEach(async ({ page }) => {
    const res = await page.request.post('/api/auth/signup', {
      data: {
        full_name: 'Session Holder',
        email: uniqueEmail('session'),
        password: 'long-password-9',
      },
    });
    expect(res.status()).toBe(201);
  });

  test('goes on to /members, keeping the other parameters and dropping return', async ({
    page,
  }) => {
    await page.goto('/auth?return=%2Fmembers%2Fprofile&tab=cohorts&ref=mail');
    await expect(page).toHaveURL(/\/members\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/members');
    expect(url.searchParams.get('tab')).toBe('cohorts');
    expect(url.searchParams.get('ref')).toBe('mail');
    expect(url.searchParams.has('return')).toBe(false);
  });

  test('with logged_out=true signs out and stays', async ({ page }) => {
    await page.goto('/auth?logged_out=true');
    await expect(
      page.getByRole('status').filter({ hasText: 'You have been logged out.' }),
    ).toBeVisible();
    await expect
      .poll(
        async () =>
          ((await (await page.request.get('/api/auth/session')).json()) as { user: unknown }).user,
      )
      .toBeNull();
    await expect(page).toHaveURL(/\/auth\?logged_out=true$/);
    await expect(mainNav(page).getByRole('link', { name: 'Member Login' })).toBeVisible();
  });
});

test.describe('hydration', () => {
  test('a reset link hydrates the prerendered /auth, then shows the new-password form', async ({
    page,
  }) => {
    const errors = watchErrors(page);
    await page.goto('/auth?reset=true&token=not-a-real-token');
    await expect(page.getByRole('form', { name: 'Set a new password' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });

  test('typing on /auth before the scripts finish loading is kept', async ({ page }) => {
    // The scripts wait until the visitor has typed into the prerendered form, as on a slow phone.
    let release = () => {};
    const scripts = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/assets/*.js', async (route) => {
      await scripts;
      await route.continue();
    });
    await page.goto('/auth', { waitUntil: 'commit' });
    const form = page.locator('form[aria-label="Sign in"]');
    const email = form.locator('input[name="email"]');
    await email.fill('early@example.test');
    await form.locator('input[name="password"]').fill('typed-early-9');
    release();
    await whenHydrated(email);
    await page.waitForLoadState('networkidle');
    await expect(email).toHaveValue('early@example.test');
    await expect(form.locator('input[name="password"]')).toHaveValue('typed-early-9');
    // The form works with what is shown: no "required" errors, the server's answer instead.
    await form.getByRole('button', { name: 'Sign In' }).click();
    await expect(form.getByText('Email is required.')).toHaveCount(0);
    await expect(form.getByRole('alert')).toContainText(/Invalid|incorrect|wrong/i);
  });

  test('a signed-in visitor hydrates the signed-out header, then sees Logout', async ({ page }) => {
    const res = await page.request.post('/api/auth/signup', {
      data: {
        full_name: 'Header Check',
        email: uniqueEmail('header'),
        password: 'long-password-9',
      },
    });
    expect(res.status()).toBe(201);
    const errors = watchErrors(page);
    await page.goto('/about');
    await expect(mainNav(page).getByRole('button', { name: 'Logout' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });
});

test.describe('accessibility', () => {
  /** axe findings of the page that are serious or worse, link-in-text-block among them. */
  async function seriousViolations(page: Page): Promise<string[]> {
    const results = await new AxeBuilder({ page }).analyze();
    return results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }

  test('/auth at 1440 px: links in running text are told apart without colour', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const path of ['/auth', '/auth?reset=true']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await seriousViolations(page), path).toEqual([]);
    }
    const homeLink = page.getByRole('link', { name: 'home page', exact: true });
    await expect(homeLink).toHaveCSS('text-decoration-line', 'underline');
  });
});
