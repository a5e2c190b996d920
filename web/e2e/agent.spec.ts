import { type Browser, expect, type Page, test } from '@playwright/test';
import { account, confirmedPage } from './accounts';
import { screenshots, seriousViolations } from './checks';

/**
 * The AI agent test page and the goal planner end to end against the real server, which runs
 * without a language model (no AI_BASE_URL): answers come offline from the knowledge base, so this
 * checks the whole path from the page through the stream to the offline agent. The answers of a
 * model are tested in agent-ai.spec.ts, against a server of its own using the fake provider.
 * Screenshots at 375 and 1440 px land in test-results/agent/.
 */

const ADMIN_EMAIL = 'agent-admin@example.test'; // in TRIBE_ADMIN_EMAILS of the run (global-setup.ts)
const SHOTS = 'test-results/agent';
const shots = screenshots(SHOTS);

/** A page signed in as the run's admin. */
function adminPage(browser: Browser) {
  return confirmedPage(browser, ADMIN_EMAIL);
}

function toast(page: Page, text: string) {
  return page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
}

test('an admin seeds the knowledge base and watches the agent answer with its tools', async ({
  browser,
}) => {
  const { context, page } = await adminPage(browser);
  await page.goto('/agent-test');
  await expect(page.getByRole('heading', { level: 1, name: 'Agent test' })).toBeVisible();

  await page.getByRole('button', { name: 'Seed KB' }).click();
  await expect(toast(page, 'Knowledge base seeded')).toBeVisible();
  await expect(toast(page, 'Knowledge base seeded')).toContainText(
    /Seeded \d+ documents to knowledge base/,
  );

  const log = page.getByRole('log', { name: 'Conversation' });
  const pane = await log.boundingBox();
  expect(pane?.height).toBeGreaterThanOrEqual(399);

  await page
    .getByRole('button', { name: 'What coaching sessions do you offer, and what do they cost?' })
    .click();
  // The question shows at once; the search runs and completes; the offline answer streams in.
  await expect(log.getByRole('listitem').first()).toHaveText(
    /^You: What coaching sessions do you offer/,
  );
  const search = page
    .getByRole('list', { name: 'Tool calls' })
    .getByRole('listitem')
    .filter({ hasText: 'search_knowledge_base' });
  await expect(search).toHaveAttribute('data-state', 'completed');
  await expect(search).toContainText('What coaching sessions do you offer');
  await expect(log).toContainText('Offline answer: no language model is configured');
  await expect(log).toContainText(/The search for “What coaching sessions .*” found/);
  // Sources and the booking page are links, opened in a new tab.
  await expect(log.getByRole('link', { name: /\/booking$/ })).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('button', { name: 'Copy answer' })).toBeVisible();
  // The passages' titles are bold, rendered from the Markdown, never as raw asterisks.
  await expect(log.locator('strong').first()).toBeVisible();
  await expect(log).not.toContainText('**');

  // Typing: Shift+Enter adds a line, Enter sends.
  const box = page.getByRole('textbox', { name: 'Prompt' });
  await box.fill('');
  await box.press('Enter');
  await expect(page.getByText('Please enter a prompt')).toBeVisible();
  await box.pressSequentially('How much is the tribe');
  await box.press('Shift+Enter');
  await box.pressSequentially('per month?');
  await expect(box).toHaveValue('How much is the tribe\nper month?');
  await box.press('Enter');
  await expect(box).toHaveValue('');
  await expect(log.locator('li').filter({ hasText: 'Offline answer' })).toHaveCount(2);

  await expect(page).toHaveTitle('Agent test | rUv');
  expect(await seriousViolations(page)).toEqual([]);
  await shots.page(page, 'agent-admin');
  await page.getByRole('heading', { name: 'Conversation' }).scrollIntoViewIfNeeded();
  await shots.page(page, 'agent-admin-view', false);

  await page.getByRole('button', { name: 'Clear History' }).click();
  await expect(log).toContainText('No messages yet');
  await context.close();
});

test('a member is denied the agent page, with the toast and a way home', async ({ browser }) => {
  const context = await browser.newContext();
  await account(context, `e2e-agent-${Date.now()}@example.test`);
  const page = await context.newPage();
  await page.goto('/agent-test');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(toast(page, 'This page is only accessible to admin-domain users.')).toBeVisible();
  await expect(page.getByRole('log')).toHaveCount(0);
  await page.getByRole('button', { name: 'Return Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await context.close();
});

test('the goal planner streams the offline answer with the coaching sessions', async ({ page }) => {
  await page.goto('/goal');
  const goal = page.getByRole('textbox', { name: 'Your goal' });
  await expect(goal).toHaveValue(/quantum computing/);
  await page.getByRole('button', { name: 'Plan my goal' }).click();
  const plan = page.getByRole('log', { name: 'Your plan' });
  await expect(plan).toContainText('needs a language model');
  await expect(plan).toContainText('Deep Dive');
  await expect(plan).toContainText('$299');
  await expect(plan.getByRole('link', { name: /\/book\/session-30$/ })).toHaveAttribute(
    'target',
    '_blank',
  );
  expect(await seriousViolations(page)).toEqual([]);
  await shots.page(page, 'goal');
});

test('the goal dialog on Home plans too', async ({ page }) => {
  await page.goto('/?goal=true');
  const dialog = page.getByRole('dialog', { name: /goal --plan/ });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Plan my goal' }).click();
  await expect(dialog.getByRole('log', { name: 'Your plan' })).toContainText('Quick Consultation');
  await shots.page(page, 'goal-dialog', false);
});
