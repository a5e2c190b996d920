import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { URLReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';

/**
 * `POST /api/billing/portal`: a Stripe customer-portal session (card, invoices, cancel) for a
 * paying member; its URL, or '' when the answer carried none.
 */
export async function openBillingPortal(): Promise<string> {
  const reply = await api.post<URLReply | undefined>('/api/billing/portal');
  return typeof reply?.url === 'string' ? reply.url : '';
}

export function useOpenBillingPortal({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof openBillingPortal>;
} = {}) {
  return useMutation({ ...mutationConfig, mutationFn: openBillingPortal });
}
