/** Money and rates as the owner reads them. Amounts arrive in the currency's smallest unit. */

function fractionDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** 250000 usd → "$2,500.00"; without a currency the bare number. */
export function formatMoney(minor: number, currency: string): string {
  if (!currency) return String(minor);
  const code = currency.toUpperCase();
  const digits = fractionDigits(code);
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: code,
    minimumFractionDigits: digits,
  }).format(minor / 10 ** digits);
}

/** The amount as a plain decimal for CSV cells: 250000 usd → "2500.00". */
export function decimalAmount(minor: number, currency: string): string {
  const digits = currency ? fractionDigits(currency.toUpperCase()) : 0;
  return (minor / 10 ** digits).toFixed(digits);
}

/** 0.25 → "25%", 0.1667 → "16.7%"; null (nothing to divide by) → "–". */
export function formatRate(rate: number | null): string {
  if (rate === null) return '–';
  const pct = rate * 100;
  return `${Number.isInteger(Math.round(pct * 10) / 10) ? Math.round(pct) : pct.toFixed(1)}%`;
}
