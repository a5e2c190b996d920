import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests drive the system Chromium against the real Go binary (`bin/tribe serve`),
 * started by e2e/global-setup.ts on a free port with a fresh data directory.
 * Set E2E_BASE_URL to test an already running server instead (e.g. `vite preview`).
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/artifacts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'list',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  globalSetup: './e2e/global-setup.ts',
  use: {
    ...devices['Desktop Chrome'],
    // Set by the global setup (or by the caller); read again in each worker.
    baseURL: process.env.E2E_BASE_URL,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
