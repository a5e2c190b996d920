import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

export type BadgeTone = 'green' | 'cyan' | 'amber' | 'neutral';

const tones: Record<BadgeTone, string> = {
  green: 'border-term-green/40 bg-term-green/10 text-term-green',
  cyan: 'border-term-cyan/40 bg-term-cyan/10 text-term-cyan',
  amber: 'border-term-amber/40 bg-term-amber/10 text-term-amber',
  neutral: 'border-ink-600 bg-ink-800 text-muted',
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

/** A small mono label such as "NEW", "Most popular" or "MIT". */
export function Badge({ tone = 'neutral', className, ...rest }: BadgeProps) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 font-mono text-xs font-medium whitespace-nowrap',
        tones[tone],
        className,
      )}
      {...rest}
    />
  );
}
