import { startTribe } from './tribe-server';

/**
 * Starts `tribe serve` on a free loopback port with a fresh data directory and waits for
 * /readyz. The base URL is handed to the workers through E2E_BASE_URL. Returns the teardown.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (process.env.E2E_BASE_URL) {
    return async () => {};
  }
  // Each spec that signs in as an admin has an address of its own, so no spec depends on which
  // one made an account first.
  const server = await startTribe('tribe-server.log', {
    TRIBE_ADMIN_EMAILS:
      'admin@example.test,agent-admin@example.test,showup-admin@example.test,booking-admin@example.test,projects-admin@example.test,data-admin@example.test,seats-admin@example.test,notify-admin@example.test,room-admin@example.test',
  });
  process.env.E2E_BASE_URL = server.baseURL;
  return server.stop;
}
