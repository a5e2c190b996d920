import { describe, expect, it } from 'vitest';
import {
  activeCue,
  chaptersText,
  clock,
  durationLabel,
  itemIdOf,
  lockText,
  parseChapters,
  startAt,
  startParam,
  timeLeft,
} from './logic';

describe('the library’s logic', () => {
  it('writes times as clocks and durations in words', () => {
    expect(clock(75)).toBe('1:15');
    expect(clock(3725)).toBe('1:02:05');
    expect(durationLabel(0)).toBe('');
    expect(durationLabel(2700)).toBe('45 min');
    expect(durationLabel(3900)).toBe('1 h 5 min');
  });

  it('reads the item id and the start second from the address', () => {
    expect(itemIdOf('/members/library/abc')).toBe('abc');
    expect(itemIdOf('/members/library')).toBeNull();
    expect(startParam('?t=754')).toBe(754);
    expect(startParam('?t=x')).toBeNull();
  });

  it('starts at t, else the saved place, from 0 once completed or at the end', () => {
    expect(startAt(12, { position_s: 300, completed: false }, 600)).toBe(12);
    expect(startAt(null, { position_s: 300, completed: false }, 600)).toBe(300);
    expect(startAt(null, { position_s: 300, completed: true }, 600)).toBe(0);
    expect(startAt(null, { position_s: 598, completed: false }, 600)).toBe(0);
  });

  it('finds the cue playing', () => {
    const cues = [
      { start: 0, end: 4, text: 'a' },
      { start: 4, end: 9, text: 'b' },
      { start: 20, end: 25, text: 'c' },
    ];
    expect(activeCue(cues, 4.5)).toBe(1);
    expect(activeCue(cues, 12)).toBe(-1);
    expect(activeCue(cues, 21)).toBe(2);
  });

  it('says what a lock asks for', () => {
    expect(lockText({ lock_reason: 'level', min_level: 3, required_level: 'Builder' })).toBe(
      'Reach level 3 (Builder) to open',
    );
    expect(lockText({ lock_reason: 'membership', min_level: 0, required_level: '' })).toBe(
      'Subscribe to open',
    );
  });

  it('reads chapter lines, naming a bad one, and writes them back', () => {
    expect(parseChapters('12:30 Questions\n0:00 Intro\n\n1:02:05 Wrap-up')).toEqual([
      { start_s: 0, title: 'Intro' },
      { start_s: 750, title: 'Questions' },
      { start_s: 3725, title: 'Wrap-up' },
    ]);
    expect(parseChapters('0:00 Intro\nQuestions')).toBe(
      'Chapters, line 2: start with a time such as 12:30, then the title.',
    );
    expect(chaptersText([{ start_s: 750, title: 'Questions' }])).toBe('12:30 Questions');
  });

  it('estimates an upload’s time left from its rate so far', () => {
    expect(timeLeft(0, 100, 1000)).toBe('');
    expect(timeLeft(50, 100, 10_000)).toBe('about 10 s left');
    expect(timeLeft(10, 100, 60_000)).toBe('about 9 min left');
  });
});
