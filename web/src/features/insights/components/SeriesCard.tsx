import type { Cell } from '../lib/csv';
import { decimalAmount, formatMoney, formatRate } from '../lib/format';
import { Chart } from './Chart';
import { ChartCard } from './ChartCard';

/** How one kind of number is shown in the table, written to the CSV and drawn. */
export interface Measure {
  cell: (value: number | null) => string;
  csv: (value: number | null) => Cell;
  /** The chart's value: a rate is drawn in per cent; nothing to divide by draws as 0. */
  draw: (value: number | null) => number;
  axis: (value: number) => string;
  /** The least top of the axis, so that all zeros still read as a whole scale of this kind. */
  minTop: number;
}

/** Whole counts (members, RSVPs). */
export const countMeasure: Measure = {
  cell: (v) => String(v ?? 0),
  csv: (v) => v ?? 0,
  draw: (v) => v ?? 0,
  axis: (v) => String(v),
  minTop: 4, // 0 to 4 in steps of one: never half a member
};

/** Rates from 0 to 1: "25%" in the table, 0.25 in the CSV, 25 on a per-cent axis. */
export const rateMeasure: Measure = {
  cell: formatRate,
  csv: (v) => v ?? '',
  draw: (v) => (v ?? 0) * 100,
  axis: (v) => `${Math.round(v)}%`,
  minTop: 10, // 0 %, 5 %, 10 %: whole per cents
};

/** Amounts in the currency's smallest unit: "$2,500.00" shown, "2500.00" in the CSV. */
export function moneyMeasure(currency: string): Measure {
  return {
    cell: (v) => formatMoney(v ?? 0, currency),
    csv: (v) => decimalAmount(v ?? 0, currency),
    draw: (v) => v ?? 0,
    axis: (v) => formatMoney(v, currency).replace(/\.00$/, ''),
    minTop: 10_000, // $100 in cents
  };
}

export interface Column<T> {
  label: string;
  value: (row: T) => number | null;
  /** Drawn in this colour; a column without one is in the table and the CSV only. */
  color?: string;
  /** The card's measure unless given (the churn table mixes counts and rates). */
  measure?: Measure;
}

/**
 * A chart and its table from one list of columns, so the picture, the numbers beside it and the
 * CSV download cannot disagree: one row per item, the first column its label.
 */
export function SeriesCard<T>({
  title,
  description,
  fileName,
  chartTitle,
  kind,
  items,
  x,
  measure,
  columns,
}: {
  title: string;
  description?: string;
  fileName: string;
  chartTitle: string;
  kind: 'line' | 'bars' | 'stacked';
  items: readonly T[];
  /** The first column: its header, each row's label, and the chart's shorter label if any. */
  x: { label: string; value: (row: T) => string; short?: (row: T) => string };
  measure: Measure;
  columns: readonly Column<T>[];
}) {
  const measureOf = (c: Column<T>) => c.measure ?? measure;
  const drawn = columns.flatMap((c) => (c.color ? [{ ...c, color: c.color }] : []));
  return (
    <ChartCard
      title={title}
      description={description}
      fileName={fileName}
      table={{
        header: [x.label, ...columns.map((c) => c.label)],
        rows: items.map((row) => [
          x.value(row),
          ...columns.map((c) => measureOf(c).cell(c.value(row))),
        ]),
        csv: items.map((row) => [
          x.value(row),
          ...columns.map((c) => measureOf(c).csv(c.value(row))),
        ]),
      }}
    >
      <Chart
        kind={kind}
        title={chartTitle}
        labels={items.map(x.short ?? x.value)}
        format={measure.axis}
        minTop={measure.minTop}
        series={drawn.map((c) => ({
          key: c.label,
          label: c.label,
          color: c.color,
          values: items.map((row) => measureOf(c).draw(c.value(row))),
        }))}
      />
    </ChartCard>
  );
}
