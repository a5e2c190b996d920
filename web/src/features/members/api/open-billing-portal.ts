import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import type { UrlReply } from './types';

/**
 * `POST /api/billing/portal`: a Stripe customer-portal session (card, invoices, cancel) for a
 * paying member; its URL, or '' when the answer carried none.
 */
export async function openBillingPortal(): Promise<string> {
  const reply = await api.post<UrlReply | undefined>('/api/billing/portal');
  return typeof reply?.url === 'string' ? reply.url : '';
}

export function useOpenBillingPortal({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof openBillingPortal>;
} = {}) {
  return useMutation({ ...mutationConfig, mutationFn: openBillingPortal });
}
