/** The visitor's time zone and dates in a zone, for every page that shows times. */

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
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** "Tue, Dec 1, 3:00 PM" in `timeZone`, with its short zone name ("EST") when `zoneName`. */
export function shortDateTime(instant: Date, timeZone: string, zoneName = false): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    timeZone,
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
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
