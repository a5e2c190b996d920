/**
 * The members area's billing timers (spec §4 and §9), kept apart from React so they can be tested
 * with fake timers: the wait for a subscription after Checkout returns, and the refreshes after
 * the customer portal opens in another tab.
 */
import type { Subscription } from '@/lib/api-types/billing';
import type { MembersOverview } from '@/lib/api-types/web';

/** After `success=true`: wait 2 s, then up to 15 attempts of sync, 1 s, read, 2 s (spec §9). */
export const CHECKOUT_POLL = {
  firstDelayMs: 2_000,
  attempts: 15,
  afterSyncMs: 1_000,
  betweenMs: 2_000,
} as const;

/** After the portal opens: every 3 s for 30 s once the tab is visible again, for 5 minutes. */
export const PORTAL_REFRESH = { everyMs: 3_000, forMs: 30_000, capMs: 300_000 } as const;

/** The subscription refreshes by itself this often (spec §9). */
export const AUTO_REFRESH_MS = 300_000;

/** Checkout has landed: the subscription is active and linked to a Stripe subscription. */
export function isActivated(subscription: Subscription | null | undefined): boolean {
  return subscription?.status === 'active' && subscription.has_subscription_id === true;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

export interface CheckoutPollOptions {
  /** Asks the server to re-read the subscription from Stripe (`POST /api/billing/refresh`). */
  sync: () => Promise<unknown>;
  /** Reads the members overview again. */
  read: () => Promise<MembersOverview | undefined>;
  signal: AbortSignal;
}

/**
 * Waits for the subscription Checkout created (spec §4, "Checkout return"). Resolves true as soon
 * as it is active with a subscription id, false after the last attempt or when `signal` aborts.
 * A failed sync or read counts as an attempt and is only logged.
 */
export async function pollCheckout({ sync, read, signal }: CheckoutPollOptions): Promise<boolean> {
  await sleep(CHECKOUT_POLL.firstDelayMs, signal);
  for (let attempt = 0; attempt < CHECKOUT_POLL.attempts && !signal.aborted; attempt += 1) {
    await sync().catch((error: unknown) => console.warn('subscription sync failed', error));
    await sleep(CHECKOUT_POLL.afterSyncMs, signal);
    if (signal.aborted) break;
    const overview = await read().catch((error: unknown) => {
      console.warn('subscription read failed', error);
      return undefined;
    });
    if (signal.aborted) break;
    if (isActivated(overview?.subscription)) return true;
    await sleep(CHECKOUT_POLL.betweenMs, signal);
  }
  return false;
}

/**
 * After the customer portal opened in another tab: each time this tab becomes visible again,
 * refresh every 3 s for 30 s; nothing more after 5 minutes. Returns the stop function.
 */
export function watchPortalReturn(refresh: () => void, doc: Document = document): () => void {
  let ticker: ReturnType<typeof setInterval> | undefined;
  const endBurst = () => {
    clearInterval(ticker);
    ticker = undefined;
  };
  const onVisibility = () => {
    if (doc.visibilityState !== 'visible') return;
    endBurst();
    // Now and every 3 s after: ten refreshes within the 30 s.
    refresh();
    let left = PORTAL_REFRESH.forMs / PORTAL_REFRESH.everyMs - 1;
    ticker = setInterval(() => {
      refresh();
      left -= 1;
      if (left <= 0) endBurst();
    }, PORTAL_REFRESH.everyMs);
  };
  const stop = () => {
    endBurst();
    clearTimeout(cap);
    doc.removeEventListener('visibilitychange', onVisibility);
  };
  const cap = setTimeout(stop, PORTAL_REFRESH.capMs);
  doc.addEventListener('visibilitychange', onVisibility);
  return stop;
}
