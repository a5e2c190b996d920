/**
 * Calendar arithmetic on plain dates ("YYYY-MM-DD"). A date here is a day of someone's calendar,
 * not an instant, so the arithmetic runs on UTC midnights, where no day has 23 or 25 hours.
 */

/** A month of the calendar; `month` is 1 to 12. */
export interface Month {
  year: number;
  month: number;
}

const DAY_MS = 86_400_000;

export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** Weekday names from Sunday, the first column of the calendar. */
export const DAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** Whether `s` is a real date written YYYY-MM-DD. */
export function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysInMonth({ year: y, month: mo });
}

function toUtc(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d);
}

function fromUtc(ms: number): string {
  const t = new Date(ms);
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

export function addDays(date: string, days: number): string {
  return fromUtc(toUtc(date) + days * DAY_MS);
}

/** 0 for Sunday to 6 for Saturday. */
export function weekday(date: string): number {
  return new Date(toUtc(date)).getUTCDay();
}

export function monthOf(date: string): Month {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return { year: y, month: m };
}

export function addMonths(m: Month, n: number): Month {
  const index = m.year * 12 + (m.month - 1) + n;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

/** Negative when a is before b, 0 for the same month. */
export function compareMonths(a: Month, b: Month): number {
  return a.year * 12 + a.month - (b.year * 12 + b.month);
}

export function daysInMonth(m: Month): number {
  return new Date(Date.UTC(m.year, m.month, 0)).getUTCDate();
}

export function firstOfMonth(m: Month): string {
  return `${m.year}-${pad(m.month)}-01`;
}

export function lastOfMonth(m: Month): string {
  return `${m.year}-${pad(m.month)}-${pad(daysInMonth(m))}`;
}

/** "March 2026". */
export function monthLabel(m: Month): string {
  return `${MONTH_NAMES[m.month - 1]} ${m.year}`;
}

/** "Monday, March 9, 2026". */
export function longDate(date: string): string {
  const { year, month } = monthOf(date);
  const day = Number(date.slice(8, 10));
  return `${DAY_NAMES[weekday(date)]}, ${MONTH_NAMES[month - 1]} ${day}, ${year}`;
}

/**
 * The weeks of a month as rows of seven cells from Sunday; cells outside the month are null, so
 * every row has the same columns.
 */
export function monthWeeks(m: Month): (string | null)[][] {
  const first = firstOfMonth(m);
  const lead = weekday(first);
  const total = daysInMonth(m);
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 0; d < total; d++) cells.push(addDays(first, d));
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (string | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  return weeks;
}

/** The same day of the month `n` months away, or that month's last day when it is shorter. */
export function sameDayInMonth(date: string, n: number): string {
  const target = addMonths(monthOf(date), n);
  const day = Math.min(Number(date.slice(8, 10)), daysInMonth(target));
  return `${target.year}-${pad(target.month)}-${pad(day)}`;
}

export { todayIn } from '@/lib/time-zone';
