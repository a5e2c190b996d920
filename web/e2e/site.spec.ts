import { expect, type Page, test } from '@playwright/test';
import { whenHydrated } from './hydration';

const HOME_HEADING = 'Agentic Coaching & Mentoring';

function collectConsoleErrors(page: Page): string[] {
  const messages: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') messages.push(msg.text());
  });
  return messages;
}

test.describe('public site', () => {
  test('home page loads with its headline', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: HOME_HEADING })).toBeVisible();
    await expect(
      page.getByText('Personalized AI Mastery: One-on-One Consultations Available'),
    ).toBeVisible();
    await expect(page).toHaveTitle(/rUv/);
    await expect(page.getByRole('contentinfo')).toContainText(
      `© ${new Date().getFullYear()} rUv. All rights reserved.`,
    );
  });

  test('navigation leads to About and starts it at the top', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(page.getByTestId('scroll-percent')).not.toHaveText('0%');

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'About' })
      .click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole('heading', { level: 1, name: 'About rUv' })).toBeVisible();
    await expect(page).toHaveTitle('About | rUv');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('a keyboard user lands in the new page, and Tab goes on from there', async ({ page }) => {
    await page.goto('/');
    const about = page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'About' });
    await whenHydrated(about);
    await about.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'About rUv' })).toBeVisible();
    await expect(page.getByRole('main')).toBeFocused();
    // The next Tab reaches something inside the page, not the navigation again.
    await page.keyboard.press('Tab');
    expect(
      await page.evaluate(() => document.querySelector('main')?.contains(document.activeElement)),
    ).toBe(true);
  });

  test('scroll progress shows the percentage scrolled', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 500 });
    await page.goto('/');
    const percent = page.getByTestId('scroll-percent');
    await expect(percent).toHaveText('0%');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(percent).toHaveText('100%');
    await expect(page.getByRole('progressbar', { name: 'Page scrolled' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
  });
});

test.describe('404 page', () => {
  test('answers 404, echoes the path and logs it', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const response = await page.goto('/nonexistent-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Page Not Found/);
    await expect(page.locator('code', { hasText: '/nonexistent-page' })).toBeVisible();
    await expect(page.getByText(/does not exist/)).toBeVisible();
    await expect(page.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
    await expect(page).toHaveTitle('Page not found | rUv');
    await expect
      .poll(() => errors)
      .toContain('404 Error: User attempted to access non-existent route: /nonexistent-page');
  });

  test('hydrates the server-rendered page without a mismatch', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto('/<b>gone</b>');
    const code = page.locator('main code');
    // The browser sends the path percent-encoded, and its location.pathname says the same.
    await expect(code).toHaveText('/%3Cb%3Egone%3C/b%3E');
    await expect(page.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
    await page.waitForLoadState('networkidle');
    // Chromium reports the document's own 404 status as a console error too.
    expect(errors.filter((e) => !e.startsWith('Failed to load resource'))).toEqual([
      '404 Error: User attempted to access non-existent route: /%3Cb%3Egone%3C/b%3E',
    ]);
    // The app runs: its buttons navigate.
    await page.getByRole('button', { name: 'View Projects' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  });

  test('Return Home goes to /', async ({ page }) => {
    await page.goto('/missing/deep/path');
    await page.getByRole('button', { name: 'Return Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: HOME_HEADING })).toBeVisible();
  });

  test('View Projects goes to /projects', async ({ page }) => {
    await page.goto('/missing');
    await page.getByRole('button', { name: 'View Projects' }).click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
  });

  test('Go Back returns to the previous page', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1, name: 'About rUv' })).toBeVisible();
    await page.goto('/missing');
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(page.getByRole('heading', { level: 1, name: 'About rUv' })).toBeVisible();
  });

  test('Go Back after in-app navigation stays in the app', async ({ page }) => {
    await page.goto('/tribe');
    await page.evaluate(() => {
      window.history.pushState({}, '', '/no-such-thing');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.locator('code', { hasText: '/no-such-thing' })).toBeVisible();
    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/tribe$/);
  });
});

test.describe('404 page without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('arrives as HTML with its title, noindex and the requested path, escaped', async ({
    page,
  }) => {
    const response = await page.goto(`/it's-"gone"/<script>alert(1)</script>`);
    expect(response?.status()).toBe(404);
    const html = (await response?.text()) ?? '';
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('/it&#39;s-%22gone%22/%3Cscript%3Ealert(1)%3C/script%3E');
    await expect(page).toHaveTitle('Page not found | rUv');
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expect(page.locator('link[rel="canonical"]')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Page Not Found/);
    await expect(page.locator('main code')).toHaveText(
      `/it's-%22gone%22/%3Cscript%3Ealert(1)%3C/script%3E`,
    );
    await expect(page.getByText(/No such file or directory/)).toBeVisible();
    await expect(page.getByText(/does not exist/)).toBeVisible();
  });
});

