/**
 * The members area's billing timers, measured on the real page with fake clocks: each request's
 * time is read from the faked Date when it reaches the fake server, so these tests pin the exact
 * schedule of the spec (members-area.md §4 "Checkout return" and "Billing portal", §9):
 *
 * - the subscription refreshes by itself every 5 minutes;
 * - after `success=true`: a 2 s wait, then up to 15 attempts of sync, 1 s, read, 2 s;
 * - after the billing portal opens: each time the tab is visible again, a refresh every 3 s for
 *   30 s, and nothing more 5 minutes after the portal opened.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Subscription } from '@/lib/api-types/billing';
import type { MembersOverview, User } from '@/lib/api-types/web';
import { createMemoryHistory, Router } from '@/lib/router';
import { toast } from '@/lib/toast';
import { ada, json, mockApi, resetAuthState } from '@/test/mock-api';
import { MembersPage } from './MembersPage';

// Captured before the clock is faked: lets real work (module loads, stream reads) happen between
// fake ticks without moving the fake clock.
const realSetTimeout = globalThis.setTimeout;
const realTick = () => new Promise<void>((resolve) => realSetTimeout(resolve, 0));

const tribe = {
  capacity: 50,
  active_members: 12,
  held: 0,
  spots_left: 38,
  at_capacity: false,
  payments_enabled: true,
  plans: [],
};

const paid: Subscription = {
  status: 'active',
  current_period_end: '2027-01-15T12:00:00Z',
  cancel_at_period_end: false,
  complimentary: false,
  has_subscription_id: true,
};

/** Lets every promise and every timer due now run, without moving the clock. */
async function settle() {
  for (let i = 0; i < 8; i += 1) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
      await realTick();
    });
  }
}

/**
 * Moves the clock forward in steps of at most `step` ms, settling in between: a request's answer
 * is read between steps, so a step must be shorter than the wait that follows a request.
 */
async function advance(ms: number, step = 500) {
  for (let left = ms; left > 0; left -= step) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(Math.min(step, left));
    });
    await settle();
  }
}

let start = 0;
const elapsed = () => Date.now() - start;

/** The fake server: the members area's reads for a member whose subscription is `current()`. */
function serve(current: () => Subscription | null) {
  const user = (): User => ({ ...ada, subscription: current() });
  const times: Record<string, number[]> = {};
  const at = (key: string) => {
    times[key] = [...(times[key] ?? []), elapsed()];
  };
  const overview = (): MembersOverview => ({
    subscription: current(),
    is_subscriber: current()?.status === 'active',
    is_admin: false,
    tribe,
    group_chat_url: null,
  });
  mockApi({
    'GET /api/auth/session': () => json(200, { user: user() }),
    'GET /api/members/overview': () => {
      at('overview');
      return json(200, overview());
    },
    'POST /api/billing/refresh': () => {
      at('sync');
      return json(200, { subscription: current() });
    },
    'POST /api/billing/portal': () => {
      at('portal');
      return json(200, { url: 'https://billing.stripe.test/p/1' });
    },
    'GET /api/sessions': () => json(200, { sessions: [], can_join: current() !== null }),
    'GET /api/calendar/feed': () => json(200, { exists: false, created_at: null }),
  });
  return times;
}

function renderMembers(path: string) {
  const router = createMemoryHistory([path]);
  // No toast region: the toasts are recorded by the spies below.
  render(
    <Router history={router}>
      <MembersPage />
    </Router>,
  );
  return router;
}

/** Every `every` ms from `first`, `count` times. */
function series(first: number, every: number, count: number): number[] {
  return Array.from({ length: count }, (_, i) => first + i * every);
}

