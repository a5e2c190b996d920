import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * What the browser specs check on every new screen: axe's serious and critical findings, and
 * screenshots at a phone's and a desk's width (with no sideways scrolling), saved for a person
 * to look at.
 */

/** The two widths every screen is looked at: a phone and a desk. */
export const WIDTHS = [375, 1440] as const;

async function setWidth(page: Page, width: number) {
  await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
}

/** Serious and critical axe findings on the page (or the part `include` selects), one line each. */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  // label-content-name-mismatch is experimental in axe, so off unless asked for: a button whose
  // name does not start with its visible text cannot be spoken to by voice control.
  let builder = new AxeBuilder({ page }).options({
    rules: { 'label-content-name-mismatch': { enabled: true } },
  });
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Runs `each` at both widths, then gives the page back its own size. */
async function atBothWidths(page: Page, each: (width: number) => Promise<void>) {
  const before = page.viewportSize();
  for (const width of WIDTHS) {
    await setWidth(page, width);
    await each(width);
  }
  if (before) await page.setViewportSize(before);
}

/** `seriousViolations` at both widths, each line prefixed with its width. */
export async function axeAtBothWidths(page: Page, include?: string): Promise<string[]> {
  const found: string[] = [];
  await atBothWidths(page, async (width) => {
    for (const line of await seriousViolations(page, include)) found.push(`${width}px ${line}`);
  });
  return found;
}

async function noSidewaysScroll(page: Page, what: string, width: number) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${what} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
}

/** Screenshots into `dir`, named `{name}-{width}.png`. */
export function screenshots(dir: string) {
  const path = (name: string, width: number) => {
    mkdirSync(dir, { recursive: true });
    return `${dir}/${name}-${width}.png`;
  };
  return {
    /** The page at both widths (the whole page unless `fullPage` is false), never wider than the screen. */
    async page(page: Page, name: string, fullPage = true) {
      await atBothWidths(page, async (width) => {
        await page.waitForTimeout(150);
        await page.screenshot({ path: path(name, width), fullPage });
        await noSidewaysScroll(page, name, width);
      });
    },
    /** One part of the page at both widths. */
    async part(page: Page, part: Locator, name: string) {
      await atBothWidths(page, async (width) => {
        await page.waitForTimeout(150);
        await part.screenshot({ path: path(name, width) });
      });
    },
    /** The whole page at the width it has now. */
    async now(page: Page, name: string) {
      await page.screenshot({ path: path(name, page.viewportSize()?.width ?? 0), fullPage: true });
    },
  };
}
