/** The visitor's time zone and dates in a zone, for every page that shows times. */

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * An en-US date format, made once per zone and options: making one parses the zone's rules and
 * the locale's patterns, which cost more than a thousand formats with it (the booking pages made
 * one per slot and per day, on the main thread of a phone).
 */
export function dateFormat(
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    formats.set(key, f);
  }
  return f;
}

/** The visitor's own IANA zone as the browser knows it, UTC when it does not say. */
export function detectTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The date (YYYY-MM-DD) it is at `now` in `timeZone`: the visitor's calendar, not the browser's. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const parts = dateFormat(timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** "Tue, Dec 1, 3:00 PM" in `timeZone`, with its short zone name ("EST") when `zoneName`. */
export function shortDateTime(instant: Date, timeZone: string, zoneName = false): string {
  return dateFormat(timeZone, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    ...(zoneName ? { timeZoneName: 'short' as const } : {}),
  }).format(instant);
}

let zoneList: readonly string[] | null = null;

/** Every IANA zone the browser knows, UTC included, sorted. */
export function timeZones(): readonly string[] {
  if (zoneList) return zoneList;
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  zoneList = [...new Set([...zones, 'UTC'])].sort();
  return zoneList;
}

/** Whether the browser knows `zone`. */
export function isKnownZone(zone: string): boolean {
  try {
    dateFormat(zone, {});
    return true;
  } catch {
    return false;
  }
}
