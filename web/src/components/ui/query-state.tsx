/**
 * What a list or a page shows before and instead of its data: skeleton rows while it loads, a
 * note when it is empty, an alert with a retry when it failed. Every feature uses these, so a
 * loading list sounds and looks the same everywhere.
 */
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

/**
 * A grey placeholder where text or a block will be. `inline` keeps it in the line (a number in a
 * sentence) rather than as a block of its own.
 */
export function Skeleton({ className, inline = false }: { className?: string; inline?: boolean }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        inline ? 'inline-block' : 'block',
        'rounded-md bg-ink-800 motion-safe:animate-pulse',
        className,
      )}
    />
  );
}

/** A labelled group of skeleton rows; screen readers hear one "Loading …". */
export function LoadingBlock({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-3">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} className="h-20 w-full" />
      ))}
    </div>
  );
}

/** Said when a list has nothing in it. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-ink-600 px-4 py-8 text-center">
      <p className="font-mono text-sm text-fg">{title}</p>
      {children ? <div className="mt-2 text-sm text-muted">{children}</div> : null}
    </div>
  );
}

export interface LoadErrorProps {
  message: string;
  /** Loads again; without it there is no button (what failed will not come back by retrying). */
  onRetry?: () => void;
  /** A heading above the message, for a page whose whole content failed. */
  title?: string;
  /** The heading's id, when a section is labelled by it. */
  titleId?: string;
}

/** Says that a load failed, with a retry button. */
export function LoadError({ message, onRetry, title, titleId }: LoadErrorProps) {
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-lg border border-term-red/40 bg-term-red/5 px-4 py-4 text-sm text-term-red sm:flex-row sm:items-center sm:justify-between"
    >
      <div>
        {title ? (
          <h2 id={titleId} className="text-lg font-semibold">
            {title}
          </h2>
        ) : null}
        <span>{message}</span>
      </div>
      {onRetry ? (
        <Button variant="outline" size="sm" onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}
