import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, apiRequest, errorMessage, isApiErrorBody } from './api';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('api', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('returns parsed JSON and sends same-origin credentials', async () => {
    const fetchMock = vi.fn(async () => jsonResponse(200, { ok: true, n: 3 }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(api.get<{ ok: boolean; n: number }>('/api/thing')).resolves.toEqual({
      ok: true,
      n: 3,
    });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/thing',
      expect.objectContaining({ method: 'GET', credentials: 'same-origin' }),
    );
  });

  it('serialises JSON bodies with a content type', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => jsonResponse(201, {}));
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/api/waitlist', { email: 'a@b.c' });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe('{"email":"a@b.c"}');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('returns undefined for empty bodies', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    await expect(api.delete('/api/session')).resolves.toBeUndefined();
  });

  it('throws ApiError with the server code and message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(422, { error: { code: 'invalid_email', message: 'Email is not valid.' } }),
      ),
    );
    const error = await apiRequest('/api/x', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'invalid_email',
      message: 'Email is not valid.',
    });
    expect(errorMessage(error)).toBe('Email is not valid.');
  });

  it('falls back to a status-derived code for non-JSON errors', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('upstream down', { status: 502, statusText: 'Bad Gateway' })),
    );
    await expect(api.get('/api/x')).rejects.toMatchObject({
      status: 502,
      code: 'server_error',
      message: 'upstream down',
    });
  });

  it('reports network failures as ApiError status 0', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('recognises the error body shape', () => {
    expect(isApiErrorBody({ error: { code: 'a', message: 'b' } })).toBe(true);
    expect(isApiErrorBody({ error: 'nope' })).toBe(false);
    expect(isApiErrorBody(null)).toBe(false);
    expect(errorMessage(42)).toMatch(/something went wrong/i);
  });
});
