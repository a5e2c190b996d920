import { describe, expect, it } from 'vitest';
import { HELP_NAME_WIDTH, localAnswer } from './commands';
import { splitColumns } from './layout';

describe('splitColumns', () => {
  it('splits a columned row where its second column starts', () => {
    expect(splitColumns('  services, pricing    sessions, training, tribe')).toEqual([
      '  services, pricing    ',
      'sessions, training, tribe',
    ]);
    expect(splitColumns('  about                who rUv is')).toEqual([
      '  about                ',
      'who rUv is',
    ]);
  });

  it('leaves other rows whole', () => {
    expect(splitColumns('Available commands:')).toBeNull();
    expect(
      splitColumns('Sessions are booked on an external scheduling page, from $149.'),
    ).toBeNull();
    expect(splitColumns('    "query": "tribe",')).toBeNull();
    expect(splitColumns('  help, commands  ')).toBeNull();
    expect(splitColumns('')).toBeNull();
  });
});

describe('help in two columns', () => {
  const help = (localAnswer('help')[0]?.text ?? '').split('\n');
  const rows = help.slice(help.indexOf('Available commands:') + 1, help.indexOf('Examples:'));
  // A 320 px phone shows 30 characters of the console's text per line.
  const PHONE_CHARS = 30;

  it('has a row for every command, each split into a name and a description', () => {
    expect(rows.length).toBeGreaterThan(15);
    for (const row of rows) {
      const columns = splitColumns(row);
      expect(columns, row).not.toBeNull();
      const [names, what] = columns as [string, string];
      // No part of the description is left in the name column ("resources/read <uri> read").
      expect(names.trim().split(/\s{2,}/)).toHaveLength(1);
      expect(what.trim()).toBe(what);
    }
  });

  it('keeps every name whole beside its description, e.g. resources/read <uri> and tools/call', () => {
    const names = rows.map((row) => (splitColumns(row) as [string, string])[0].trim());
    expect(names).toContain('resources/read <uri>');
    expect(names).toContain('tools/call <name> <json>');
    const read = rows.find((row) => row.includes('resources/read <uri>')) as string;
    expect(splitColumns(read)?.[1]).toBe('read one resource');
  });

  it('aligns the descriptions in one column that fits a 320 px phone', () => {
    const widths = new Set(rows.map((row) => (splitColumns(row) as [string, string])[0].length));
    expect(widths.size).toBe(1);
    expect(2 + HELP_NAME_WIDTH + 2).toBe([...widths][0]);
    expect([...widths][0]).toBeLessThanOrEqual(PHONE_CHARS);
  });
});
