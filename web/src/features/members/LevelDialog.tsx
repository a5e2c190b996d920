import { CheckCircle2, Circle, CircleDot, Lock } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { ApiError, errorMessage } from '@/lib/api';
import type { Progress } from '@/lib/api-types/levels';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import { useMyAwards } from './api/get-my-awards';
import { useProgress } from './api/get-progress';
import { useSuggestAward } from './api/suggest-award';
import {
  AWARD_KINDS,
  type AwardKind,
  awardKindLabel,
  type LevelStatus,
  progression,
} from './logic';
import { MemberDialog, TextAreaField } from './parts';

const statusStyle: Record<
  LevelStatus,
  { tone: 'green' | 'cyan' | 'neutral'; Icon: typeof Lock; row: string }
> = {
  COMPLETED: { tone: 'green', Icon: CheckCircle2, row: 'border-term-green/40' },
  IN_PROGRESS: { tone: 'cyan', Icon: CircleDot, row: 'border-term-cyan/60 bg-term-cyan/5' },
  LOCKED: { tone: 'neutral', Icon: Lock, row: 'border-ink-700 opacity-75' },
};

export interface LevelDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The member's progress as the server counted it; undefined while it loads. */
  progress: Progress | undefined;
  /** Subscribers and admins may suggest an award for themselves. */
  canSuggest: boolean;
}

