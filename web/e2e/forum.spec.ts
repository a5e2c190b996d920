import { type Browser, expect, type Page, test } from '@playwright/test';
import { confirmedPage } from './accounts';
import { axeAtBothWidths, screenshots } from './checks';

/**
 * The community end to end against the real server: a subscriber asks a question on a phone
 * (375 px) mentioning another, who on a desktop (1440 px) sees the question arrive in the list and
 * the bell's count rise without a reload, opens it, mentions the asker through the picker and
 * answers; the asker's bell rises and her open thread shows the answer live, and she accepts it;
 * the owner saves it into the knowledge base and announces, and a free member sees the
 * announcement (in the list with a prompt to subscribe, and on the dashboard) and nothing else.
 * Axe is clean on every state. Screenshots land in test-results/forum/.
 */

const shots = screenshots('test-results/forum');

const ADMIN_EMAIL = 'forum-admin@example.test';

/** A confirmed member, made a subscriber (complimentary) by the admin when `subscribe`. */
async function member(browser: Browser, admin: Page, name: string, subscribe: boolean) {
  const email = `e2e-forum-${name.split(' ')[0]?.toLowerCase()}-${Date.now()}@example.test`;
  const m = await confirmedPage(browser, email, { fullName: name });
  const me = await (await m.context.request.get('/api/auth/session')).json();
  if (subscribe) {
    const comp = await admin
      .context()
      .request.put(`/api/admin/members/${me.user.id}/complimentary`, { data: { until: null } });
    expect(comp.status()).toBe(200);
  }
  const listed = await m.context.request.put('/api/profile', { data: { in_directory: true } });
  expect(listed.status()).toBe(200);
  await m.page.goto('/members');
  await expect(
    m.page.getByRole('heading', { name: new RegExp(`Welcome back, ${name}`) }),
  ).toBeVisible();
  return m;
}

