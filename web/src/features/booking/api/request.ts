import { ApiError, errorFromResponse, send } from '@/lib/api';

/** A `429` with how long to wait, from its `Retry-After` header. */
export class RetryLaterError extends ApiError {
  /** Seconds to wait; null when the server did not say. */
  readonly retryAfter: number | null;

  constructor(error: ApiError, retryAfter: number | null) {
    super(error.status, error.code, error.message, error.field);
    this.name = 'RetryLaterError';
    this.retryAfter = retryAfter;
  }
}

/** Seconds from a Retry-After header (seconds or an HTTP date). */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * A same-origin JSON POST like `api.post`, except that a `429` keeps its Retry-After, so the
 * page can say when to try again.
 */
export async function postJson<T>(path: string, body?: unknown): Promise<T> {
  const init: RequestInit = {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
  };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await send(path, init);
  if (!res.ok) {
    const error = await errorFromResponse(res);
    if (res.status === 429) {
      throw new RetryLaterError(error, parseRetryAfter(res.headers.get('Retry-After')));
    }
    throw error;
  }
  const text = await res.text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** "in 5 minutes", "in 40 seconds", "in 2 hours": when a refused request may be sent again. */
export function retryText(seconds: number | null): string {
  if (seconds === null) return 'in a few minutes';
  if (seconds < 60) return `in ${Math.max(1, seconds)} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  const hours = Math.ceil(minutes / 60);
  return `in ${hours} hour${hours === 1 ? '' : 's'}`;
}
