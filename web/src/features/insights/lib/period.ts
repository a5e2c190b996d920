/** The periods the owner picks from, and the days (UTC, YYYY-MM-DD, inclusive) each covers. */

export type PeriodKind = '30d' | '90d' | '12m' | 'custom';

export interface Range {
  from: string;
  to: string;
}

export const PERIODS: ReadonlyArray<{ kind: PeriodKind; label: string }> = [
  { kind: '30d', label: 'Last 30 days' },
  { kind: '90d', label: 'Last 90 days' },
  { kind: '12m', label: 'Last 12 months' },
  { kind: 'custom', label: 'Custom range' },
];

/** The server's longest range, in days (internal/insights.MaxDays). */
export const MAX_DAYS = 731;

export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return isoDay(d);
}

/** The range of a preset period ending today (UTC). */
export function presetRange(kind: Exclude<PeriodKind, 'custom'>, today: string): Range {
  switch (kind) {
    case '30d':
      return { from: addDays(today, -29), to: today };
    case '90d':
      return { from: addDays(today, -89), to: today };
    case '12m': {
      const d = new Date(`${today}T00:00:00Z`);
      d.setUTCFullYear(d.getUTCFullYear() - 1);
      d.setUTCDate(d.getUTCDate() + 1);
      return { from: isoDay(d), to: today };
    }
  }
}

/** What is wrong with a custom range, by field, as the server would say it; empty when fine. */
export function checkRange(range: Range, today: string): Partial<Record<keyof Range, string>> {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  if (!day.test(range.from)) return { from: 'Choose the first day.' };
  if (!day.test(range.to)) return { to: 'Choose the last day.' };
  if (range.to > today) return { to: 'The last day cannot be after today.' };
  if (range.from > range.to) return { from: 'The first day must not be after the last day.' };
  const days = (Date.parse(range.to) - Date.parse(range.from)) / 86_400_000 + 1;
  if (days > MAX_DAYS) return { from: 'A range covers at most 731 days (two years).' };
  return {};
}
