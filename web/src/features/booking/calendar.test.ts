import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { env } from '@/test/zone';
import {
  addDays,
  addMonths,
  isDate,
  longDate,
  monthWeeks,
  sameDayInMonth,
  todayIn,
  weekday,
} from './calendar';
import { clock12, offsetLabel, searchZones, slotLabel, slotLabels } from './time';
import { charCount, validateBooking } from './validate';

describe('calendar dates', () => {
  const savedTz = env.TZ;
  // A browser in a zone that changes its clocks must not skip or repeat a date of the grid.
  beforeEach(() => {
    env.TZ = 'America/New_York';
  });
  afterEach(() => {
    env.TZ = savedTz;
  });

  it('lists every date of a month exactly once, across the clock changes', () => {
    for (const [month, days, firstWeekday] of [
      [{ year: 2026, month: 3 }, 31, 0], // spring forward on Sunday 8 March
      [{ year: 2026, month: 11 }, 30, 0], // fall back on Sunday 1 November
      [{ year: 2026, month: 2 }, 28, 0],
      [{ year: 2028, month: 2 }, 29, 2],
    ] as const) {
      const weeks = monthWeeks(month);
      const dates = weeks.flat().filter((d): d is string => d !== null);
      expect(dates).toHaveLength(days);
      expect(new Set(dates).size).toBe(days);
      expect(weeks.every((w) => w.length === 7)).toBe(true);
      expect(weekday(dates[0] as string)).toBe(firstWeekday);
      expect(weeks[0]?.indexOf(dates[0] as string)).toBe(firstWeekday);
    }
  });

  it('adds days and months on the calendar, not in hours', () => {
    expect(addDays('2026-03-07', 1)).toBe('2026-03-08');
    expect(addDays('2026-03-08', 1)).toBe('2026-03-09');
    expect(addDays('2026-11-01', 1)).toBe('2026-11-02');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addMonths({ year: 2026, month: 12 }, 1)).toEqual({ year: 2027, month: 1 });
    expect(addMonths({ year: 2026, month: 1 }, -1)).toEqual({ year: 2025, month: 12 });
    expect(sameDayInMonth('2026-01-31', 1)).toBe('2026-02-28');
    expect(sameDayInMonth('2026-03-31', -1)).toBe('2026-02-28');
    expect(longDate('2026-03-08')).toBe('Sunday, March 8, 2026');
    expect(isDate('2026-02-29')).toBe(false);
    expect(isDate('2028-02-29')).toBe(true);
  });

  it("takes today from the visitor's zone, not the browser's", () => {
    const at = new Date('2026-03-08T03:30:00Z');
    expect(todayIn('America/New_York', at)).toBe('2026-03-07');
    expect(todayIn('Asia/Tokyo', at)).toBe('2026-03-08');
  });
});

describe('slot times', () => {
  it('writes 12-hour times with AM and PM', () => {
    expect(clock12(0, 0)).toBe('12:00 AM');
    expect(clock12(9, 5)).toBe('9:05 AM');
    expect(clock12(12, 30)).toBe('12:30 PM');
    expect(clock12(23, 45)).toBe('11:45 PM');
  });

  it('reads a slot on the clock of the offset it is written with', () => {
    expect(slotLabel('2026-03-08T03:00:00-04:00')).toBe('3:00 AM');
    expect(offsetLabel('2026-03-08T03:00:00-04:00')).toBe('GMT-4');
    expect(offsetLabel('2026-03-08T03:00:00+05:30')).toBe('GMT+5:30');
    expect(offsetLabel('2026-03-08T03:00:00Z')).toBe('GMT');
  });

  it('tells apart the two times of the hour that happens twice when clocks go back', () => {
    expect(
      slotLabels([
        '2026-11-01T01:00:00-04:00',
        '2026-11-01T01:00:00-05:00',
        '2026-11-01T02:00:00-05:00',
      ]),
    ).toEqual(['1:00 AM (GMT-4)', '1:00 AM (GMT-5)', '2:00 AM']);
  });

  it('finds zones by city, region or part of a name', () => {
    const zones = ['America/New_York', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'UTC'];
    expect(searchZones('paris', zones)).toEqual(['Europe/Paris']);
    expect(searchZones('new york', zones)).toEqual(['America/New_York']);
    expect(searchZones('america', zones)).toEqual([
      'America/Argentina/Buenos_Aires',
      'America/New_York',
    ]);
    expect(searchZones('buenos_a', zones)).toEqual(['America/Argentina/Buenos_Aires']);
    expect(searchZones('', zones)).toHaveLength(4);
  });
});

describe('booking form rules', () => {
  it('asks for a name and a valid address, and at most 2,000 characters of notes', () => {
    expect(validateBooking({ name: '', email: '', notes: '' })).toEqual({
      name: 'Please enter your full name.',
      email: 'Please enter your e-mail address.',
    });
    expect(validateBooking({ name: 'Ada', email: 'ada@', notes: '' }).email).toMatch(/valid/);
    expect(
      validateBooking({ name: 'Ada', email: 'ada@example.com', notes: 'x'.repeat(2000) }),
    ).toEqual({});
    expect(
      validateBooking({ name: 'Ada', email: 'ada@example.com', notes: 'x'.repeat(2001) }).notes,
    ).toMatch(/2,000/);
  });

  it('counts characters as people do, so an emoji is one', () => {
    expect(charCount('👋🏽')).toBe(2);
    expect(charCount('ab👋')).toBe(3);
    expect(validateBooking({ name: 'Ada', email: 'a@b.co', notes: '👋'.repeat(2000) })).toEqual({});
  });
});

describe('instantInZone', () => {
  it('reads the owner clock in their zone, on both sides of a change', async () => {
    const { instantInZone } = await import('./time');
    expect(instantInZone('2026-03-07', '10:00', 'America/Toronto')).toBe('2026-03-07T15:00:00Z');
    expect(instantInZone('2026-03-09', '10:00', 'America/Toronto')).toBe('2026-03-09T14:00:00Z');
    expect(instantInZone('2026-07-01', '09:30', 'Europe/Paris')).toBe('2026-07-01T07:30:00Z');
    // 2:30 AM does not happen in Toronto on 8 March 2026.
    expect(instantInZone('2026-03-08', '02:30', 'America/Toronto')).toBeNull();
    expect(instantInZone('2026-03-08', 'noon', 'America/Toronto')).toBeNull();
  });
});
