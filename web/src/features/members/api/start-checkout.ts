import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { CheckoutRequest, URLReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';

/**
 * `POST /api/billing/checkout`: opens a Stripe Checkout for the monthly membership and returns
 * its URL (the caller sends the browser there). Stripe returns to `/members?success=true` or
 * `?canceled=true`.
 */
export async function startCheckout(): Promise<string> {
  const body: CheckoutRequest = { redirect_to: 'members' };
  return (await api.post<URLReply>('/api/billing/checkout', body)).url;
}

export function useStartCheckout({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof startCheckout>;
} = {}) {
  return useMutation({ ...mutationConfig, mutationFn: startCheckout });
}
