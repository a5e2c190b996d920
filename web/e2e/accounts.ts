import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
} from '@playwright/test';

/** The password of every account the browser suite makes. */
export const PASSWORD = 'members-e2e-password-1';

/** A date `days` from today as YYYY-MM-DD (UTC). */
export function dayOffset(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** Signs `email` up in this context (the cookie lands in it), or in when the account exists. */
export async function account(context: BrowserContext, email: string, fullName = 'Agent Tester') {
  const res = await context.request.post('/api/auth/signup', {
    data: { full_name: fullName, email, password: PASSWORD },
  });
  if (res.status() === 201) return;
  const signin = await context.request.post('/api/auth/signin', {
    data: { email, password: PASSWORD },
  });
  expect(signin.status(), `sign-in of ${email}`).toBe(200);
}

/** The confirmation link mailed to `email`, read from the development mailbox. */
export async function confirmationLink(request: APIRequestContext, email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get('/api/dev/mail');
        if (!res.ok()) return undefined;
        const { messages } = (await res.json()) as {
          messages: { to: string; subject: string; text: string }[];
        };
        const mail = messages.find(
          (m) => m.to.includes(email) && /confirm/i.test(`${m.subject} ${m.text}`),
        );
        link = mail
          ? /https?:\/\/\S+\/auth\/confirm\?token=[\w-]+/.exec(mail.text)?.[0]
          : undefined;
        return link;
      },
      { timeout: 15_000, message: `a confirmation mail to ${email}` },
    )
    .toBeTruthy();
  return link as string;
}

export interface ConfirmedPage {
  context: BrowserContext;
  page: Page;
  /** The address was confirmed by this call (the page is on /members, after the link). */
  confirmedNow: boolean;
}

/**
 * A page signed in as `email` with its address confirmed through the mailed link, opened in the
 * page itself (the link confirms only in a browser signed in to that account). An admin address
 * is an admin only once confirmed. `baseURL` is the server's when it is not the run's own.
 */
export async function confirmedPage(
  browser: Browser,
  email: string,
  options: { fullName?: string; baseURL?: string } = {},
): Promise<ConfirmedPage> {
  const context = await browser.newContext(options.baseURL ? { baseURL: options.baseURL } : {});
  await account(context, email, options.fullName);
  const page = await context.newPage();
  const me = await (await context.request.get('/api/auth/session')).json();
  if (me.user.email_confirmed) return { context, page, confirmedNow: false };
  await page.goto(await confirmationLink(context.request, email));
  await expect(page).toHaveURL(/\/members$/);
  return { context, page, confirmedNow: true };
}
