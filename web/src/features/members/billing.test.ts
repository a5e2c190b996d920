import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Subscription } from '@/lib/api-types/billing';
import type { MembersOverview } from '@/lib/api-types/web';
import { isActivated, PORTAL_REFRESH, pollCheckout, watchPortalReturn } from './billing';

const tribe = {
  capacity: 50,
  active_members: 1,
  held: 0,
  spots_left: 49,
  at_capacity: false,
  payments_enabled: true,
  plans: [],
};

function overview(subscription: Subscription | null): MembersOverview {
  return { subscription, is_subscriber: false, is_admin: false, tribe, group_chat_url: null };
}

const active: Subscription = {
  status: 'active',
  current_period_end: '2027-01-01T00:00:00Z',
  cancel_at_period_end: false,
  complimentary: false,
  has_subscription_id: true,
};

describe('isActivated', () => {
  it('wants an active status and a Stripe subscription id', () => {
    expect(isActivated(active)).toBe(true);
    expect(isActivated({ ...active, has_subscription_id: false })).toBe(false);
    expect(isActivated({ ...active, status: 'incomplete' })).toBe(false);
    expect(isActivated(null)).toBe(false);
    expect(isActivated(undefined)).toBe(false);
  });
});

describe('pollCheckout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('waits 2 s, then syncs, waits 1 s, reads, waits 2 s, until the subscription is active', async () => {
    const log: string[] = [];
    const start = Date.now();
    const at = () => Date.now() - start;
    let reads = 0;
    const sync = vi.fn(async () => {
      log.push(`sync@${at()}`);
    });
    const read = vi.fn(async () => {
      reads += 1;
      log.push(`read@${at()}`);
      return overview(reads === 3 ? active : null);
    });
    const done = pollCheckout({ sync, read, signal: new AbortController().signal });
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(done).resolves.toBe(true);
    expect(log).toEqual([
      'sync@2000',
      'read@3000',
      'sync@5000',
      'read@6000',
      'sync@8000',
      'read@9000',
    ]);
  });

  it('gives up after 15 attempts, counting failed syncs and reads', async () => {
    const sync = vi.fn(async () => {
      throw new Error('Stripe is down');
    });
    const read = vi.fn(async () => overview({ ...active, has_subscription_id: false }));
    const done = pollCheckout({ sync, read, signal: new AbortController().signal });
    await vi.advanceTimersByTimeAsync(2_000 + 15 * 3_000 + 1_000);
    await expect(done).resolves.toBe(false);
    expect(sync).toHaveBeenCalledTimes(15);
    expect(read).toHaveBeenCalledTimes(15);
  });

  it('stops when the page goes away', async () => {
    const controller = new AbortController();
    const sync = vi.fn(async () => {});
    const read = vi.fn(async () => overview(null));
    const done = pollCheckout({ sync, read, signal: controller.signal });
    await vi.advanceTimersByTimeAsync(2_500);
    expect(sync).toHaveBeenCalledTimes(1);
    controller.abort();
    await expect(done).resolves.toBe(false);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sync).toHaveBeenCalledTimes(1);
    expect(read).not.toHaveBeenCalled();
  });
});

describe('watchPortalReturn', () => {
  let visibility: DocumentVisibilityState = 'visible';
  beforeEach(() => {
    vi.useFakeTimers();
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  function setVisibility(state: DocumentVisibilityState) {
    visibility = state;
    document.dispatchEvent(new Event('visibilitychange'));
  }

  it('refreshes every 3 s for 30 s each time the tab is visible again', async () => {
    const refresh = vi.fn();
    const stop = watchPortalReturn(refresh);
    setVisibility('hidden'); // the member is in the portal tab
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refresh).not.toHaveBeenCalled();
    setVisibility('visible');
    expect(refresh).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(PORTAL_REFRESH.forMs);
    expect(refresh).toHaveBeenCalledTimes(PORTAL_REFRESH.forMs / PORTAL_REFRESH.everyMs);
    const afterBurst = refresh.mock.calls.length;
    await vi.advanceTimersByTimeAsync(30_000);
    expect(refresh).toHaveBeenCalledTimes(afterBurst);
    stop();
  });

  it('does nothing more 5 minutes after the portal opened', async () => {
    const refresh = vi.fn();
    watchPortalReturn(refresh);
    setVisibility('hidden');
    await vi.advanceTimersByTimeAsync(PORTAL_REFRESH.capMs);
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('ends a burst that is running when the cap is reached', async () => {
    const refresh = vi.fn();
    watchPortalReturn(refresh);
    await vi.advanceTimersByTimeAsync(PORTAL_REFRESH.capMs - 5_000);
    setVisibility('visible');
    await vi.advanceTimersByTimeAsync(60_000);
    // At once and at +3 s; the cap stops the rest.
    expect(refresh).toHaveBeenCalledTimes(2);
  });
});
