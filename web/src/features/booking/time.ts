/**
 * Times of slots and bookings as a visitor reads them: 12-hour with AM/PM, as the rest of the
 * site writes them, in a chosen IANA zone.
 */

import { formatPrice } from '@/content/format';
import { dateFormat, detectTimeZone, isKnownZone, timeZones } from '@/lib/time-zone';

/** "9:00 AM" from a 24-hour reading. */
export function clock12(hour: number, minute: number): string {
  const suffix = hour < 12 ? 'AM' : 'PM';
  const h = hour % 12 === 0 ? 12 : hour % 12;
  return `${h}:${String(minute).padStart(2, '0')} ${suffix}`;
}

/**
 * The wall-clock reading an RFC 3339 instant is written with. The server writes slots with the
 * offset of the zone they were asked for, so this is the time in that zone, on both sides of a
 * daylight-saving change, without the browser's own zone rules taking part.
 */
export function wallClock(instant: string): { date: string; hour: number; minute: number } | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/.exec(instant);
  if (!m) return null;
  return { date: m[1] as string, hour: Number(m[2]), minute: Number(m[3]) };
}

/** A slot's start as the visitor reads it: "9:00 AM". */
export function slotLabel(instant: string): string {
  const w = wallClock(instant);
  return w ? clock12(w.hour, w.minute) : instant;
}

/** "GMT-4" from the offset an RFC 3339 instant is written with ("Z" is "GMT"). */
export function offsetLabel(instant: string): string {
  const m = /(Z|[+-]\d{2}:\d{2})$/.exec(instant);
  if (!m || m[1] === 'Z' || m[1] === '+00:00' || m[1] === '-00:00') return 'GMT';
  const [h, min] = (m[1] as string).slice(1).split(':').map(Number) as [number, number];
  return `GMT${(m[1] as string)[0]}${h}${min ? `:${String(min).padStart(2, '0')}` : ''}`;
}

/**
 * The labels of one day's slots. On the night the clocks go back a reading happens twice: both
 * times then carry their offset ("1:30 AM (GMT-4)", "1:30 AM (GMT-5)"), so they can be told apart.
 */
export function slotLabels(slots: readonly string[]): string[] {
  const plain = slots.map(slotLabel);
  return plain.map((label, i) =>
    plain.indexOf(label) !== plain.lastIndexOf(label)
      ? `${label} (${offsetLabel(slots[i] as string)})`
      : label,
  );
}

export { detectTimeZone, isKnownZone, timeZones };

/** "GMT-5" (the zone's offset at `at`), "" when the browser cannot tell. */
export function zoneOffset(zone: string, at: Date = new Date()): string {
  try {
    const f = dateFormat(zone, { timeZoneName: 'shortOffset' });
    return f.formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
  } catch {
    return '';
  }
}

/** "New York" from "America/New_York": what a person searches for. */
export function zoneCity(zone: string): string {
  return (zone.split('/').at(-1) ?? zone).replaceAll('_', ' ');
}

/** Zones matching a search by name, city, or region, the closest matches first. */
export function searchZones(query: string, zones: readonly string[] = timeZones()): string[] {
  const q = query.trim().toLowerCase().replaceAll('_', ' ');
  if (q === '') return [...zones];
  const scored: [number, string][] = [];
  for (const zone of zones) {
    const city = zoneCity(zone).toLowerCase();
    const full = zone.toLowerCase().replaceAll('_', ' ');
    let score = -1;
    if (city === q) score = 0;
    else if (city.startsWith(q)) score = 1;
    else if (full.startsWith(q)) score = 2;
    else if (city.includes(q)) score = 3;
    else if (full.includes(q)) score = 4;
    if (score >= 0) scored.push([score, zone]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  return scored.map(([, zone]) => zone);
}

/**
 * An instant as a date and a 12-hour time in `zone`: "Monday, March 9, 2026 at 9:00 AM EDT".
 * Only in the browser (the prerenderer has no Intl).
 */
export function formatInZone(instant: string, zone: string): string {
  const at = new Date(instant);
  if (Number.isNaN(at.getTime())) return instant;
  try {
    const date = dateFormat(zone, {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    }).format(at);
    const time = dateFormat(zone, {
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZoneName: 'short',
    }).format(at);
    return `${date} at ${time}`;
  } catch {
    return at.toISOString();
  }
}

/**
 * A calendar day (YYYY-MM-DD) as the site writes long dates: "Wednesday, March 3, 2027". The day is
 * not an instant, so no zone moves it.
 */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return day;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return dateFormat('UTC', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
  }).format(at);
}

/** "9:00 – 9:30 AM" style range in `zone` (12-hour), for lists. */
export function timeRangeInZone(start: string, end: string, zone: string): string {
  try {
    const f = dateFormat(zone, {
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    });
    return `${f.format(new Date(start))} – ${f.format(new Date(end))}`;
  } catch {
    return `${start} – ${end}`;
  }
}

/** A money amount in the currency's smallest unit, as the site writes prices: "$299", "1,200 EUR". */
export function formatMinor(amount: number, currency: string): string {
  const code = currency.toUpperCase();
  return formatPrice(ZERO_DECIMAL.has(code) ? amount : amount / 100, code);
}

/** Currencies Stripe counts in whole units. */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);

/** Minutes the zone is ahead of UTC at `at`, from the browser's zone rules. */
function offsetMinutes(zone: string, at: Date): number {
  const parts = dateFormat(zone, {
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return Math.round((wall - at.getTime()) / 60_000);
}

/**
 * The instant the clock of `zone` reads `date` (YYYY-MM-DD) at `time` (HH:MM), as an RFC 3339
 * UTC text; null for a reading that does not exist or a zone the browser does not know. The
 * owner types the times of a group training on their own clock, whatever the browser's zone.
 */
export function instantInZone(date: string, time: string, zone: string): string | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const naive = Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2]));
  try {
    // Two passes settle the offset in force at the instant itself, across a change.
    let at = naive - offsetMinutes(zone, new Date(naive)) * 60_000;
    at = naive - offsetMinutes(zone, new Date(at)) * 60_000;
    const back = naive - offsetMinutes(zone, new Date(at)) * 60_000;
    if (back !== at) return null; // a skipped reading (spring forward)
    return new Date(at).toISOString().replace('.000Z', 'Z');
  } catch {
    return null;
  }
}

/** The reading of the clock in `zone` at an instant, as a time input takes it: "18:00". */
export function clockInZone(instant: string, zone: string): string {
  const parts = dateFormat(zone, {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('hour')}:${get('minute')}`;
}
