/**
 * The account requests that several parts of the app make: who is signed in (the session store)
 * and signing out (the logout dialog, /auth and the members area). The other account endpoints
 * belong to features/auth/api.
 */
import type { SessionBody, User } from '@/lib/api-types/web';
import { api } from './api';

/** `GET /api/auth/session`: the signed-in user, or null. */
export async function getSessionUser(): Promise<User | null> {
  const body = await api.get<SessionBody>('/api/auth/session');
  return body?.user ?? null;
}

export type SignOutScope = 'local' | 'global';

/** `POST /api/auth/signout`: ends this browser's session (`local`) or every session of the user (`global`). */
export async function signOut(scope: SignOutScope = 'local'): Promise<void> {
  await api.post<undefined>('/api/auth/signout', { scope });
}
