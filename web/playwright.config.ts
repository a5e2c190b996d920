import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests drive the system Chromium against the real Go binary (`bin/tribe serve`).
 * e2e/global-setup.ts starts one server per worker, each on a free port with a fresh data
 * directory; a worker finds its own in E2E_BASE_URL_<TEST_PARALLEL_INDEX>. The spec files are
 * spread over the workers, and the tests of one file run in order on one worker.
 * E2E_WORKERS sets the number of workers (default: two per core, at most eight).
 * Set E2E_BASE_URL to test an already running server instead (e.g. `vite preview`).
 */
const external = process.env.E2E_BASE_URL;
// A worker spends most of its time waiting on pages and the server (the suite used five minutes of
// processor time in twenty on one worker), so two per core keep the cores busy.
const workers = external
  ? 1
  : Number(process.env.E2E_WORKERS) || Math.min(8, 2 * availableParallelism());
// Under CI the Go suite runs beside this one on the same cores: a slow step is not a failing one.
const slow = process.env.CI ? 2 : 1;
const ownServer = process.env[`E2E_BASE_URL_${process.env.TEST_PARALLEL_INDEX ?? ''}`];
// Chromium's headless shell (Debian's chromium-headless-shell) renders pages with the same engine
// without the full browser's window layer, GPU process and built-in UI pages: the same specs took 40 %
// less processor time and wall time than with the full browser in headless mode. It has no Push API,
// so the specs of push on a device (FULL_BROWSER_SPECS) run in the full browser, as users have it.
// CHROMIUM_PATH sets one browser for every spec.
const fullBrowser = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const headlessShell = '/usr/lib/chromium/chromium-headless-shell';
// The default when installed; E2E_HEADLESS_SHELL=0 runs every spec in the full browser. (The specs that
// once missed early states in the shell, such as the console's "Processing...", now record every
// state they pass through, and the whole suite passes in it.)
const shell =
  process.env.CHROMIUM_PATH ||
  (process.env.E2E_HEADLESS_SHELL !== '0' && existsSync(headlessShell)
    ? headlessShell
    : fullBrowser);
const FULL_BROWSER_SPECS = /inbox\.spec\.ts$/;
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results/artifacts',
  fullyParallel: false,
  workers,
  // Under CI the suite shares two cores with lint and its own servers, and a page can starve past a
  // timeout: a failed test runs once more, and CI's summary names every test that passed only then
  // (Playwright's "flaky"), so a flaky test is seen, not hidden. Locally a failure is final.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: 'list',
  timeout: 30_000 * slow,
  expect: { timeout: 7_000 * slow },
  globalSetup: './e2e/global-setup.ts',
  use: {
    ...devices['Desktop Chrome'],
    // Set by the global setup (or by the caller); read again in each worker.
    baseURL: external ?? ownServer,
    headless: true,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'headless-shell',
      testIgnore: FULL_BROWSER_SPECS,
      use: { launchOptions: { executablePath: shell, args: chromiumArgs } },
    },
    {
      name: 'chromium',
      testMatch: FULL_BROWSER_SPECS,
      use: { launchOptions: { executablePath: fullBrowser, args: chromiumArgs } },
    },
  ],
});
