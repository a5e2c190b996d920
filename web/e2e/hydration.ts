import { expect, type Locator } from '@playwright/test';

/**
 * Waits until React has hydrated `element` (its fiber props are attached). A prerendered page
 * shows its controls before the script runs; a key pressed before then does nothing, so tests
 * that drive a prerendered control by keyboard wait for this first.
 */
export async function whenHydrated(element: Locator): Promise<void> {
  await expect
    .poll(() =>
      element.evaluate((node) => Object.keys(node).some((key) => key.startsWith('__reactProps$'))),
    )
    .toBe(true);
}
