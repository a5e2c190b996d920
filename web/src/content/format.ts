/**
 * Formats a price as the whole site shows it: "$3,000", "$149.50", and "1,200 EUR" for
 * currencies other than USD; the server's content.FormatPrice writes the same for the assistant
 * and the search index. Written out rather than left to Intl, whose currency symbols depend on
 * the runtime: the server renders pages again with the owner's content in a JavaScript engine
 * without Intl (internal/prerender), and the browser must hydrate exactly the same text.
 */
export function formatPrice(amount: number, currency = 'USD'): string {
  const cents = Math.round(amount * 100);
  const whole = Math.trunc(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = cents % 100;
  const text = fraction === 0 ? whole : `${whole}.${String(fraction).padStart(2, '0')}`;
  return currency === 'USD' ? `$${text}` : `${text} ${currency}`;
}
