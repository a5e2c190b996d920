/** Leaving for Stripe, kept in one place so tests can observe it (jsdom cannot navigate). */

/** Sends this tab to Stripe Checkout. */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}

/**
 * Opens an empty tab while the click still counts as the member's (so no pop-up blocker stops
 * it), to be sent to the portal once its URL arrives. Null when the browser refused.
 */
export function openPendingTab(): Window | null {
  return window.open('', '_blank');
}

/** Sends a tab from {@link openPendingTab} to `url`, or opens a new one when there is none. */
export function showInTab(tab: Window | null, url: string): void {
  if (tab && !tab.closed) {
    tab.opener = null;
    tab.location.href = url;
    return;
  }
  window.open(url, '_blank', 'noopener');
}
