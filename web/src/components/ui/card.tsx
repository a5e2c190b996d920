import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** A bordered panel in the terminal style. */
export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn(
        'rounded-lg border border-ink-700 bg-ink-850/80 p-5 shadow-[inset_0_1px_0_rgb(255_255_255/0.03)]',
        className,
      )}
      {...rest}
    />
  );
}
