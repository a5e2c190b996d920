import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { confirmedPage } from './accounts';
import { whenHydrated } from './hydration';
import { type FakeAI, startFakeAI, startTribe, type TribeServer } from './tribe-server';

/**
 * The AI answers with a language model: a server of its own whose AI_BASE_URL is the fake
 * OpenAI-compatible provider (bin/fakeai, aitest.Echo). The fake calls search_knowledge_base with
 * the question, then answers "Fake model answer. The search found: {titles}." a word per chunk,
 * so this checks the tool round trip and the streaming through the real server into the pages.
 */

const ADMIN_EMAIL = 'ai-admin@example.test';
let fake: FakeAI;
let server: TribeServer;

test.beforeAll(async () => {
  fake = await startFakeAI();
  server = await startTribe('tribe-ai-server.log', {
    DATABASE_URL: '',
    TRIBE_ADMIN_EMAILS: ADMIN_EMAIL,
    AI_BASE_URL: fake.url,
    AI_MODEL: 'fake-model',
  });
});

test.afterAll(async () => {
  await server?.stop();
  await fake?.stop();
});

test('the agent page shows the model calling its search tool and streams its answer', async ({
  browser,
}) => {
  // A journey: two streamed answers, a provider failure, screenshots and axe at two widths (32 s
  // alone on a busy machine).
  test.setTimeout(90_000 * (process.env.CI ? 2 : 1));
  const { context, page } = await confirmedPage(browser, ADMIN_EMAIL, { baseURL: server.baseURL });
  await page.goto('/agent-test');
  const box = page.getByRole('textbox', { name: 'Prompt' });
  await box.fill('What does the tribe cost?');
  await box.press('Enter');

  const log = page.getByRole('log', { name: 'Conversation' });
  const search = page
    .getByRole('list', { name: 'Tool calls' })
    .getByRole('listitem')
    .filter({ hasText: 'search_knowledge_base' });
  // Two searches: the one the server makes for every answer (its passages go into the system
  // prompt), then the one the model asked for.
  await expect(search).toHaveCount(2);
  for (const item of await search.all()) {
    await expect(item).toContainText('What does the tribe cost?');
    await expect(item).toHaveAttribute('data-state', 'completed');
  }
  await expect(log).toContainText('Fake model answer. The search found:');
  // The titles come from the site's own knowledge base, through the tool the model called.
  await expect(log).toContainText(/The search found: .*Tribe/i);
  await expect(log).not.toContainText('Offline answer');

  // A provider failing mid-answer (members-area.md §4 Chat, §8): the empty assistant message is
  // removed, the reason is a destructive toast, and Retry asks again. Nothing says "AI Error" in
  // the conversation and no red banner repeats the toast.
  // The answer's text can be complete before its stream closes; Enter is ignored while a
  // stream is open (the prompt stays in the box), so wait for the stream to end first.
  await expect(page.getByRole('button', { name: 'Stop' })).toHaveCount(0);
  await expect(log.getByRole('button', { name: 'Copy answer' })).toHaveCount(1);
  const answersBefore = await log.getByRole('listitem').count();
  await box.fill('Please [fail] now');
  await box.press('Enter');
  const toast = page.locator('[data-sonner-toast][data-type="error"]').filter({ hasText: 'Error' });
  await expect(toast).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(box).toBeEnabled();
  await expect(log.getByRole('listitem')).toHaveCount(answersBefore + 1);
  await expect(log.getByRole('listitem').last()).toContainText('Please [fail] now');
  await expect(log).not.toContainText('AI Error');
  const reason = (await toast.locator('[data-description]').textContent())?.trim() ?? '';
  expect(reason).not.toBe('');
  await expect(page.getByText(reason, { exact: true })).toHaveCount(1);
  mkdirSync('test-results/agent', { recursive: true });
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.getByRole('button', { name: 'Retry' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/agent/upstream-failure-${width}.png` });
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `axe at ${width}px`).toEqual([]);
  }
  // Retry asks the same question again (and fails the same way here).
  await page.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByRole('button', { name: 'Retry' })).toBeVisible();
  await expect(log.getByRole('listitem')).toHaveCount(answersBefore + 1);
  await context.close();
});

test("the console's ask streams the model's answer", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto('/');
  const slot = page.locator('[data-slot="console"]');
  const input = slot.getByRole('textbox', { name: 'Console command' });
  await whenHydrated(input);
  await input.fill('ask what does the tribe cost');
  await input.press('Enter');
  await expect(slot.getByTestId('console-output')).toContainText('Fake model answer', {
    timeout: 20_000,
  });
  await expect(input).toBeEnabled({ timeout: 20_000 });
  await expect(slot.getByRole('log', { name: 'Console output' })).toContainText(
    'Fake model answer',
  );
  await context.close();
});
