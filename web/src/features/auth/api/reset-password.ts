import { api } from '@/lib/api';
import type { User, UserBody } from '@/lib/api-types/web';

/** `POST /api/auth/password/reset`: sets a new password with a mailed token; signs this browser in. */
export async function resetPassword(token: string, password: string): Promise<User> {
  return (await api.post<UserBody>('/api/auth/password/reset', { token, password })).user;
}
