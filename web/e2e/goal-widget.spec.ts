import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { freePort, startTribe, type TribeServer } from './tribe-server';

/**
 * An operator's own goal widget (TRIBE_GOAL_WIDGET_URL): a server of the site whose setting points
 * at a script this test serves from another origin on this machine. The goal page and Home's goal
 * dialog must load that script (the Content-Security-Policy admitting its origin and no other),
 * hand it the configuration the spec names, and let it call its own service; the built-in planner
 * stays out of the way. Screenshots at 375 and 1440 px land in test-results/goal-widget/.
 */

const SHOTS = 'test-results/goal-widget';

/**
 * The widget: reads window.goalWidgetConfig, renders into its container, and asks its own origin
 * for a greeting (connect-src must admit it), as a third-party widget would.
 */
const WIDGET_JS = `(() => {
  const cfg = window.goalWidgetConfig;
  const root = cfg && document.querySelector(cfg.container);
  if (!root) throw new Error('goal widget: no configuration or container');
  const title = document.createElement('h2');
  title.textContent = 'Widget: ' + cfg.title;
  const goal = document.createElement('p');
  goal.dataset.testid = 'widget-goal';
  goal.textContent = cfg.defaultGoal;
  const meta = document.createElement('p');
  meta.dataset.testid = 'widget-meta';
  meta.textContent = 'model ' + cfg.model + ', AI ' + (cfg.aiEnabled ? 'on' : 'off');
  const reply = document.createElement('p');
  reply.dataset.testid = 'widget-reply';
  reply.textContent = 'asking…';
  root.append(title, goal, meta, reply);
  fetch(new URL('/hello', document.currentScript ? document.currentScript.src : location.href))
    .then((r) => r.text())
    .then((t) => { reply.textContent = t; })
    .catch((e) => { reply.textContent = 'blocked: ' + e; });
})();`;

let widget: Server;
let widgetOrigin = '';
const hits: string[] = [];
let server: TribeServer;

test.beforeAll(async () => {
  const port = await freePort();
  widgetOrigin = `http://127.0.0.1:${port}`;
  widget = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.setHeader('Access-Control-Allow-Origin', '*');
    if (req.url === '/goal-widget.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' });
      res.end(WIDGET_JS);
    } else if (req.url === '/hello') {
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('hello from the widget service');
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve) => widget.listen(port, '127.0.0.1', resolve));
  server = await startTribe('tribe-goal-widget-server.log', {
    DATABASE_URL: '',
    TRIBE_GOAL_WIDGET_URL: `${widgetOrigin}/goal-widget.js`,
  });
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (widget ? widget.close(() => resolve()) : resolve()));
});

/** Messages the browser logs when the Content-Security-Policy blocks something. */
function cspErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) errors.push(message.text());
  });
  return errors;
}

test('the goal page loads the operator’s widget with its configuration, and the widget reaches its service', async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  const blocked = cspErrors(page);
  const response = await page.goto('/goal');
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain(`script-src 'self' ${widgetOrigin};`);
  expect(csp).toContain(`connect-src 'self' ${widgetOrigin};`);

  const mount = page.locator('#goal-widget');
  await expect(mount.getByRole('heading', { name: 'Widget: Plan your goal' })).toBeVisible();
  await expect(mount.getByTestId('widget-goal')).toContainText('quantum computing');
  await expect(mount.getByTestId('widget-meta')).toHaveText('model gemini-2.5-flash, AI on');
  await expect(mount.getByTestId('widget-reply')).toHaveText('hello from the widget service');
  // The built-in planner is not shown, and the loading line has gone.
  await expect(page.getByRole('textbox', { name: 'Your goal' })).toHaveCount(0);
  await expect(page.getByText('Loading the goal planner…')).toHaveCount(0);
  expect(hits.filter((h) => h === '/goal-widget.js')).toHaveLength(1);
  expect(blocked).toEqual([]);

  mkdirSync(SHOTS, { recursive: true });
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/goal-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `/goal at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    expect(serious, `axe at ${width}px`).toEqual([]);
  }
  await context.close();
});

test('Home’s goal dialog loads the same widget', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  const blocked = cspErrors(page);
  await page.goto('/?goal=true');
  const dialog = page.getByRole('dialog', { name: /goal --plan/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Widget: Plan your goal' })).toBeVisible();
  await expect(dialog.getByTestId('widget-reply')).toHaveText('hello from the widget service');
  await expect(dialog.getByRole('button', { name: 'Plan my goal' })).toHaveCount(0);
  expect(blocked).toEqual([]);
  await context.close();
});

test('a script from any other origin stays blocked', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: server.baseURL });
  const page = await context.newPage();
  const blocked = cspErrors(page);
  await page.goto('/goal');
  await expect(page.locator('#goal-widget').getByTestId('widget-reply')).toHaveText(
    'hello from the widget service',
  );
  // The policy admits the widget's origin only: a script from elsewhere is refused.
  const loaded = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        const s = document.createElement('script');
        s.src = 'http://localhost:9/other.js';
        s.onload = () => resolve(true);
        s.onerror = () => resolve(false);
        document.body.append(s);
      }),
  );
  expect(loaded).toBe(false);
  expect(blocked.join('\n')).toContain('localhost:9');
  await context.close();
});
