import type { FullConfig } from '@playwright/test';
import { startTribe, type TribeServer } from './tribe-server';

/**
 * Starts one `tribe serve` per worker, each on a free loopback port with a fresh data directory,
 * and waits for /readyz. Worker N reads its server from E2E_BASE_URL_N (playwright.config.ts), so
 * the workers share no state and a spec file sees only what its own worker did before it, as when
 * the suite ran on one worker. Set E2E_BASE_URL to test one already running server instead (then
 * run with --workers=1). Returns the teardown.
 */
export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) {
    return async () => {};
  }
  // Each spec that signs in as an admin has an address of its own, so no spec depends on which
  // one made an account first.
  const env = {
    TRIBE_ADMIN_EMAILS:
      'admin@example.test,agent-admin@example.test,showup-admin@example.test,booking-admin@example.test,projects-admin@example.test,data-admin@example.test,seats-admin@example.test,notify-admin@example.test,room-admin@example.test,forum-admin@example.test,inbox-admin@example.test,library-admin@example.test,waitlist-admin@example.test',
  };
  const count = Math.max(1, config.workers);
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => startTribe(`tribe-server-${i}.log`, env)),
  );
  const servers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async () => {
    await Promise.all(servers.map((s: TribeServer) => s.stop()));
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  servers.forEach((s, i) => {
    process.env[`E2E_BASE_URL_${i}`] = s.baseURL;
  });
  return stopAll;
}
