/**
 * The Admin tab's data in and out: CSV downloads of members, the membership ledger, bookings,
 * attendance and the wait list, and the members import (a dry run first, then Apply).
 */

import { ArrowLeftRight, Download, FileUp, ShieldCheck } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api';
import type { ImportReport } from '@/lib/api-types/transfer';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { toast } from '@/lib/toast';
import { MAX_IMPORT_BYTES, useImportMembers } from './api/import-members';
import { type ExportName, exportCsvUrl } from './api/urls';

/** The downloads, in the order shown, with what each file holds. */
const DOWNLOADS: ReadonlyArray<[ExportName, string, string]> = [
  [
    'members',
    'Members',
    'Every account: status, complimentary end, joined, level, Stripe customer.',
  ],
  ['ledger', 'Membership ledger', 'Every membership change, with its amount and time.'],
  ['bookings', 'Bookings', 'Every booked call, with amounts paid and refunded.'],
  ['attendance', 'Attendance', 'RSVPs and attendance of every session.'],
  ['waitlist', 'Wait list', 'Everyone waiting for a seat.'],
];

/** The data section of the Admin tab: downloads, then the import. */
export function DataTransfer() {
  return (
    <section aria-labelledby="data-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="data-heading" className="flex items-center gap-2 text-xl font-semibold text-fg">
          <ArrowLeftRight size={18} aria-hidden="true" className="text-term-cyan" />
          Data in and out
        </h2>
        <p className="mt-1 text-sm text-muted">
          CSV files (UTF-8) that open in any spreadsheet. Cells that a spreadsheet would run as a
          formula start with an apostrophe, so they stay text.
        </p>
      </div>
      <Card>
        <h3 className="font-semibold text-fg">Download</h3>
        <ul className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="CSV downloads">
          {DOWNLOADS.map(([name, label, about]) => (
            <li
              key={name}
              className="flex flex-col gap-2 rounded-md border border-ink-700 bg-ink-900 p-3"
            >
              <p className="text-sm text-muted">{about}</p>
              <a
                href={exportCsvUrl(name)}
                download
                className={buttonClasses('outline', 'sm', 'self-start')}
              >
                <Download size={14} aria-hidden="true" />
                {label} CSV
              </a>
            </li>
          ))}
        </ul>
      </Card>
      <ImportPanel />
    </section>
  );
}

function ImportPanel() {
  const inputId = useId();
  const hintId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const run = useImportMembers({
    mutationConfig: {
      onSuccess: (rep) => {
        setReport(rep);
        setFailure(null);
        if (!rep.dry_run) {
          toast.success(
            'Import applied',
            `${plural(rep.created, 'account')} created, ${plural(rep.updated, 'member')} updated.`,
          );
        }
      },
      onError: (error) => {
        setFailure(errorMessage(error));
        setReport(null);
      },
    },
  });

  const choose = (f: File | null) => {
    setFile(f);
    setReport(null);
    setFailure(
      f && f.size > MAX_IMPORT_BYTES
        ? `The file is larger than ${MAX_IMPORT_BYTES >> 20} MB; split it and import the parts.`
        : null,
    );
  };

  const tooBig = file !== null && file.size > MAX_IMPORT_BYTES;
  const previewed = report?.dry_run === true;
  const applied = report !== null && !report.dry_run;

  return (
    <Card>
      <h3 className="flex items-center gap-2 font-semibold text-fg">
        <FileUp size={16} aria-hidden="true" className="text-term-amber" />
        Import members
      </h3>
      <p id={hintId} className="mt-1 text-sm text-muted">
        A CSV file with the columns <code className="font-mono text-xs">full_name</code> and{' '}
        <code className="font-mono text-xs">email</code>, and optionally{' '}
        <code className="font-mono text-xs">complimentary</code> (yes/no),{' '}
        <code className="font-mono text-xs">complimentary_until</code> (YYYY-MM-DD) and{' '}
        <code className="font-mono text-xs">stripe_customer_id</code>: the members export is such a
        file. New accounts get no e-mail and no password (members choose one with “Forgot
        password”); a new complimentary member gets the usual welcome e-mail. Existing accounts keep
        their name, and an import never ends a membership. Up to 5,000 rows.
      </p>
      <div className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor={inputId} className="text-sm font-medium text-fg">
            CSV file
          </label>
          <input
            id={inputId}
            type="file"
            accept=".csv,text/csv"
            aria-describedby={hintId}
            onChange={(e) => choose(e.target.files?.[0] ?? null)}
            className="block w-full min-w-0 text-sm text-muted file:mr-3 file:rounded-md file:border file:border-ink-600 file:bg-ink-850 file:px-3 file:py-1.5 file:text-fg"
          />
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            disabled={file === null || tooBig || run.isPending}
            aria-busy={run.isPending && run.variables?.dryRun === true}
            onClick={() => file && run.mutate({ file, dryRun: true })}
          >
            <ShieldCheck size={16} aria-hidden="true" />
            {run.isPending && run.variables?.dryRun ? 'Checking…' : 'Preview changes'}
          </Button>
          <Button
            disabled={!previewed || file === null || run.isPending}
            aria-busy={run.isPending && run.variables?.dryRun === false}
            onClick={() => file && run.mutate({ file, dryRun: false })}
          >
            {run.isPending && run.variables?.dryRun === false ? 'Importing…' : 'Apply import'}
          </Button>
        </div>
      </div>
      <div aria-live="polite" className="mt-4 flex flex-col gap-4">
        {failure ? (
          <p className="text-sm text-term-red" role="alert">
            <span className="font-semibold">The file was not imported:</span> {failure}
          </p>
        ) : null}
        {report ? <ImportResult report={report} /> : null}
        {previewed && !applied ? (
          <p className="text-sm text-muted">
            Nothing has been written yet. Apply import makes exactly these changes.
          </p>
        ) : null}
      </div>
    </Card>
  );
}

