/**
 * The one way the front end talks to the Go server. Every request is same-origin JSON with the
 * session cookie; errors come back as `{"error":{"code":string,"message":string}}` and are thrown
 * as {@link ApiError}.
 */

import type { ErrorBody as ApiErrorBody } from '@/lib/api-types/httpx';

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** The request field the error is about, when the server named one. */
  readonly field: string | undefined;

  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false;
  const err = (value as { error: unknown }).error;
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    typeof (err as { message?: unknown }).message === 'string'
  );
}

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Serialised as JSON. `FormData` is sent as is (multipart). */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

function fallbackCode(status: number): string {
  if (status === 400) return 'bad_request';
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'http_error';
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Sends a same-origin request, turning a failure to reach the server into an {@link ApiError}
 * (an abort is rethrown as is).
 */
export async function send(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'network_error', 'Could not reach the server. Check your connection.');
  }
}

/** The {@link ApiError} a failed response stands for, from its JSON error body when it has one. */
export async function errorFromResponse(res: Response): Promise<ApiError> {
  const data = await readBody(res);
  if (isApiErrorBody(data)) {
    const { code, message, field } = data.error;
    return new ApiError(res.status, code, message, typeof field === 'string' ? field : undefined);
  }
  const message =
    typeof data === 'string' && data.length > 0 && data.length < 300 ? data : res.statusText;
  return new ApiError(
    res.status,
    fallbackCode(res.status),
    message || `Request failed (${res.status})`,
  );
}

/** Performs a request and returns the parsed JSON body (undefined for empty bodies). */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, headers = {}, signal } = options;
  const init: RequestInit = {
    method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...headers },
    signal,
  };
  if (body instanceof FormData) {
    init.body = body;
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers = { 'Content-Type': 'application/json', ...init.headers };
  }

  const res = await send(path, init);
  if (!res.ok) throw await errorFromResponse(res);
  const data = await readBody(res);
  return data as T;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => apiRequest<T>(path, { signal }),
  post: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'POST', body }),
  put: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown) => apiRequest<T>(path, { method: 'PATCH', body }),
  delete: <T>(path: string) => apiRequest<T>(path, { method: 'DELETE' }),
};

/** A message fit to show a person, whatever was thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof Error) return error.message;
  return 'Something went wrong. Please try again.';
}
