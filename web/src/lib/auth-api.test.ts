import { afterEach, describe, expect, it } from 'vitest';
import { ada, json, mockApi, resetAuthState } from '@/test/mock-api';
import { getSessionUser, signOut } from './auth-api';

afterEach(() => {
  resetAuthState();
});

describe('shared account requests', () => {
  it('getSessionUser answers the signed-in user, or null', async () => {
    mockApi({ 'GET /api/auth/session': () => json(200, { user: ada }) });
    await expect(getSessionUser()).resolves.toEqual(ada);
    mockApi({ 'GET /api/auth/session': () => json(200, { user: null }) });
    await expect(getSessionUser()).resolves.toBeNull();
  });

  it('signOut ends this browser session unless asked for every session', async () => {
    const api = mockApi({ 'POST /api/auth/signout': () => new Response(null, { status: 204 }) });
    await signOut();
    await signOut('global');
    expect(api.to('POST', '/api/auth/signout').map((c) => c.body)).toEqual([
      { scope: 'local' },
      { scope: 'global' },
    ]);
  });
});
