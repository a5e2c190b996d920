import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';

export const PASSWORD = 'members-e2e-password-1';

/** Signs `email` up in this context, or in when the account exists. */
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

/**
 * A page signed in as `email` with its address confirmed through the link the development
 * mailbox holds (an admin address is an admin only once confirmed). `baseURL` is the server's
 * when the context was made without one.
 */
export async function confirmedPage(
  browser: Browser,
  email: string,
  baseURL?: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  await account(context, email);
  const page = await context.newPage();
  const me = await (await context.request.get('/api/auth/session')).json();
  if (!me.user.email_confirmed) {
    let link: string | undefined;
    await expect
      .poll(
        async () => {
          const res = await context.request.get('/api/dev/mail');
          if (!res.ok()) return undefined;
          const { messages } = (await res.json()) as { messages: { to: string; text: string }[] };
          const mail = messages.find((m) => m.to.includes(email) && /confirm/i.test(m.text));
          link = mail
            ? /https?:\/\/\S+\/auth\/confirm\?token=[\w-]+/.exec(mail.text)?.[0]
            : undefined;
          return link;
        },
        { timeout: 15_000, message: 'the confirmation mail' },
      )
      .toBeTruthy();
    await page.goto(link as string);
    await expect(page).toHaveURL(/\/members$/);
  }
  return { context, page };
}
