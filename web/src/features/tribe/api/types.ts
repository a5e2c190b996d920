/** The JSON the tribe page reads besides the shared tribe status (lib/api-types.ts). */

/** `POST /api/billing/checkout`: the Stripe Checkout page to send the member to. */
export interface UrlReply {
  url: string;
}
