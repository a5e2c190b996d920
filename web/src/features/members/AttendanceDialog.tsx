import { Download, UserCheck, UserX } from 'lucide-react';
import { useState } from 'react';
import { Button, buttonClasses } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api';
import type { AttendanceRow, SessionView as LiveSession } from '@/lib/api-types/community';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useCorrectAttendance } from './api/correct-attendance';
import { useAdminMembers } from './api/get-admin-members';
import { useAttendance } from './api/get-attendance';
import { attendanceCsvUrl } from './api/urls';
import { formatDateTime } from './logic';
import { EmptyState, LoadError, LoadingBlock, MemberDialog } from './parts';

export interface AttendanceDialogProps {
  session: LiveSession | null;
  onOpenChange: (open: boolean) => void;
}

/** An admin's attendance sheet for one session: who RSVP'd, joined, and corrections, with CSV. */
export function AttendanceDialog({ session, onOpenChange }: AttendanceDialogProps) {
  return (
    <MemberDialog
      open={session !== null}
      onOpenChange={onOpenChange}
      windowTitle="~ $ session --attendance"
      title={session ? `Attendance: ${session.title}` : 'Attendance'}
      description="Members who answered the RSVP, joined through the site, or were marked by an admin."
      className="max-w-3xl"
    >
      {session ? <Sheet sessionId={session.id} /> : null}
    </MemberDialog>
  );
}

function rsvpText(rsvp: boolean | null): string {
  if (rsvp === null) return '—';
  return rsvp ? 'Going' : "Can't make it";
}

function Sheet({ sessionId }: { sessionId: string }) {
  const sheet = useAttendance(sessionId);
  const correct = useCorrectAttendance({
    mutationConfig: { onError: (error) => toast.error('Error', errorMessage(error)) },
  });
  const mark = (userId: string, present: boolean) =>
    correct.mutate({ sessionId, data: { user_id: userId, present } });

  if (sheet.isPending) return <LoadingBlock label="Loading the attendance sheet…" rows={2} />;
  if (sheet.isError) {
    return (
      <LoadError
        message="The attendance sheet could not be loaded."
        onRetry={() => void sheet.refetch()}
      />
    );
  }
  const data = sheet.data;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted">
          <span className="text-fg">{data.going}</span> going ·{' '}
          <span className="text-fg">{data.present}</span> present
        </p>
        <a href={attendanceCsvUrl(sessionId)} download className={buttonClasses('outline', 'sm')}>
          <Download size={14} aria-hidden="true" />
          Download CSV
        </a>
      </div>
      {!data.started ? (
        <p className="rounded-md border border-ink-700 bg-ink-900 p-3 text-sm text-muted">
          This session has not started yet: attendance can be corrected once it has.
        </p>
      ) : null}
      {data.rows.length === 0 ? (
        <EmptyState title="Nobody yet">
          Members appear here when they answer the RSVP or join.
        </EmptyState>
      ) : (
        // Focusable so that keyboard users can scroll the table sideways on a phone.
        <section
          className="overflow-x-auto rounded-lg border border-ink-700 focus-visible:outline-2 focus-visible:outline-term-cyan"
          aria-label="Attendance sheet"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus to scroll by keyboard
          tabIndex={0}
        >
          <table className="w-full min-w-[36rem] text-left text-sm">
            <thead className="bg-ink-850 font-mono text-xs text-dim">
              <tr>
                <th scope="col" className="px-3 py-2 font-normal">
                  Member
                </th>
                <th scope="col" className="px-3 py-2 font-normal">
                  RSVP
                </th>
                <th scope="col" className="px-3 py-2 font-normal">
                  Joined
                </th>
                <th scope="col" className="px-3 py-2 font-normal">
                  Corrected
                </th>
                <th scope="col" className="px-3 py-2 font-normal">
                  Attended
                </th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((row, i) => (
                <Row
                  key={row.user_id}
                  row={row}
                  striped={i % 2 === 1}
                  canCorrect={data.started}
                  busy={correct.isPending}
                  onMark={(present) => mark(row.user_id, present)}
                />
              ))}
            </tbody>
          </table>
        </section>
      )}
      {data.started ? (
        <MarkOther
          listed={new Set(data.rows.map((r) => r.user_id))}
          busy={correct.isPending}
          onMark={(id) => mark(id, true)}
        />
      ) : null}
    </div>
  );
}

