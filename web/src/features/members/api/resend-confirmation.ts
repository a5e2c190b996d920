import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MessageBody } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';

/** `POST /api/auth/confirm/resend`: mails a new confirmation link. */
export function resendConfirmation(): Promise<MessageBody> {
  return api.post<MessageBody>('/api/auth/confirm/resend');
}

export function useResendConfirmation({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof resendConfirmation>;
} = {}) {
  return useMutation({ ...mutationConfig, mutationFn: resendConfirmation });
}
