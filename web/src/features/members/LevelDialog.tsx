import { CheckCircle2, CircleDot, Lock } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';
import { type LevelStatus, progression } from './logic';
import { MemberDialog } from './parts';

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
  /** The member's current level name, e.g. "Apprentice". */
  currentLevel: string;
}

/** The tribal progression dialog: five levels, where the member stands, and what comes next. */
export function LevelDialog({ open, onOpenChange, currentLevel }: LevelDialogProps) {
  const p = progression(currentLevel);
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
                <div
                  role="progressbar"
                  aria-label={`${row.name} progress`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={Math.round(row.progress * 100)}
                  className="mt-2 h-1.5 overflow-hidden rounded-full bg-ink-700"
                >
                  <div
                    className="h-full rounded-full bg-term-cyan"
                    style={{ width: `${row.progress * 100}%` }}
                  />
                </div>
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
    </MemberDialog>
  );
}
