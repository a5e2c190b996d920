import { describe, expect, it } from 'vitest';
import { nextRange } from './hours';

describe('nextRange', () => {
  it('proposes office hours on an empty day', () => {
    expect(nextRange([])).toEqual({ start: '09:00', end: '17:00' });
  });

  it('starts an hour after the last range, so adding twice never overlaps', () => {
    const first = { start: '09:00', end: '17:00' };
    const second = nextRange([first]);
    expect(second).toEqual({ start: '18:00', end: '20:00' });
    expect(nextRange([first, second ?? first])).toEqual({ start: '21:00', end: '23:00' });
  });

  it('stops at midnight and has nothing to add once the day is full', () => {
    expect(nextRange([{ start: '20:00', end: '23:30' }])).toEqual({
      start: '23:30',
      end: '24:00',
    });
    expect(nextRange([{ start: '09:00', end: '24:00' }])).toBeNull();
  });
});
