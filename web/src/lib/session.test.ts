import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@/lib/api-types/web';
import { ApiError } from './api';
import { createSessionStore, type SessionMessage, type SessionStore } from './session';

const user: User = {
  id: 'u1',
  email: 'ada@example.com',
  email_confirmed: true,
  full_name: 'Ada Lovelace',
  avatar_url: null,
  is_admin: false,
  name_unverified: false,
  created_at: '2026-11-23T10:00:00.000Z',
  subscription: null,
};

let stores: SessionStore[] = [];
let channels: BroadcastChannel[] = [];
let counter = 0;

/** A store on a channel of its own, and another "tab" listening and talking on that channel. */
function setup(fetchSession: () => Promise<User | null>) {
  counter += 1;
  const channelName = `session-test-${counter}-${Math.random()}`;
  const store = createSessionStore({ channelName, fetchSession });
  stores.push(store);
  const otherTab = new BroadcastChannel(channelName);
  channels.push(otherTab);
  const heard: SessionMessage[] = [];
  otherTab.onmessage = (event: MessageEvent<SessionMessage>) => heard.push(event.data);
  const changes = vi.fn();
  store.subscribe(changes);
  return { store, otherTab, heard, changes };
}

afterEach(() => {
  for (const store of stores) store.dispose();
  for (const channel of channels) channel.close();
  stores = [];
  channels = [];
});

describe('session store', () => {
  it('starts unknown, asks the server on first subscribe, and tells subscribers', async () => {
    const fetchSession = vi.fn(async () => user);
    const store = createSessionStore({ channelName: 'x-start', fetchSession });
    stores.push(store);
    expect(store.getSnapshot()).toEqual({ status: 'unknown' });
    expect(store.getServerSnapshot()).toEqual({ status: 'unknown' });
    expect(fetchSession).not.toHaveBeenCalled();
    const changes = vi.fn();
    store.subscribe(changes);
    await vi.waitFor(() => expect(store.getSnapshot()).toEqual({ status: 'signed-in', user }));
    expect(changes).toHaveBeenCalledTimes(1);
    expect(fetchSession).toHaveBeenCalledTimes(1);
  });

  it('shares one request between concurrent refreshes', async () => {
    const fetchSession = vi.fn(async () => null);
    const { store } = setup(fetchSession);
    await Promise.all([store.refresh(), store.refresh()]);
    expect(fetchSession).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' });
  });

  it('treats an unreachable server as signed out rather than unknown', async () => {
    const { store } = setup(async () => {
      throw new ApiError(0, 'network_error', 'offline');
    });
    await vi.waitFor(() => expect(store.getSnapshot()).toEqual({ status: 'signed-out' }));
  });

  it('asks the server again when another tab signs in or out', async () => {
    let answer: User | null = null;
    const fetchSession = vi.fn(async () => answer);
    const { store, otherTab } = setup(fetchSession);
    await vi.waitFor(() => expect(store.getSnapshot().status).toBe('signed-out'));

    answer = user;
    otherTab.postMessage({ type: 'signed-in' } satisfies SessionMessage);
    await vi.waitFor(() => expect(store.getSnapshot()).toEqual({ status: 'signed-in', user }));

    answer = null;
    otherTab.postMessage({ type: 'signed-out' } satisfies SessionMessage);
    await vi.waitFor(() => expect(store.getSnapshot()).toEqual({ status: 'signed-out' }));
    expect(fetchSession).toHaveBeenCalledTimes(3);
  });

  it('tells the other tabs about its own sign-in and sign-out', async () => {
    const { store, heard } = setup(async () => null);
    await vi.waitFor(() => expect(store.getSnapshot().status).toBe('signed-out'));
    store.signedIn(user);
    expect(store.getSnapshot()).toEqual({ status: 'signed-in', user });
    store.signedOut();
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' });
    await vi.waitFor(() => expect(heard).toEqual([{ type: 'signed-in' }, { type: 'signed-out' }]));
  });

  it('asks again when the tab becomes visible', async () => {
    const fetchSession = vi.fn(async () => null);
    const { store } = setup(fetchSession);
    await vi.waitFor(() => expect(store.getSnapshot().status).toBe('signed-out'));
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    expect(fetchSession).toHaveBeenCalledTimes(1);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.waitFor(() => expect(fetchSession).toHaveBeenCalledTimes(2));
  });

  it('marks the user signed out on a 401 and tells the other tabs', async () => {
    const { store, heard } = setup(async () => user);
    await vi.waitFor(() => expect(store.getSnapshot().status).toBe('signed-in'));
    store.reportError(new ApiError(500, 'server_error', 'boom'));
    store.reportError(new Error('not an API error'));
    expect(store.getSnapshot().status).toBe('signed-in');
    store.reportError(new ApiError(401, 'unauthorized', 'Not authenticated'));
    expect(store.getSnapshot()).toEqual({ status: 'signed-out' });
    await vi.waitFor(() => expect(heard).toEqual([{ type: 'signed-out' }]));
  });

  it('ignores a wrong password, which says nothing about the session', async () => {
    const { store } = setup(async () => user);
    await vi.waitFor(() => expect(store.getSnapshot().status).toBe('signed-in'));
    store.reportError(new ApiError(401, 'invalid_credentials', 'Invalid login credentials'));
    expect(store.getSnapshot().status).toBe('signed-in');
  });

  it('does not let an older answer undo a newer sign-in', async () => {
    let release: (value: User | null) => void = () => {};
    const { store } = setup(
      () =>
        new Promise<User | null>((resolve) => {
          release = resolve;
        }),
    );
    store.signedIn(user);
    release(null);
    await store.refresh();
    expect(store.getSnapshot()).toEqual({ status: 'signed-in', user });
  });

  it('does not notify when nothing changed', async () => {
    const { store, changes } = setup(async () => user);
    await vi.waitFor(() => expect(store.getSnapshot().status).toBe('signed-in'));
    expect(changes).toHaveBeenCalledTimes(1);
    await store.refresh();
    expect(changes).toHaveBeenCalledTimes(1);
  });
});
