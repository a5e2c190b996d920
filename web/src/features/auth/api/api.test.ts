import { afterEach, describe, expect, it } from 'vitest';
import { detectTimeZone } from '@/lib/time-zone';
import { ada, json, mockApi, resetAuthState } from '@/test/mock-api';
import { joinWaitlist } from './join-waitlist';
import { requestPasswordReset } from './request-password-reset';
import { resetPassword } from './reset-password';
import { signIn } from './sign-in';
import { signUp } from './sign-up';

afterEach(() => {
  resetAuthState();
});

describe('account requests', () => {
  it('sign-in, sign-up and reset send their fields and answer the user', async () => {
    const api = mockApi({
      'POST /api/auth/signin': () => json(200, { user: ada }),
      'POST /api/auth/signup': () => json(201, { user: ada }),
      'POST /api/auth/password/reset': () => json(200, { user: ada }),
    });
    await expect(signIn('ada@example.com', 'pw')).resolves.toEqual(ada);
    await expect(signUp('Ada', 'ada@example.com', 'pw')).resolves.toEqual(ada);
    await expect(resetPassword('tok', 'new pw')).resolves.toEqual(ada);
    expect(api.calls.map((c) => [c.path, c.body])).toEqual([
      [
        '/api/auth/signin',
        { email: 'ada@example.com', password: 'pw', time_zone: detectTimeZone() },
      ],
      [
        '/api/auth/signup',
        { full_name: 'Ada', email: 'ada@example.com', password: 'pw', time_zone: detectTimeZone() },
      ],
      ['/api/auth/password/reset', { token: 'tok', password: 'new pw' }],
    ]);
  });

  it('asks for a reset link and joins the wait list', async () => {
    const api = mockApi({
      'POST /api/auth/password/forgot': () => json(202, { message: 'Check your email.' }),
      'POST /api/waitlist': () => json(201, { status: 'added', message: 'On the list.' }),
    });
    await requestPasswordReset('ada@example.com');
    await expect(joinWaitlist('Ada', 'ada@example.com')).resolves.toEqual({
      status: 'added',
      message: 'On the list.',
    });
    expect(api.calls.map((c) => [c.path, c.body])).toEqual([
      ['/api/auth/password/forgot', { email: 'ada@example.com' }],
      ['/api/waitlist', { full_name: 'Ada', email: 'ada@example.com' }],
    ]);
  });
});
