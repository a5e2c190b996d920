import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectLiveEvents, type EventSourceLike, type LiveEventsOptions } from './events';

/** A stand-in for EventSource that the test drives by hand. */
class FakeSource implements EventSourceLike {
  readyState = 0;
  closed = false;
  onerror: EventSourceLike['onerror'] = null;
  private listeners = new Map<string, Array<(event: MessageEvent) => void>>();

  constructor(readonly url: string) {}

  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    const list = this.listeners.get(type) ?? [];
    list.push(listener);
    this.listeners.set(type, list);
  }

  close() {
    this.closed = true;
    this.readyState = 2;
  }

  emit(type: string) {
    if (type === 'ready') this.readyState = 1;
    for (const listener of this.listeners.get(type) ?? []) {
      listener(new MessageEvent(type, { data: '{}' }));
    }
  }

  /** A dropped connection the browser retries (CONNECTING) or a refusal (CLOSED). */
  fail(state: 0 | 2) {
    this.readyState = state;
    this.onerror?.call({} as EventSource, new Event('error'));
  }
}

function setup(overrides: Partial<LiveEventsOptions> = {}) {
  const sources: FakeSource[] = [];
  const onTopic = vi.fn();
  const onResync = vi.fn();
  const onSignedOut = vi.fn();
  const isSignedIn = vi.fn(async () => true);
  const stop = connectLiveEvents({
    onTopic,
    onResync,
    onSignedOut,
    isSignedIn,
    baseDelayMs: 1000,
    maxDelayMs: 4000,
    createSource: (url) => {
      const source = new FakeSource(url);
      sources.push(source);
      return source;
    },
    ...overrides,
  });
  const last = () => sources[sources.length - 1] as FakeSource;
  return { sources, last, onTopic, onResync, onSignedOut, isSignedIn, stop };
}

describe('connectLiveEvents', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens /api/events and passes topics on', () => {
    const t = setup();
    expect(t.sources).toHaveLength(1);
    expect(t.last().url).toBe('/api/events');
    t.last().emit('ready');
    t.last().emit('cohorts');
    t.last().emit('sessions');
    expect(t.onTopic.mock.calls).toEqual([['cohorts'], ['sessions']]);
    expect(t.onResync).not.toHaveBeenCalled();
  });

  it('refetches everything on each ready after the first', () => {
    const t = setup();
    t.last().emit('ready');
    expect(t.onResync).toHaveBeenCalledTimes(0);
    // The browser reconnects the same EventSource after a dropped stream.
    t.last().fail(0);
    t.last().emit('ready');
    expect(t.onResync).toHaveBeenCalledTimes(1);
    expect(t.sources).toHaveLength(1);
    expect(t.isSignedIn).not.toHaveBeenCalled();
  });

  it('treats a refused stream without a session as signed out', async () => {
    const t = setup({ isSignedIn: vi.fn(async () => false) });
    t.last().emit('ready');
    t.last().fail(2);
    await vi.runAllTimersAsync();
    expect(t.onSignedOut).toHaveBeenCalledTimes(1);
    expect(t.sources).toHaveLength(1);
    expect(t.last().closed).toBe(true);
  });

  it('opens a new stream with a growing delay while still signed in, then resyncs', async () => {
    const t = setup();
    t.last().emit('ready');
    t.last().fail(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(t.sources).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.sources).toHaveLength(2);

    t.last().fail(2);
    await vi.advanceTimersByTimeAsync(1999);
    expect(t.sources).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.sources).toHaveLength(3);

    t.last().emit('ready');
    expect(t.onResync).toHaveBeenCalledTimes(1);
    expect(t.onSignedOut).not.toHaveBeenCalled();
  });

  it('keeps trying when it cannot tell whether the session is alive', async () => {
    const t = setup({ isSignedIn: vi.fn(async () => Promise.reject(new Error('offline'))) });
    t.last().fail(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(t.sources).toHaveLength(2);
    expect(t.onSignedOut).not.toHaveBeenCalled();
  });

  it('stops for good when closed, even with a retry pending', async () => {
    const t = setup();
    t.last().fail(2);
    await vi.advanceTimersByTimeAsync(10);
    t.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(t.sources).toHaveLength(1);

    const u = setup();
    u.stop();
    expect(u.last().closed).toBe(true);
    u.last().emit('cohorts');
    expect(u.onTopic).not.toHaveBeenCalled();
  });

  it("listens to another stream's own topics, and reads again when it first opens", () => {
    const onFirstReady = vi.fn();
    const onTopic = vi.fn();
    const sources: FakeSource[] = [];
    const stop = connectLiveEvents<'booking'>({
      url: '/api/bookings/b1/events?token=t',
      topics: ['booking'],
      onTopic,
      onResync: vi.fn(),
      onFirstReady,
      onSignedOut: vi.fn(),
      isSignedIn: async () => true,
      createSource: (url) => {
        const source = new FakeSource(url);
        sources.push(source);
        return source;
      },
    });
    const source = sources[0] as FakeSource;
    expect(source.url).toBe('/api/bookings/b1/events?token=t');
    source.emit('ready');
    // A change between the page's first read and the stream opening is read now.
    expect(onFirstReady).toHaveBeenCalledTimes(1);
    source.emit('sessions');
    expect(onTopic).not.toHaveBeenCalled();
    source.emit('booking');
    expect(onTopic).toHaveBeenCalledWith('booking');
    stop();
  });
});
