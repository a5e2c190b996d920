import { expect, type Locator, type Page, test } from '@playwright/test';
import { whenHydrated } from './hydration';

/** The console on Home, hydrated and ready for keys. */
async function openConsole(page: Page, { reducedMotion = true } = {}) {
  await page.emulateMedia({ reducedMotion: reducedMotion ? 'reduce' : 'no-preference' });
  await page.goto('/');
  const slot = page.locator('[data-slot="console"]');
  const input = slot.getByRole('textbox', { name: 'Console command' });
  await whenHydrated(input);
  return {
    slot,
    input,
    output: slot.getByTestId('console-output'),
    log: slot.getByRole('log', { name: 'Console output' }),
  };
}

/** Types a command and waits until the console is idle again. */
async function run(input: Locator, command: string) {
  await input.fill(command);
  await input.press('Enter');
  await expect(input).toBeEnabled({ timeout: 20_000 });
  await expect(input).toHaveAttribute('placeholder', 'Type command...');
}

test.describe('console', () => {
  test('the prerendered Home shows the first transcript before any script runs', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    const slot = page.locator('[data-slot="console"]');
    await expect(slot).toContainText('$ services');
    await expect(slot).toContainText('$299');
    await expect(slot.getByRole('link', { name: 'Go to booking page' })).toHaveAttribute(
      'href',
      '/booking',
    );
    await context.close();
  });

  test('help and services answer from the content, announced once in the live log', async ({
    page,
  }) => {
    const { input, output, log } = await openConsole(page);
    await input.fill('help');
    // "help" answers from the content in a few milliseconds, faster than a test can poll: record
    // every state the input passes through, and look for disabled and "Processing..." in one.
    await input.evaluate((el: HTMLInputElement) => {
      const seen: string[] = [];
      (window as unknown as { consoleStates: string[] }).consoleStates = seen;
      new MutationObserver(() => seen.push(`${el.disabled}|${el.placeholder}`)).observe(el, {
        attributes: true,
        attributeFilter: ['disabled', 'placeholder'],
      });
    });
    await input.press('Enter');
    await expect(input).toBeEnabled();
    await expect(input).toHaveAttribute('placeholder', 'Type command...');
    const states = await page.evaluate(
      () => (window as unknown as { consoleStates: string[] }).consoleStates,
    );
    expect(states).toContain('true|Processing...');
    await expect(input).toBeFocused();
    await expect(output).toContainText('Available commands:');
    await expect(output).toContainText('tools/call <name> <json>');
    await expect(log).toContainText('help:');
    await expect(log).toContainText('Available commands:');

    await run(input, 'SERVICES');
    for (const price of ['$149', '$299', '$499', '$250/month']) {
      await expect(output).toContainText(price);
    }
    await expect(log.getByText(/^SERVICES:/)).toHaveCount(1);

    await run(input, 'booking');
    const link = output.getByRole('link', { name: 'Go to booking page' }).last();
    await link.click();
    await expect(page).toHaveURL(/\/booking$/);
  });

  test('search finds site content; resources/read and tools/call read the published files', async ({
    page,
  }) => {
    const { input, output } = await openConsole(page);
    await run(input, 'search tribe membership');
    await expect(output).toContainText('[1] ');
    await expect(output).toContainText('% match');

    await run(input, 'search');
    await expect(output).toContainText('Usage: search <query>');
    await expect(output).toContainText('Example: search engineering');

    await run(input, 'resources/read /content/about.json');
    await expect(output).toContainText('"handle": "rUv"');

    await run(input, 'resources/read content/nope.json');
    await expect(output).toContainText('Resource not found: /content/nope.json (404)');

    await run(
      input,
      'tools/call read_json_path {"uri":"/content/services.json","path":"tribe.price_monthly"}',
    );
    await expect(output).toContainText('"value": 250');

    await run(input, 'tools/call search {oops');
    await expect(output).toContainText('Tool execution failed:');

    await run(input, 'clear');
    await expect(output).toBeEmpty();
  });

  test('an unknown command shows search results, then a streamed offline answer', async ({
    page,
  }) => {
    const { input, output, log } = await openConsole(page);
    await run(input, 'tribe coaching sessions');
    await expect(output).toContainText(
      "Command not recognized: 'tribe coaching sessions'. Type 'help' for available commands.",
    );
    await expect(output).toContainText('% match');
    await expect(output).toContainText('Offline answer:');
    await expect(log).toContainText('Offline answer:');
  });

  test('the offline answer to an unknown command reads as the question, then the passages', async ({
    page,
  }) => {
    const { input, output } = await openConsole(page);
    await run(input, 'what does the tribe cost');
    await expect(output).toContainText('% match');
    const answer = output.locator('p').last();
    await expect(answer).toContainText('Offline answer: no language model is configured');
    const text = (await answer.textContent()) ?? '';
    expect(text).toContain('The search for “what does the tribe cost” found');
    expect(text).toMatch(/found these \d passages: 1\. The Tribe: membership, price and capacity/);
    // The passages the console sends along with the question are context, not the question.
    expect(text).not.toContain('Passages a search of the site found');
    expect(text).not.toMatch(/\[1\] /);
  });

  test('ask streams an answer with text, typed out; a click finishes the typing', async ({
    page,
  }) => {
    const { input, output, log } = await openConsole(page, { reducedMotion: false });
    await input.fill('ask what does the tribe cost');
    await input.press('Enter');
    const answer = output.locator('p').last();
    await expect(answer).toContainText('Offline answer', { timeout: 20_000 });
    await expect(input).toBeEnabled({ timeout: 20_000 });
    // Still typing: cut short, and hidden from screen readers until whole.
    await expect(output.locator('div[aria-hidden="true"]')).toHaveCount(1);
    const partial = (await answer.textContent()) ?? '';
    await output.click();
    await expect(output.locator('div[aria-hidden="true"]')).toHaveCount(0);
    const whole = (await answer.textContent()) ?? '';
    expect(whole.length).toBeGreaterThan(partial.length);
    expect(whole).toMatch(/Offline answer: no language model is configured/);
    await expect(log).toContainText('ask what does the tribe cost:');
    await expect(log).toContainText('Offline answer: no language model is configured');
    await expect(input).toBeFocused();
  });

  test('Up recalls history, Tab completes, Ctrl+L clears', async ({ page }) => {
    const { input, output } = await openConsole(page);
    await run(input, 'skills');
    await run(input, 'about');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('about');
    await input.press('ArrowUp');
    await expect(input).toHaveValue('skills');
    await input.press('ArrowDown');
    await expect(input).toHaveValue('about');

    await input.fill('lin');
    await input.press('Tab');
    await expect(input).toHaveValue('linkedin ');
    await expect(input).toBeFocused();
    await input.press('Enter');
    await expect(output).toContainText('Connect on LinkedIn.');

    await input.press('Control+l');
    await expect(output).toBeEmpty();
  });

  test('at 320 px the console fits without sideways scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 700 });
    const { input, output } = await openConsole(page);
    await run(input, 'resources/read /mcp/search-index.json');
    await run(input, 'contact');
    await expect(output).toContainText('linkedin');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(320);
    const box = await output.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(box.scroll).toBeLessThanOrEqual(box.client);
  });
  for (const width of [320, 375, 1440]) {
    test(`help at ${width} px keeps every command name whole and its description apart`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      const { input, output } = await openConsole(page);
      await run(input, 'help');
      // Where each name and its description sit: a name on one line, the description beside it or
      // on a line of its own below, never wrapped in among the names ("resources/read <uri> read").
      const rows = await output.evaluate((el) => {
        const lineHeight = (node: Element) => Number.parseFloat(getComputedStyle(node).lineHeight);
        return [...el.querySelectorAll('span')]
          .filter((span) =>
            /^(resources\/read <uri>|tools\/call <name> <json>)$/.test(
              span.textContent?.trim() ?? '',
            ),
          )
          .map((name) => {
            const what = name.nextElementSibling as HTMLElement;
            const n = name.getBoundingClientRect();
            const w = what.getBoundingClientRect();
            return {
              name: name.textContent?.trim(),
              what: what.textContent?.trim(),
              nameLines: Math.round(n.height / lineHeight(name)),
              whatLines: Math.round(w.height / lineHeight(what)),
              beside: Math.abs(w.top - n.top) < 2 && w.left >= n.right - 1,
              below: w.top >= n.bottom - 1 && w.left > n.left,
            };
          });
      });
      expect(rows.map((r) => r.name)).toEqual(['resources/read <uri>', 'tools/call <name> <json>']);
      for (const row of rows) {
        expect(row.nameLines, `${row.name} on one line`).toBe(1);
        expect(row.whatLines, `${row.what} on one line`).toBe(1);
        expect(row.beside || row.below, `${row.what} beside or below ${row.name}`).toBe(true);
      }
      expect(rows[0]?.what).toBe('read one resource');
      expect(rows[1]?.what).toBe('call a tool');
      const box = await output.evaluate((el) => ({
        scroll: el.scrollWidth,
        client: el.clientWidth,
      }));
      expect(box.scroll).toBeLessThanOrEqual(box.client);
      await output.getByText('published resources').scrollIntoViewIfNeeded();
      await page
        .locator('[data-slot="console"]')
        .screenshot({ path: `test-results/console/help-${width}.png` });
    });
  }
});
