/** The account endpoints of docs/api.md ("Accounts and sessions", wait list). */
import { api } from '@/lib/api';
import type { User } from '@/lib/session';

interface UserBody {
  user: User;
}

export interface WaitlistAnswer {
  status: 'added' | 'already';
  message: string;
}

export async function signIn(email: string, password: string): Promise<User> {
  return (await api.post<UserBody>('/api/auth/signin', { email, password })).user;
}

export async function signUp(fullName: string, email: string, password: string): Promise<User> {
  return (await api.post<UserBody>('/api/auth/signup', { full_name: fullName, email, password }))
    .user;
}

/** Ends this browser's session (`local`) or every session of the user (`global`). */
export async function signOut(scope: 'local' | 'global' = 'local'): Promise<void> {
  await api.post<undefined>('/api/auth/signout', { scope });
}

/** Mails a reset link (`/auth?reset=true&token=…`); answers the same whether or not the account exists. */
export async function requestPasswordReset(email: string): Promise<void> {
  await api.post<{ message: string }>('/api/auth/password/forgot', { email });
}

/** Sets a new password with a mailed token; the answer signs this browser in. */
export async function resetPassword(token: string, password: string): Promise<User> {
  return (await api.post<UserBody>('/api/auth/password/reset', { token, password })).user;
}

export async function joinWaitlist(fullName: string, email: string): Promise<WaitlistAnswer> {
  return api.post<WaitlistAnswer>('/api/waitlist', { full_name: fullName, email });
}
