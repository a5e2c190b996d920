import { api } from '@/lib/api';
import type { User, UserBody } from '@/lib/api-types/web';

/** `POST /api/auth/signin`: signs this browser in. */
export async function signIn(email: string, password: string): Promise<User> {
  return (await api.post<UserBody>('/api/auth/signin', { email, password })).user;
}
