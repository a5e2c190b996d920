/** A fake booking server behind `fetch` for the booking tests: routes match on method and path. */
import { vi } from 'vitest';
import { ada } from '@/test/mock-api';
import type { Booking, SlotDay } from './api/types';

export interface SeenCall {
  method: string;
  url: URL;
  body: unknown;
}

export type Route = (call: SeenCall) => Response | Promise<Response> | undefined;

export function jsonResponse(status: number, body?: unknown, headers: Record<string, string> = {}) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function errorResponse(
  status: number,
  code: string,
  message: string,
  field?: string,
  headers: Record<string, string> = {},
) {
  return jsonResponse(
    status,
    { error: field ? { code, message, field } : { code, message } },
    headers,
  );
}

/**
 * Stubs `fetch`. `routes` are tried in order; the first that answers wins; anything else is 404.
 * The session is signed out unless `signedIn`.
 */
export function fakeServer(routes: Route[], { signedIn = false } = {}) {
  const calls: SeenCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(raw, 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const call = { method, url, body };
    calls.push(call);
    if (method === 'GET' && url.pathname === '/api/auth/session') {
      return jsonResponse(200, { user: signedIn ? ada : null });
    }
    for (const route of routes) {
      const answer = await route(call);
      if (answer) return answer;
    }
    return errorResponse(404, 'not_found', 'Not found');
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    to: (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.url.pathname === path),
  };
}

/** `GET /api/booking/types` with the shipped sessions. */
export function typesRoute(paymentsEnabled: boolean): Route {
  return ({ method, url }) =>
    method === 'GET' && url.pathname === '/api/booking/types'
      ? jsonResponse(200, {
          payments_enabled: paymentsEnabled,
          types: [
            {
              id: 'session-15',
              name: 'Quick Consultation',
              duration: 15,
              price: 14900,
              currency: 'USD',
              mode: 'native',
            },
            {
              id: 'session-30',
              name: 'Deep Dive',
              duration: 30,
              price: 29900,
              currency: 'USD',
              mode: 'native',
            },
            {
              id: 'session-60',
              name: 'Strategy Session',
              duration: 60,
              price: 49900,
              currency: 'USD',
              mode: 'native',
            },
            {
              id: 'group',
              name: 'Group Training',
              duration: 120,
              price: 50000,
              currency: 'USD',
              mode: 'native',
              seats: 50,
            },
            {
              id: 'private',
              name: 'Private Training',
              duration: 120,
              price: 300000,
              currency: 'USD',
              mode: 'native',
            },
          ],
        })
      : undefined;
}

/** `GET /api/booking/slots` answering from `days()` (asked again on every call), within from..to. */
export function slotsRoute(days: (tz: string) => SlotDay[]): Route {
  return ({ method, url }) => {
    if (method !== 'GET' || url.pathname !== '/api/booking/slots') return undefined;
    const tz = url.searchParams.get('tz') ?? 'UTC';
    const from = url.searchParams.get('from') ?? '';
    const to = url.searchParams.get('to') ?? '';
    return jsonResponse(200, {
      time_zone: tz,
      days: days(tz).filter((d) => d.date >= from && d.date <= to),
    });
  };
}

export function booking(overrides: Partial<Booking> = {}): Booking {
  return {
    id: 'bk_1',
    type: 'session-30',
    type_name: 'Deep Dive',
    status: 'confirmed',
    start: '2026-03-10T14:00:00Z',
    end: '2026-03-10T14:30:00Z',
    duration: 30,
    name: 'Grace Hopper',
    email: 'grace@example.com',
    notes: '',
    time_zone: 'America/New_York',
    owner_name: 'rUv',
    owner_time_zone: 'Europe/Paris',
    contact_email: 'ruv@ruv.io',
    amount: 29900,
    currency: 'USD',
    price_text: '$299.00',
    paid: true,
    refunded: 0,
    discount: 0,
    reschedule_count: 0,
    reschedules_left: 2,
    can_change: true,
    change_until: '2026-03-09T14:00:00Z',
    created_at: '2026-03-01T10:00:00Z',
    ...overrides,
  };
}