test('a member asks, another answers live, the asker accepts; the owner announces', async ({
  browser,
}) => {
  test.setTimeout(150_000 * (process.env.CI ? 2 : 1)); // CI runs beside other suites on two cores
  const stamp = Date.now();
  const question = `How do agents remember? ${stamp}`;

  const admin = await confirmedPage(browser, ADMIN_EMAIL, { fullName: 'Olga Owner' });
  if (!admin.confirmedNow) await admin.page.goto('/members');
  const ada = await member(browser, admin.page, `Ada Asker ${stamp}`, true);
  const bob = await member(browser, admin.page, 'Bob Builder', true);
  const fay = await member(browser, admin.page, 'Fay Free', false);

  const a = ada.page;
  const b = bob.page;
  await a.setViewportSize({ width: 375, height: 800 });
  await b.setViewportSize({ width: 1440, height: 900 });

  // Bob keeps the list open: the question must arrive without a reload, and his bell rise.
  const bobBell = b.getByRole('button', { name: /^Notifications/ });
  await expect(bobBell).toHaveAccessibleName('Notifications');
  await b.getByRole('tab', { name: 'Community' }).click();
  await expect(
    b.getByRole('tabpanel', { name: 'Community' }).getByRole('heading', { name: 'Community' }),
  ).toBeVisible();

  // Ada asks.
  await a.getByRole('tab', { name: 'Community' }).click();
  await a.getByRole('button', { name: 'New thread' }).click();
  const form = a.getByRole('form', { name: 'New thread' });
  await form.getByLabel('Category').selectOption('question');
  await form.getByLabel('Title').fill(question);
  await form
    .getByLabel('Body')
    .fill('I need **memory** across sessions, @Bob Builder. See https://example.com/notes');
  expect(await axeAtBothWidths(a, '[role="tabpanel"]')).toEqual([]);
  await form.getByRole('button', { name: 'Post thread' }).click();
  await expect(a).toHaveURL(/\/members\/community\/[^/]+$/);
  await expect(a.getByRole('heading', { name: question })).toBeVisible();
  const link = a.getByRole('link', { name: 'https://example.com/notes' });
  await expect(link).toHaveAttribute('rel', 'nofollow ugc noopener');
  expect(await axeAtBothWidths(a, '[role="tabpanel"]')).toEqual([]);

  // Live in Bob's list, and he was mentioned: his bell counts it without a reload.
  const row = b.getByRole('link', { name: question });
  await expect(row).toBeVisible();
  await expect(bobBell).toHaveAccessibleName('Notifications 1 unread', { timeout: 20_000 });
  expect(await axeAtBothWidths(b, '[role="tabpanel"]')).toEqual([]);
  await shots.now(b, 'community-list');
  // He opens it, mentions Ada through the picker and answers.
  await row.click();
  await expect(b.getByRole('heading', { name: question })).toBeVisible();
  const answer = b.getByLabel('Your reply');
  await answer.fill('Try a vector store, @Ada');
  await b
    .getByRole('list', { name: 'Mention a member' })
    .getByRole('button', { name: `@Ada Asker ${stamp}` })
    .click();
  await expect(answer).toHaveValue(`Try a vector store, @Ada Asker ${stamp} `);
  await answer.pressSequentially('with embeddings.');
  const adaBell = a.getByRole('button', { name: /^Notifications/ });
  await expect(adaBell).toHaveAccessibleName('Notifications');
  await b.getByRole('button', { name: 'Post reply' }).click();
  await expect(b.getByText(/with embeddings\./)).toBeVisible();
  expect(await axeAtBothWidths(b, '[role="tabpanel"]')).toEqual([]);

  // Ada's open thread shows the answer live, and her bell counts the reply that mentions her.
  const replies = a.getByRole('list', { name: 'Replies' });
  await expect(replies.getByText(/with embeddings\./)).toBeVisible();
  await expect(adaBell).toHaveAccessibleName(/^Notifications \d+ unread$/, { timeout: 20_000 });
  await shots.now(a, 'community-thread');
  await replies.getByRole('button', { name: 'Accept answer' }).click();
  await expect(replies.getByText('Accepted answer')).toBeVisible();
  await expect(b.getByText('Accepted answer')).toBeVisible();
  expect(await axeAtBothWidths(a, '[role="tabpanel"]')).toEqual([]);

  // The owner saves the answered question into the knowledge base, editing it first.
  const o = admin.page;
  await o.goto(a.url());
  await o.getByRole('button', { name: 'Save to knowledge base' }).click();
  const kb = o.getByRole('dialog', { name: 'Save to the knowledge base' });
  await expect(kb.getByLabel('Title')).toHaveValue(question);
  await expect(kb.getByLabel('Content')).toHaveValue(
    /## Answer\n\nTry a vector store, @Ada Asker \d+ with embeddings\./,
  );
  expect(await axeAtBothWidths(o, '[role="dialog"]')).toEqual([]);
  await kb.getByLabel('Title').fill(`Agent memory ${stamp}`);
  await kb.getByRole('button', { name: 'Save document' }).click();
  await expect(kb).toBeHidden();
  const docs = await (await admin.context.request.get('/api/admin/documents?limit=100')).json();
  expect(JSON.stringify(docs)).toContain(`Agent memory ${stamp}`);

  // The owner announces.
  await o.goto('/members');
  await o.getByRole('tab', { name: 'Community' }).click();
  await o.getByRole('button', { name: 'New thread' }).click();
  const news = o.getByRole('form', { name: 'New thread' });
  await news.getByLabel('Category').selectOption('announcement');
  await news.getByLabel('Title').fill(`New cohort ${stamp}`);
  await news.getByLabel('Body').fill('The next cohort starts Monday.');
  await news.getByRole('button', { name: 'Post thread' }).click();
  await expect(o.getByRole('heading', { name: `New cohort ${stamp}` })).toBeVisible();
  await expect(o.getByText('Pinned')).toBeVisible();

  // A free member sees the announcement and a prompt to subscribe, and no question.
  const f = fay.page;
  await f.getByRole('tab', { name: 'Community' }).click();
  await expect(f.getByRole('link', { name: `New cohort ${stamp}` })).toBeVisible();
  await expect(f.getByRole('link', { name: question })).toHaveCount(0);
  await expect(f.getByText('Subscribe to read every thread')).toBeVisible();
  await expect(f.getByRole('button', { name: 'New thread' })).toHaveCount(0);
  expect(await axeAtBothWidths(f, '[role="tabpanel"]')).toEqual([]);

  // And on every member's dashboard while it is pinned.
  await f.getByRole('tab', { name: 'Dashboard' }).click();
  await expect(
    f
      .getByRole('tabpanel', { name: 'Dashboard' })
      .getByRole('link', { name: `New cohort ${stamp}` }),
  ).toBeVisible();
  expect(await axeAtBothWidths(f, '[role="tabpanel"]')).toEqual([]);
});
