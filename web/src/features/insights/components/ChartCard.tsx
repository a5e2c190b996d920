import { Download } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { type Cell, downloadCsv, toCsv } from '../lib/csv';

/** The most columns a table has that still fits beside its chart on a desk. */
const WIDE_TABLE = 4;

export interface ChartTable {
  header: readonly string[];
  /** What the table shows, one row per x label. */
  rows: readonly (readonly string[])[];
  /** The same rows for the CSV file: raw numbers, amounts as decimals. */
  csv: readonly (readonly Cell[])[];
}

/**
 * A chart with its numbers in a table beside it (below it on a phone) and a CSV download of
 * exactly those numbers.
 */
export function ChartCard({
  title,
  description,
  fileName,
  table,
  children,
}: {
  title: string;
  description?: string;
  fileName: string;
  table: ChartTable;
  children: ReactNode;
}) {
  const headingId = useId();
  return (
    <Card className="min-w-0">
      <section aria-labelledby={headingId} className="flex flex-col gap-4">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h3 id={headingId} className="text-base font-semibold text-fg">
              {title}
            </h3>
            {description ? <p className="mt-1 text-sm text-muted">{description}</p> : null}
          </div>
          <Button
            variant="outline"
            size="sm"
            aria-label={`Download the CSV of ${title}`}
            onClick={() => downloadCsv(fileName, toCsv(table.header, table.csv))}
          >
            <Download size={16} aria-hidden="true" />
            CSV
          </Button>
        </div>
        <div
          className={cn(
            'grid min-w-0 gap-4',
            // A table of many columns does not fit beside the chart: it goes below it, full width.
            table.header.length <= WIDE_TABLE && 'xl:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]',
          )}
        >
          <div className="min-w-0">{children}</div>
          <section
            aria-label={`${title}: numbers`}
            // A scrolling region must be reachable by keyboard to be scrolled.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls
            tabIndex={0}
            className="max-h-72 min-w-0 overflow-auto rounded-md border border-ink-700 focus-visible:outline-2 focus-visible:outline-term-cyan"
          >
            <table className="w-full border-collapse text-left font-mono text-xs">
              <caption className="sr-only">{title}</caption>
              <thead className="sticky top-0 bg-ink-800 text-muted">
                <tr>
                  {table.header.map((h, i) => (
                    <th
                      key={h}
                      scope="col"
                      className={i === 0 ? 'px-2 py-1.5' : 'px-2 py-1.5 text-right'}
                    >
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {table.rows.map((row) => (
                  <tr key={row[0]} className="border-t border-ink-700">
                    {row.map((c, i) =>
                      i === 0 ? (
                        <th
                          key={table.header[i]}
                          scope="row"
                          className="whitespace-nowrap px-2 py-1 font-normal text-fg"
                        >
                          {c}
                        </th>
                      ) : (
                        <td
                          key={table.header[i]}
                          className="whitespace-nowrap px-2 py-1 text-right text-muted"
                        >
                          {c}
                        </td>
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </div>
      </section>
    </Card>
  );
}