function Row({
  row,
  striped,
  canCorrect,
  busy,
  onMark,
}: {
  row: AttendanceRow;
  striped: boolean;
  canCorrect: boolean;
  busy: boolean;
  onMark: (present: boolean) => void;
}) {
  const name = row.full_name || row.email;
  return (
    <tr className={cn('border-t border-ink-700 align-top', striped && 'bg-ink-850/40')}>
      <td className="px-3 py-2">
        <span className="block text-fg">{name}</span>
        <span className="block text-xs break-all text-dim">{row.email}</span>
      </td>
      <td className="px-3 py-2 text-muted">{rsvpText(row.rsvp)}</td>
      <td className="px-3 py-2 whitespace-nowrap text-muted">
        {row.joined_at ? formatDateTime(row.joined_at) : '—'}
      </td>
      <td className="px-3 py-2 text-xs text-muted">
        {row.correction ? (
          <>
            Marked {row.correction}
            {row.corrected_by ? ` by ${row.corrected_by}` : ''}
            {row.corrected_at ? (
              <span className="block">{formatDateTime(row.corrected_at)}</span>
            ) : null}
          </>
        ) : (
          '—'
        )}
      </td>
      <td className="px-3 py-2">
        {canCorrect ? (
          <fieldset className="flex gap-1">
            <legend className="sr-only">Attendance of {name}</legend>
            <button
              type="button"
              aria-pressed={row.present}
              disabled={busy}
              onClick={() => {
                if (!row.present || row.correction !== 'present') onMark(true);
              }}
              className={cn(
                buttonClasses('outline', 'sm', 'px-2'),
                row.present && 'border-term-green bg-term-green/15 text-term-green',
              )}
            >
              <UserCheck size={14} aria-hidden="true" />
              Present
            </button>
            <button
              type="button"
              aria-pressed={!row.present}
              disabled={busy}
              onClick={() => {
                if (row.present || row.correction !== 'absent') onMark(false);
              }}
              className={cn(
                buttonClasses('outline', 'sm', 'px-2'),
                !row.present && 'border-term-amber bg-term-amber/10 text-term-amber',
              )}
            >
              <UserX size={14} aria-hidden="true" />
              Absent
            </button>
          </fieldset>
        ) : (
          <span className="text-muted">{row.present ? 'Yes' : 'No'}</span>
        )}
      </td>
    </tr>
  );
}

/** Marks present someone the sheet does not list yet (joined by the raw link, say). */
function MarkOther({
  listed,
  busy,
  onMark,
}: {
  listed: Set<string>;
  busy: boolean;
  onMark: (userId: string) => void;
}) {
  const members = useAdminMembers();
  const [chosen, setChosen] = useState('');
  const others = (members.data ?? []).filter((m) => !listed.has(m.user_id));
  if (others.length === 0) return null;
  return (
    <form
      className="flex flex-col gap-2 sm:flex-row sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        if (chosen) onMark(chosen);
        setChosen('');
      }}
    >
      <FormField label="Mark another member present" size="sm" className="grow">
        {(control) => (
          <select
            {...control}
            value={chosen}
            onChange={(e) => setChosen(e.target.value)}
            className="h-11 w-full rounded-md border border-ink-600 bg-ink-900 px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-term-cyan"
          >
            <option value="">Choose a member…</option>
            {others.map((m) => (
              <option key={m.user_id} value={m.user_id}>
                {m.full_name ? `${m.full_name} (${m.email})` : m.email}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <Button type="submit" variant="outline" size="md" disabled={busy || chosen === ''}>
        Mark present
      </Button>
    </form>
  );
}
