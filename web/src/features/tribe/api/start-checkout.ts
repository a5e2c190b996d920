/**
 * `POST /api/billing/checkout` (docs/api.md, "Billing"): a Stripe Checkout for the monthly
 * membership, for a signed-in member. The tribe page is public and loads no query library, so
 * this is a plain fetcher; the members area has its own mutation hook.
 */

import { api } from '@/lib/api';
import type { URLReply } from '@/lib/api-types/web';

/** The Checkout page to send the member to; Stripe returns to `/members?success=true`. */
export async function startCheckout(): Promise<string> {
  return (await api.post<URLReply>('/api/billing/checkout', { redirect_to: 'members' })).url;
}

/** Sends this tab to Stripe (one place, so tests can observe it: jsdom cannot navigate). */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}
