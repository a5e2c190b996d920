import { afterEach, beforeEach, vi } from 'vitest';

/** The process environment, where Node reads the browser's zone (TZ) again when it changes. */
export const env = (
  globalThis as unknown as { process: { env: Record<string, string | undefined> } }
).process.env;

/**
 * Runs each test of the calling block at `instant` with the browser in `zone` (only Date is
 * faked, so timers still run), and restores both afterwards.
 */
export function atInstantInZone(instant: string, zone: string): void {
  let saved: string | undefined;
  beforeEach(() => {
    saved = env.TZ;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(instant));
    env.TZ = zone;
  });
  afterEach(() => {
    vi.useRealTimers();
    env.TZ = saved;
  });
}
