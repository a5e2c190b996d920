import { api } from '@/lib/api';
import type { MessageBody } from '@/lib/api-types/web';

/**
 * `POST /api/auth/password/forgot`: mails a reset link (`/auth?reset=true&token=…`); answers the
 * same whether or not the account exists.
 */
export async function requestPasswordReset(email: string): Promise<void> {
  await api.post<MessageBody>('/api/auth/password/forgot', { email });
}
