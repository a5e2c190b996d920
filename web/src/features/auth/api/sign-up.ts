import { api } from '@/lib/api';
import type { User, UserBody } from '@/lib/api-types/web';
import { detectTimeZone } from '@/lib/time-zone';

/** `POST /api/auth/signup`: creates the account and signs this browser in. */
export async function signUp(fullName: string, email: string, password: string): Promise<User> {
  return (
    await api.post<UserBody>('/api/auth/signup', {
      full_name: fullName,
      email,
      password,
      time_zone: detectTimeZone(),
    })
  ).user;
}