function ImportResult({ report }: { report: ImportReport }) {
  const verb = report.dry_run ? 'would be' : 'were';
  return (
    <div className="flex flex-col gap-4 border-t border-ink-700 pt-4">
      <p className="text-sm text-fg">
        {report.dry_run ? 'Preview: ' : 'Done: '}
        {plural(report.rows, 'row')} read. {plural(report.created, 'account')} {verb} created,{' '}
        {plural(report.updated, 'member')} {verb} updated, {report.unchanged} unchanged,{' '}
        {plural(report.refused.length, 'row')} refused.
      </p>
      {report.changes.length > 0 ? (
        <ReportTable
          caption={report.dry_run ? 'Changes the import would make' : 'Changes made'}
          head={['Row', 'Member', 'Change']}
          rows={report.changes.map((c) => ({
            key: `c${c.row}`,
            cells: [
              String(c.row),
              <span key="m" className="flex flex-col">
                <span className="text-fg">{c.full_name}</span>
                <span className="break-all text-muted">{c.email}</span>
              </span>,
              <span key="d" className="flex flex-col gap-1">
                <span className="font-mono text-xs text-term-green">
                  {c.action === 'create' ? 'new account' : 'update'}
                </span>
                {c.details.map((d) => (
                  <span key={d}>{d}</span>
                ))}
              </span>,
            ],
          }))}
        />
      ) : null}
      {report.refused.length > 0 ? (
        <ReportTable
          caption="Refused rows (nothing of them is written)"
          tone="error"
          head={['Row', 'E-mail', 'Reason']}
          rows={report.refused.map((r) => ({
            key: `r${r.row}`,
            cells: [
              String(r.row),
              <span key="e" className="break-all">
                {r.email || '—'}
              </span>,
              r.reason,
            ],
          }))}
        />
      ) : null}
    </div>
  );
}

/** A small report table whose caption is its visible heading. */
function ReportTable({
  caption,
  head,
  rows,
  tone,
}: {
  caption: string;
  head: string[];
  rows: Array<{ key: string; cells: ReactNode[] }>;
  tone?: 'error';
}) {
  return (
    // On phones the table scrolls inside its box; the box takes focus so keys can scroll it.
    <section
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
      tabIndex={0}
      className="overflow-x-auto rounded-lg border border-ink-700 focus-visible:outline-2 focus-visible:outline-term-green"
    >
      <table className="w-full text-left text-sm">
        <caption
          className={cn(
            'px-3 py-2 text-left font-semibold',
            tone === 'error' ? 'text-term-red' : 'text-fg',
          )}
        >
          {caption}
        </caption>
        <thead className="bg-ink-850 font-mono text-xs text-dim">
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="px-3 py-2 font-normal">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr
              key={r.key}
              className={cn('border-t border-ink-700 align-top', i % 2 === 1 && 'bg-ink-850/40')}
            >
              {r.cells.map((c, j) => (
                <td
                  // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
                  key={j}
                  className={cn(
                    'px-3 py-2 break-words text-muted',
                    j === 0 && 'w-12 font-mono text-dim',
                  )}
                >
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