test.describe('mobile menu', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  const bodyOverflow = (page: Page) =>
    page.evaluate(() => getComputedStyle(document.body).overflow);

  test('is opaque from the first frame it is on screen, with motion allowed', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1, name: 'About rUv' })).toBeVisible();
    // Record, on every frame from the click on, how opaque the menu and everything around it is.
    await page.evaluate(() => {
      const samples: string[] = [];
      (window as unknown as { menuSamples: string[] }).menuSamples = samples;
      const sample = () => {
        const menu = document.getElementById('mobile-menu');
        if (menu) {
          let opacity = 1;
          for (let el: Element | null = menu; el; el = el.parentElement) {
            opacity *= Number(getComputedStyle(el).opacity);
          }
          samples.push(`${opacity} ${getComputedStyle(menu).backgroundColor}`);
        }
        if (samples.length < 20) requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: /menu/ })).toBeVisible();
    await expect
      .poll(() =>
        page.evaluate(() => (window as unknown as { menuSamples: string[] }).menuSamples.length),
      )
      .toBeGreaterThanOrEqual(5);
    const samples = await page.evaluate(
      () => (window as unknown as { menuSamples: string[] }).menuSamples,
    );
    for (const sample of samples) expect(sample).toMatch(/^1 rgb\(\d+, \d+, \d+\)$/);
  });

  test('opens, locks scroll, and closes on link choice, back, Escape and widening', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const button = page.getByRole('button', { name: 'Open menu' });
    // While the modal is open the rest of the page is aria-hidden, so find the button by id ref.
    const trigger = page.locator('button[aria-controls="mobile-menu"]');
    const dialog = page.getByRole('dialog', { name: /menu/ });

    // Open, then choose a link.
    await button.click();
    await expect(dialog).toBeVisible();
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(() => bodyOverflow(page)).toBe('hidden');
    await dialog.getByRole('link', { name: 'About' }).click();
    await expect(page).toHaveURL(/\/about$/);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'About rUv' })).toBeVisible();
    await expect.poll(() => bodyOverflow(page)).not.toBe('hidden');

    // Back closes the menu and stays on the page.
    await button.click();
    await expect(dialog).toBeVisible();
    await page.goBack();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/about$/);
    await expect.poll(() => bodyOverflow(page)).not.toBe('hidden');

    // Back once more leaves the page: the menu did not leave extra history behind.
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1, name: HOME_HEADING })).toBeVisible();

    // Escape closes it and gives focus back to the button.
    await button.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(button).toBeFocused();

    // Widening to a tablet/desktop width closes it.
    await button.click();
    await expect(dialog).toBeVisible();
    await page.setViewportSize({ width: 1024, height: 812 });
    await expect(dialog).toBeHidden();
    await expect.poll(() => bodyOverflow(page)).not.toBe('hidden');
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('screenshots', () => {
  for (const width of [375, 1440]) {
    for (const [name, path] of [
      ['home', '/'],
      ['not-found', '/nonexistent'],
    ] as const) {
      test(`${name} at ${width}px`, async ({ page }) => {
        await page.setViewportSize({ width, height: width < 768 ? 812 : 900 });
        await page.emulateMedia({ reducedMotion: 'reduce' });
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.screenshot({
          path: `test-results/screenshots/${name}-${width}.png`,
          fullPage: true,
        });
      });
    }
  }

  test('mobile menu open at 375px', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/about');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await expect(page.getByRole('dialog', { name: /menu/ })).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/menu-375.png' });
  });

  test('header at 768px (md) and about at 1024px', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 768, height: 600 });
    await page.goto('/projects');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/projects-768.png' });
    await page.setViewportSize({ width: 1024, height: 800 });
    await page.goto('/about');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.screenshot({ path: 'test-results/screenshots/about-1024.png', fullPage: true });
  });
});