/** The tribal progression dialog: five levels, where the member stands, and what comes next. */
export function LevelDialog({ open, onOpenChange, progress, canSuggest }: LevelDialogProps) {
  const p = progression(progress);
  return (
    <MemberDialog
      open={open}
      onOpenChange={onOpenChange}
      windowTitle="~ $ tribe --levels"
      title="Tribal progression"
      description="Grow through the tribe by taking part: sessions, contributions, projects and mentoring."
    >
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-md border border-ink-700 bg-ink-900 p-3">
          <dt className="font-mono text-xs text-dim">Current Level</dt>
          <dd className="mt-1 font-semibold text-term-cyan">{p.current.name}</dd>
        </div>
        <div className="rounded-md border border-ink-700 bg-ink-900 p-3">
          <dt className="font-mono text-xs text-dim">Progress</dt>
          <dd className="mt-1 font-semibold text-fg">
            {p.position}/{p.total} levels
          </dd>
        </div>
      </dl>

      <ol className="mt-4 flex flex-col gap-2" aria-label="Levels">
        {p.rows.map((row) => {
          const style = statusStyle[row.status];
          const percent = Math.round(row.progress * 100);
          return (
            <li key={row.name} className={cn('rounded-md border p-3', style.row)}>
              <div className="flex items-center justify-between gap-3">
                <span className="flex items-center gap-2 font-semibold text-fg">
                  <style.Icon size={16} aria-hidden="true" />
                  {row.name}
                </span>
                <Badge tone={style.tone}>{row.status}</Badge>
              </div>
              <p className="mt-1 text-sm text-muted">{row.requirements}</p>
              {row.status === 'IN_PROGRESS' ? (
                <>
                  <div
                    role="progressbar"
                    aria-label={p.next ? `Progress towards ${p.next.name}` : `${row.name} progress`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={percent}
                    aria-valuetext={`${percent}%`}
                    className="mt-2 h-1.5 overflow-hidden rounded-full bg-ink-700"
                  >
                    <div
                      className="h-full rounded-full bg-term-cyan"
                      style={{ width: `${percent}%` }}
                    />
                  </div>
                  {p.steps.length > 0 && p.next ? (
                    <>
                      <p className="mt-2 font-mono text-xs text-dim" aria-hidden="true">
                        To reach {p.next.name}:
                      </p>
                      <ul
                        className="mt-1 grid gap-1 font-mono text-xs sm:grid-cols-2"
                        aria-label={`Towards ${p.next.name}`}
                      >
                        {p.steps.map((step) => (
                          <li
                            key={step.key}
                            className={cn(
                              'flex items-center gap-1.5',
                              step.done ? 'text-term-green' : 'text-fg',
                            )}
                          >
                            {step.done ? (
                              <CheckCircle2 size={12} aria-hidden="true" />
                            ) : (
                              <Circle size={12} aria-hidden="true" className="text-dim" />
                            )}
                            {step.label} {Math.min(step.have, step.need)} / {step.need}
                            {step.done ? <span className="sr-only"> (done)</span> : null}
                          </li>
                        ))}
                      </ul>
                    </>
                  ) : null}
                </>
              ) : null}
            </li>
          );
        })}
      </ol>

      <div className="mt-4 rounded-md border border-ink-700 bg-ink-900 p-3 text-sm">
        {p.next ? (
          <>
            <p className="font-mono text-xs text-dim">Next Milestone</p>
            <p className="mt-1 text-fg">
              <strong>{p.next.name}</strong>: {p.next.requirements}
            </p>
          </>
        ) : (
          <p className="font-semibold text-term-green">Maximum Level Reached!</p>
        )}
      </div>

      {progress ? (
        <dl className="mt-4 flex flex-wrap gap-2 text-xs" aria-label="What you have done">
          {(
            [
              ['Sessions attended', progress.attended],
              ['Projects shared', progress.projects],
              ['Contributions', progress.contributions],
              ['Members mentored', progress.mentored],
              ['Workshops led', progress.workshops],
            ] as const
          ).map(([label, n]) => (
            <div
              key={label}
              className="flex items-center gap-1.5 rounded-full border border-ink-700 px-2.5 py-1"
            >
              <dt className="text-muted">{label}</dt>
              <dd className="font-mono text-fg">{n}</dd>
            </div>
          ))}
        </dl>
      ) : null}

      {canSuggest ? <SuggestAward /> : null}
    </MemberDialog>
  );
}

/** A member's own suggestion of a contribution, mentoring or workshop, for an admin to accept. */
function SuggestAward() {
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<AwardKind>('contribution');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | undefined>();
  const mine = useMyAwards({ queryConfig: { enabled: open } });
  const suggest = useSuggestAward({
    mutationConfig: {
      onSuccess: () => {
        toast.success('Suggestion sent', 'An admin will look at it.');
        setNote('');
      },
    },
  });
  const pending = (mine.data ?? []).filter((a) => a.status === 'suggested');

  const guard = useSubmitGuard();
  const submit = guard.onSubmit(async () => {
    if (note.trim() === '') {
      setError('Please add a note saying what the award is for.');
      return;
    }
    try {
      await suggest.mutateAsync({ kind, note });
    } catch (err) {
      if (err instanceof ApiError && err.field === 'note') setError(err.message);
      else toast.error('Error', errorMessage(err));
    }
  });

  return (
    <div className="mt-4 border-t border-ink-700 pt-4">
      <Button
        variant="outline"
        size="sm"
        aria-expanded={open}
        aria-controls="suggest-award"
        onClick={() => setOpen((v) => !v)}
      >
        Suggest a contribution, mentoring or workshop
      </Button>
      {open ? (
        <form id="suggest-award" noValidate onSubmit={submit} className="mt-3 flex flex-col gap-3">
          <FormField label="What did you do?" size="sm">
            {(control) => (
              <select
                {...control}
                value={kind}
                onChange={(e) => setKind(e.target.value as AwardKind)}
                className="h-11 rounded-md border border-ink-600 bg-ink-900 px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-term-cyan"
              >
                {AWARD_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {awardKindLabel(k)}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <TextAreaField
            label="Note for the admins"
            rows={3}
            maxLength={500}
            value={note}
            onChange={(v) => {
              setNote(v);
              setError(undefined);
            }}
            error={error}
          />
          <div className="flex justify-end">
            <Button type="submit" size="sm" disabled={guard.pending}>
              {guard.pending ? 'Sending…' : 'Send suggestion'}
            </Button>
          </div>
          {pending.length > 0 ? (
            <div>
              <p className="font-mono text-xs text-dim">Waiting for an admin</p>
              <ul className="mt-1 flex flex-col gap-1 text-sm text-muted">
                {pending.map((a) => (
                  <li key={a.id}>
                    {awardKindLabel(a.kind)}: {a.note}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </form>
      ) : null}
    </div>
  );
}

/** A button that opens the level dialog (for a content lock that asks for a level). */
export function LevelsButton({ canSuggest }: { canSuggest: boolean }) {
  const [open, setOpen] = useState(false);
  const progress = useProgress({ queryConfig: { enabled: open } });
  return (
    <>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)}>
        See the levels
      </Button>
      <LevelDialog
        open={open}
        onOpenChange={setOpen}
        progress={progress.data}
        canSuggest={canSuggest}
      />
    </>
  );
}
