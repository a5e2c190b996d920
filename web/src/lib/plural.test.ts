import { describe, expect, it } from 'vitest';
import { plural, pluralNoun } from './plural';

describe('plural', () => {
  it('uses the singular for exactly one and the plural for none and many', () => {
    expect(plural(1, 'member')).toBe('1 member');
    expect(plural(0, 'member')).toBe('0 members');
    expect(plural(2, 'member')).toBe('2 members');
    expect(plural(50, 'place')).toBe('50 places');
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'person', 'people')).toBe('1 person');
    expect(plural(0, 'person', 'people')).toBe('0 people');
    expect(plural(7, 'person', 'people')).toBe('7 people');
  });

  it('treats negative and fractional counts as plural', () => {
    expect(plural(-1, 'day')).toBe('-1 days');
    expect(plural(1.5, 'hour')).toBe('1.5 hours');
  });

  it('gives the noun alone for sentences that place the number elsewhere', () => {
    expect(pluralNoun(1, 'place')).toBe('place');
    expect(pluralNoun(3, 'place')).toBe('places');
    expect(pluralNoun(1, 'is', 'are')).toBe('is');
    expect(pluralNoun(2, 'is', 'are')).toBe('are');
  });
});
