/**
 * Counts in words: "1 member", "0 members", "12 members". English needs only the count to pick
 * the noun's form (1 takes the singular; 0, fractions and every other number the plural), so a
 * noun whose plural is not "+s" names it: `plural(n, 'person', 'people')`.
 */

/** The noun's form for `n`: `one` for exactly 1, otherwise `many` (`one` + "s" unless given). */
export function pluralNoun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** `n` and its noun: "1 spot", "3 spots", "0 people". */
export function plural(n: number, one: string, many?: string): string {
  return `${n} ${pluralNoun(n, one, many)}`;
}
