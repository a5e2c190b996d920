import { describe, expect, it } from 'vitest';
import { countMeasure, moneyMeasure, rateMeasure } from '../components/SeriesCard';
import { ticks } from '../components/scale';
import { toCsv } from './csv';
import { decimalAmount, formatMoney, formatRate } from './format';
import { checkRange, presetRange } from './period';

describe('periods', () => {
  it('end today and cover 30 days, 90 days and a year', () => {
    expect(presetRange('30d', '2026-03-31')).toEqual({ from: '2026-03-02', to: '2026-03-31' });
    expect(presetRange('90d', '2026-03-31')).toEqual({ from: '2026-01-01', to: '2026-03-31' });
    expect(presetRange('12m', '2026-03-31')).toEqual({ from: '2025-04-01', to: '2026-03-31' });
  });

  it('refuse a custom range the server would refuse, by field', () => {
    const today = '2026-03-31';
    expect(checkRange({ from: '', to: today }, today)).toEqual({ from: 'Choose the first day.' });
    expect(checkRange({ from: '2026-03-01', to: '2026-04-01' }, today).to).toMatch(/after today/);
    expect(checkRange({ from: '2026-03-02', to: '2026-03-01' }, today).from).toMatch(
      /not be after/,
    );
    expect(checkRange({ from: '2024-03-30', to: today }, today).from).toMatch(/731 days/);
    expect(checkRange({ from: '2024-03-31', to: today }, today)).toEqual({});
  });
});

describe('csv', () => {
  it('quotes as RFC 4180 does and never lets a cell run as a formula', () => {
    expect(
      toCsv(
        ['Session', 'Rate'],
        [
          ['=HYPERLINK("x")', 0.5],
          ['a, "b"', -3],
          ['@me', '+1'],
        ],
      ),
    ).toBe('Session,Rate\r\n"\'=HYPERLINK(""x"")",0.5\r\n"a, ""b""",-3\r\n"\'@me","\'+1"\r\n');
  });
});

describe('format', () => {
  it('writes minor units in the currency and rates as per cent', () => {
    expect(formatMoney(250000, 'usd')).toBe('$2,500.00');
    expect(formatMoney(-1999, 'eur')).toBe('-€19.99');
    expect(formatMoney(500, 'jpy')).toBe('¥500');
    expect(decimalAmount(1999, 'usd')).toBe('19.99');
    expect(decimalAmount(500, 'jpy')).toBe('500');
    expect(formatRate(0.25)).toBe('25%');
    expect(formatRate(0.1667)).toBe('16.7%');
    expect(formatRate(null)).toBe('–');
  });
});

describe('ticks', () => {
  it('cover zero and the values with round steps', () => {
    expect(ticks(0, 4000)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(ticks(-2000, 4000)).toEqual([-2000, 0, 2000, 4000]);
    expect(ticks(0, 0)).toEqual([0, 1]);
  });
});

describe('the least axis of each measure', () => {
  it('reads as whole members, whole per cents and whole dollars when every value is zero', () => {
    const labels = (m: { minTop: number; axis: (v: number) => string }) =>
      ticks(0, m.minTop).map(m.axis);
    expect(labels(countMeasure)).toEqual(['0', '1', '2', '3', '4']);
    expect(labels(rateMeasure)).toEqual(['0%', '5%', '10%']);
    expect(labels(moneyMeasure('usd'))).toEqual(['$0', '$50', '$100']);
  });
});
