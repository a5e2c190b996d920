import { Building2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import { useInquiries, useUpdateInquiry } from '../api/admin-inquiries';
import { INQUIRY_STATUSES, type Inquiry, type InquiryStatus } from '../api/types';
import { longDate } from '../calendar';
import { formatInZone } from '../time';

const STATUS_WORDS: Record<InquiryStatus, string> = {
  new: 'New',
  replied: 'Replied',
  won: 'Won',
  lost: 'Lost',
};

const STATUS_TONE: Record<InquiryStatus, string> = {
  new: 'text-term-amber',
  replied: 'text-term-cyan',
  won: 'text-term-green',
  lost: 'text-dim',
};

const controlClass =
  'w-full rounded-md border border-ink-600 bg-ink-900 px-3 text-sm text-fg ' +
  'focus-visible:border-term-cyan focus-visible:outline-2 focus-visible:outline-term-cyan aria-[invalid=true]:border-term-red';

/** Enterprise inquiries sent from the booking page, newest first, each with its status and note. */
/** A preferred start as every other date of the page reads: "Friday, December 18, 2026". */
function startText(preferred: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(preferred) ? longDate(preferred) : preferred;
}

export function Inquiries({ ownerZone }: { ownerZone: string }) {
  const query = useInquiries();
  const list = query.data?.inquiries ?? [];
  const open = list.filter((q) => q.status === 'new').length;
  return (
    <Card>
      <h3 className="flex items-center gap-2 text-lg font-semibold text-fg">
        <Building2 size={18} aria-hidden="true" className="text-term-cyan" />
        Enterprise inquiries
      </h3>
      <p className="mt-1 text-sm text-muted">
        Teams asking about the enterprise package. Reply by e-mail, then record where it stands.
        {query.data ? ` ${plural(open, 'new inquiry', 'new inquiries')}.` : ''}
      </p>
      <div className="mt-4">
        {query.isPending ? (
          <p className="text-sm text-muted">Loading inquiries…</p>
        ) : query.isError ? (
          <p role="alert" className="text-sm text-fg">
            The inquiries could not be loaded: {errorMessage(query.error)}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted">No inquiries yet.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {list.map((q) => (
              <InquiryRow key={q.id} inquiry={q} ownerZone={ownerZone} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

function InquiryRow({ inquiry: q, ownerZone }: { inquiry: Inquiry; ownerZone: string }) {
  const [status, setStatus] = useState<InquiryStatus>(q.status);
  const [note, setNote] = useState(q.note);
  const [error, setError] = useState<string | undefined>();
  const guard = useSubmitGuard();
  const update = useUpdateInquiry({
    mutationConfig: {
      onSuccess: () => toast.success('Inquiry saved', `${q.company}: ${STATUS_WORDS[status]}.`),
      onError: (e) => setError(errorMessage(e)),
    },
  });
  const changed = status !== q.status || note !== q.note;
  return (
    <li className="rounded-md border border-ink-700 bg-ink-900/60 p-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h4 className="font-semibold text-fg">
          {q.company}{' '}
          <span className="font-mono text-xs font-normal text-muted">
            {plural(q.team_size, 'person', 'people')}
          </span>
        </h4>
        <span className={cn('font-mono text-xs', STATUS_TONE[q.status])}>
          {STATUS_WORDS[q.status]}
        </span>
      </div>
      <p className="mt-1 text-sm text-muted">
        {q.name} ·{' '}
        <a
          href={`mailto:${q.email}`}
          className="break-all text-term-cyan underline underline-offset-4"
        >
          {q.email}
        </a>{' '}
        · sent {formatInZone(q.created_at, ownerZone)}
        {q.preferred_start ? ` · would start ${startText(q.preferred_start)}` : ''}
      </p>
      <p className="mt-3 whitespace-pre-wrap text-sm text-fg">{q.message}</p>
      <form
        className="mt-3 grid gap-3 sm:grid-cols-[10rem_1fr_auto] sm:items-end"
        aria-label={`Follow-up of ${q.company}`}
        onSubmit={guard.onSubmit(() => {
          setError(undefined);
          return update.mutateAsync({ id: q.id, status, note });
        })}
      >
        <FormField label="Status" size="sm">
          {(control) => (
            <select
              {...control}
              value={status}
              onChange={(e) => setStatus(e.target.value as InquiryStatus)}
              className={cn(controlClass, 'h-9')}
            >
              {INQUIRY_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_WORDS[s]}
                </option>
              ))}
            </select>
          )}
        </FormField>
        <FormField label="Note" size="sm" error={error}>
          {(control) => (
            <textarea
              {...control}
              rows={1}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              className={cn(controlClass, 'min-h-9 py-1.5')}
            />
          )}
        </FormField>
        <Button type="submit" size="sm" disabled={!changed || guard.pending}>
          {guard.pending ? 'Saving…' : 'Save'}
        </Button>
      </form>
    </li>
  );
}
