/**
 * Who is signed in, shared by every component. A tiny external store (no query library, so it
 * stays in the entry chunk at almost no cost): it asks `GET /api/auth/session` when the first
 * component subscribes, again whenever the tab becomes visible or another tab of the site signs
 * in or out (BroadcastChannel), and forgets the user on any 401 from the API.
 *
 * The state starts as `unknown` on the server and in the first client render, which show the
 * signed-out view; it switches once the session request answers, so hydration never mismatches.
 */

import { useSyncExternalStore } from 'react';
import type { User } from '@/lib/api-types/web';
import { ApiError } from './api';
import { getSessionUser } from './auth-api';

export type SessionState =
  | { status: 'unknown' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; user: User };

/** What one tab tells the others; they answer by asking the server again. */
export type SessionMessage = { type: 'signed-in' } | { type: 'signed-out' };

export const SESSION_CHANNEL = 'tribe-auth';

const UNKNOWN: SessionState = { status: 'unknown' };
const SIGNED_OUT: SessionState = { status: 'signed-out' };

export interface SessionStore {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => SessionState;
  getServerSnapshot: () => SessionState;
  /** Asks the server who is signed in; concurrent calls share one request. */
  refresh: () => Promise<SessionState>;
  /** Records a sign-in (or a password reset) that this tab made, and tells the other tabs. */
  signedIn: (user: User) => void;
  /** Records a sign-out that this tab made, and tells the other tabs. */
  signedOut: () => void;
  /** Call with anything an API call threw: a 401 (other than a wrong password) means the session is gone. */
  reportError: (error: unknown) => void;
  /**
   * Marks a sign-out this tab has started and is taking the visitor elsewhere itself (the logout
   * dialog goes to the home page), so members-only pages do not also redirect to /auth meanwhile.
   * `signedOut()` ends it.
   */
  setLeaving: (leaving: boolean) => void;
  isLeaving: () => boolean;
  /** Stops listening to other tabs and visibility, and starts again from `unknown`. */
  dispose: () => void;
}

export interface SessionStoreOptions {
  channelName?: string;
  fetchSession?: () => Promise<User | null>;
}

/** Creates a store; the app uses the single {@link session} below, tests make their own. */
export function createSessionStore(options: SessionStoreOptions = {}): SessionStore {
  const channelName = options.channelName ?? SESSION_CHANNEL;
  const fetchSession = options.fetchSession ?? getSessionUser;

  let state: SessionState = UNKNOWN;
  const listeners = new Set<() => void>();
  let started = false;
  let channel: BroadcastChannel | null = null;
  let leaving = false;
  let inFlight: Promise<SessionState> | null = null;
  // Bumped by every local change, so an answer to an older request cannot undo a newer sign-in.
  let version = 0;

  const set = (next: SessionState) => {
    if (next === state) return;
    const same =
      next.status === state.status &&
      (next.status !== 'signed-in' ||
        (state.status === 'signed-in' && JSON.stringify(state.user) === JSON.stringify(next.user)));
    if (same) return;
    state = next;
    for (const listener of listeners) listener();
  };

  const announce = (message: SessionMessage) => {
    try {
      channel?.postMessage(message);
    } catch {
      // A closed channel only means no other tab hears about it.
    }
  };

  const refresh = (): Promise<SessionState> => {
    if (inFlight) return inFlight;
    const asked = version;
    inFlight = fetchSession()
      .then((user) => {
        if (asked === version) set(user ? { status: 'signed-in', user } : SIGNED_OUT);
        return state;
      })
      .catch(() => {
        // Offline or a server error: keep what we knew, but stop pretending not to know.
        if (asked === version && state.status === 'unknown') set(SIGNED_OUT);
        return state;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  const onVisible = () => {
    if (document.visibilityState === 'visible') void refresh();
  };

  const start = () => {
    if (started || typeof window === 'undefined') return;
    started = true;
    if (typeof BroadcastChannel === 'function') {
      channel = new BroadcastChannel(channelName);
      channel.onmessage = () => {
        version += 1;
        inFlight = null;
        void refresh();
      };
    }
    document.addEventListener('visibilitychange', onVisible);
    void refresh();
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      start();
      return () => {
        listeners.delete(listener);
      };
    },
    getSnapshot: () => state,
    getServerSnapshot: () => UNKNOWN,
    refresh,
    signedIn(user) {
      version += 1;
      set({ status: 'signed-in', user });
      announce({ type: 'signed-in' });
    },
    signedOut() {
      leaving = false;
      version += 1;
      set(SIGNED_OUT);
      announce({ type: 'signed-out' });
    },
    reportError(error) {
      // A wrong password on sign-in is a 401 too, but says nothing about the current session.
      if (!(error instanceof ApiError) || error.status !== 401) return;
      if (error.code === 'invalid_credentials') return;
      if (state.status === 'signed-out') return;
      version += 1;
      set(SIGNED_OUT);
      announce({ type: 'signed-out' });
    },
    setLeaving(on) {
      leaving = on;
    },
    isLeaving: () => leaving,
    dispose() {
      leaving = false;
      channel?.close();
      channel = null;
      if (started) document.removeEventListener('visibilitychange', onVisible);
      started = false;
      inFlight = null;
      version += 1;
      state = UNKNOWN;
      listeners.clear();
    },
  };
}

/** The app's one session store. */
export const session: SessionStore = createSessionStore();

/** The current session state; re-renders when it changes. */
export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.getSnapshot, session.getServerSnapshot);
}
