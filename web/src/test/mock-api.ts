/** Test helpers: a fake server behind `fetch`, and a user object. */

import { toast as sonnerToast } from 'sonner';
import { vi } from 'vitest';
import type { User } from '@/lib/api-types/web';
import { session } from '@/lib/session';

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

export type Handler = (body: unknown) => Response | Promise<Response>;

/** A JSON response, as the Go server writes it. */
export function json(status: number, body?: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function apiError(status: number, code: string, message: string, field?: string): Response {
  return json(status, {
    error: field === undefined ? { code, message } : { code, message, field },
  });
}

export const ada: User = {
  id: '7b0c6f5e-0000-4000-8000-000000000001',
  email: 'ada@example.com',
  email_confirmed: true,
  full_name: 'Ada Lovelace',
  avatar_url: null,
  is_admin: false,
  name_unverified: false,
  created_at: '2026-11-23T10:00:00.000Z',
  subscription: null,
};

/**
 * Replaces `fetch` with a table of handlers keyed "METHOD /path" (the query string is part of the
 * path). Unknown requests answer 404. `GET /api/auth/session` answers signed out unless given.
 */
export function mockApi(routes: Record<string, Handler> = {}) {
  const calls: Call[] = [];
  const table: Record<string, Handler> = {
    'GET /api/auth/session': () => json(200, { user: null }),
    ...routes,
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path, body });
    const handler = table[`${method} ${path}`];
    if (!handler) return apiError(404, 'not_found', 'Not found');
    return handler(body);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    /** The calls to one endpoint. */
    to: (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.path === path),
  };
}

/** A promise with its resolve function, to hold a request open while the test looks. */
export function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Puts the shared state back between tests: session store, toasts, fetch. */
export function resetAuthState(): void {
  session.dispose();
  sonnerToast.dismiss();
  vi.unstubAllGlobals();
}
