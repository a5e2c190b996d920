import { describe, expect, it } from 'vitest';
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
