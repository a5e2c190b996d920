/**
 * Live updates from `GET /api/events` (docs/api.md, "Live updates"). The server sends only the
 * name of what changed; the caller refetches. The browser's EventSource reconnects by itself
 * after a dropped connection; when the server refuses a reconnect (401 without a session, 429
 * with too many tabs) EventSource gives up and this client asks `isSignedIn` what happened:
 * signed out ends it, otherwise it opens a new stream after a growing delay.
 */

/** The notices the server sends. */
export const LIVE_TOPICS = [
  'cohorts',
  'sessions',
  'subscription',
  'profile',
  'tribe',
  'progress',
  'projects',
  'community',
  'notifications',
] as const;
export type LiveTopic = (typeof LIVE_TOPICS)[number];

/**
 * The root of the notification centre's query keys (features/inbox). The members area's live
 * updates invalidate it on a `notifications` notice; the two features share this name, not code.
 */
export const NOTIFICATIONS_QUERY_ROOT = ['notifications'] as const;

/** The part of EventSource this client uses (tests pass a fake). */
export interface EventSourceLike {
  readonly readyState: number;
  onerror: ((this: EventSource, ev: Event) => unknown) | null;
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface LiveEventsOptions<T extends string = LiveTopic> {
  /** Called with each topic the server names. */
  onTopic: (topic: T) => void;
  /** The events to listen for; the site's topics by default (another stream names its own). */
  topics?: readonly T[];
  /** Called when the stream is back after a gap: notices may have been missed, refetch everything. */
  onResync: () => void;
  /**
   * Called when the stream first opens. A page that read its data before opening the stream
   * reads it again here, so a change between the two is not missed.
   */
  onFirstReady?: () => void;
  /** Called once when the stream was refused and the session is gone. */
  onSignedOut: () => void;
  /** Asks the server whether this browser still has a session (true also when unsure). */
  isSignedIn: () => Promise<boolean>;
  url?: string;
  createSource?: (url: string) => EventSourceLike;
  /** First wait before opening a new stream after a refusal; doubles up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
}

/** EventSource.CLOSED, without depending on the global existing. */
const CLOSED = 2;

/** Opens the stream and keeps it open until the returned function is called. */
export function connectLiveEvents<T extends string = LiveTopic>(
  options: LiveEventsOptions<T>,
): () => void {
  const {
    onTopic,
    topics = LIVE_TOPICS as unknown as readonly T[],
    onResync,
    onFirstReady,
    onSignedOut,
    isSignedIn,
    url = '/api/events',
    createSource = (u) => new EventSource(u) as EventSourceLike,
    baseDelayMs = 3_000,
    maxDelayMs = 60_000,
  } = options;

  let source: EventSourceLike | null = null;
  let stopped = false;
  let everReady = false;
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const open = () => {
    if (stopped) return;
    const current = createSource(url);
    source = current;
    current.addEventListener('ready', () => {
      if (stopped || source !== current) return;
      failures = 0;
      // The first `ready` is the page's first load, which fetches anyway.
      if (everReady) onResync();
      else onFirstReady?.();
      everReady = true;
    });
    for (const topic of topics) {
      current.addEventListener(topic, () => {
        if (!stopped && source === current) onTopic(topic);
      });
    }
    current.onerror = () => {
      if (stopped || source !== current) return;
      // CONNECTING: the browser is already retrying a dropped stream.
      if (current.readyState !== CLOSED) return;
      current.close();
      source = null;
      void refused();
    };
  };

  const refused = async () => {
    let signedIn = true;
    try {
      signedIn = await isSignedIn();
    } catch {
      // Cannot tell (offline): try the stream again later.
    }
    if (stopped) return;
    if (!signedIn) {
      stopped = true;
      onSignedOut();
      return;
    }
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** failures);
    failures += 1;
    timer = setTimeout(() => {
      timer = null;
      open();
    }, delay);
  };

  open();

  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    timer = null;
    source?.close();
    source = null;
  };
}
