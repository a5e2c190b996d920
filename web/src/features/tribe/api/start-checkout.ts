/**
 * `POST /api/billing/checkout` (docs/api.md, "Billing"): a Stripe Checkout for the monthly
 * membership, for a signed-in member. The tribe page is public and loads no query library, so
 * this is a plain fetcher; the members area has its own mutation hook.
 */

import { api } from '@/lib/api';
import type { CheckoutRequest, URLReply } from '@/lib/api-types/web';

/**
 * The Checkout page to send the member to, for the monthly plan or (when the tribe offers it)
 * the annual one; Stripe returns to `/members?success=true`.
 */
export async function startCheckout(plan: 'monthly' | 'annual' = 'monthly'): Promise<string> {
  const body: CheckoutRequest = { redirect_to: 'members', plan };
  return (await api.post<URLReply>('/api/billing/checkout', body)).url;
}

/** Sends this tab to Stripe (one place, so tests can observe it: jsdom cannot navigate). */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}
