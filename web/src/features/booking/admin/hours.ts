import type { HourRange } from '../api/types';

const DAY = 24 * 60;

function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

function hhmm(total: number): string {
  const h = Math.floor(total / 60);
  const m = total % 60;
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
}

/**
 * The range "Add hours" proposes after a day's last one: an hour after it ends, two hours long,
 * never past midnight, so a new row is valid as added. Null when the day has no room left.
 */
export function nextRange(ranges: HourRange[]): HourRange | null {
  const last = ranges.at(-1);
  if (!last) return { start: '09:00', end: '17:00' };
  const end = minutes(last.end);
  if (end >= DAY) return null;
  const start = end + 60 < DAY ? end + 60 : end;
  return { start: hhmm(start), end: hhmm(Math.min(start + 120, DAY)) };
}