describe('billing timers on the members page', { timeout: 60_000 }, () => {
  let visibility: DocumentVisibilityState = 'visible';
  beforeEach(() => {
    resetAuthState();
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    start = Date.now();
    visibility = 'visible';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    // Toasts are recorded, not shown: the toast library's own timers are not under test.
    for (const kind of ['success', 'error', 'info'] as const) {
      vi.spyOn(toast, kind).mockImplementation(async () => {});
    }
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    resetAuthState();
  });

  function setVisibility(state: DocumentVisibilityState) {
    visibility = state;
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
  }

  it('refreshes the subscription by itself every 5 minutes, and not before', async () => {
    const times = serve(() => null);
    renderMembers('/members');
    await settle();
    expect(screen.getByText('Free Member')).toBeInTheDocument();
    expect(times.sync).toBeUndefined();

    // Nothing happens in between, so the clock may take long strides.
    await advance(299_000, 10_000);
    expect(times.sync).toBeUndefined();
    await advance(2_000);
    expect(times.sync).toEqual([300_000]);
    await advance(300_000, 10_000);
    expect(times.sync).toEqual([300_000, 600_000]);
    // Each refresh reads the overview again right after the sync.
    expect(times.overview?.filter((t) => t > 0)).toEqual([300_000, 600_000]);
  });

  it('after checkout waits 2 s, then makes 15 attempts of sync, 1 s, read, 2 s, and stops', async () => {
    const times = serve(() => null);
    const router = renderMembers('/members?success=true');
    await settle();
    expect(router.location.search).toBe('');
    expect(toast.success).toHaveBeenCalledWith('Subscription successful!', expect.any(String));

    await advance(120_000);
    expect(times.sync).toEqual(series(2_000, 3_000, 15));
    expect(times.overview?.filter((t) => t > 0)).toEqual(series(3_000, 3_000, 15));
    // The last attempt's read is at 45 s; nothing follows until the 5-minute refresh.
    expect(times.sync?.at(-1)).toBe(44_000);
  });

  it('after checkout stops at the first read that finds the subscription active', async () => {
    let subscription: Subscription | null = null;
    const times = serve(() => subscription);
    renderMembers('/members?success=true');
    await settle();

    await advance(7_000);
    expect(times.sync).toEqual([2_000, 5_000]);
    // Stripe has it before the third attempt.
    subscription = paid;
    // Its sync at 8 s, its read at 9 s: only then is it active.
    await advance(1_500);
    expect(toast.success).not.toHaveBeenCalledWith('Subscription Active!', expect.anything());
    await advance(51_500);
    expect(times.sync).toEqual([2_000, 5_000, 8_000]);
    expect(times.overview?.filter((t) => t > 0)).toEqual([3_000, 6_000, 9_000]);
    expect(toast.success).toHaveBeenCalledWith('Subscription Active!', 'Welcome to the tribe.');
  });

  it('after the portal opens refreshes every 3 s for 30 s each time the tab is visible again, for 5 minutes', async () => {
    const times = serve(() => paid);
    const tab = { closed: false, opener: {}, location: { href: '' }, close: vi.fn() };
    vi.stubGlobal(
      'open',
      vi.fn(() => tab),
    );
    renderMembers('/members');
    await settle();

    fireEvent.click(screen.getByRole('button', { name: 'Manage' }));
    await settle();
    expect(times.portal).toEqual([0]);
    expect(tab.location.href).toBe('https://billing.stripe.test/p/1');

    // The member is in the portal tab: nothing is refreshed while this tab is hidden.
    setVisibility('hidden');
    await advance(10_000);
    expect(times.sync).toBeUndefined();

    // Back at 10 s: at once and every 3 s, ten refreshes within the 30 s.
    setVisibility('visible');
    await settle();
    await advance(50_000);
    expect(times.sync).toEqual(series(10_000, 3_000, 10));

    // Away and back again at 100 s: a second burst.
    setVisibility('hidden');
    await advance(40_000);
    setVisibility('visible');
    await settle();
    await advance(60_000);
    expect(times.sync).toEqual([...series(10_000, 3_000, 10), ...series(100_000, 3_000, 10)]);

    // Five minutes after the portal opened the watch ends: coming back at 301 s starts no burst;
    // only the 5-minute refresh of the page itself runs, at 300 s.
    setVisibility('hidden');
    await advance(141_000, 5_000);
    setVisibility('visible');
    await settle();
    await advance(60_000, 5_000);
    expect(times.sync).toEqual([
      ...series(10_000, 3_000, 10),
      ...series(100_000, 3_000, 10),
      300_000,
    ]);
  });
});
