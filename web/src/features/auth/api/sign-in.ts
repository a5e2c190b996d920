import { api } from '@/lib/api';
import type { User, UserBody } from '@/lib/api-types/web';
import { detectTimeZone } from '@/lib/time-zone';

/** `POST /api/auth/signin`: signs this browser in. */
export async function signIn(email: string, password: string): Promise<User> {
  return (
    await api.post<UserBody>('/api/auth/signin', { email, password, time_zone: detectTimeZone() })
  ).user;
}
