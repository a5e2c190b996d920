import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface TerminalWindowProps {
  title: string;
  children: ReactNode;
  className?: string;
}

/** A panel drawn as a terminal window: title bar with three dots, monospace body. */
export function TerminalWindow({ title, children, className }: TerminalWindowProps) {
  return (
    <div
      className={cn(
        'overflow-hidden rounded-xl border border-ink-700 bg-ink-950 shadow-[0_30px_80px_-40px_rgb(34_211_238/0.35)]',
        className,
      )}
    >
      <div className="flex items-center gap-2 border-b border-ink-800 bg-ink-850 px-4 py-2.5">
        <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-term-red/80" />
        <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-term-amber/80" />
        <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-term-green/80" />
        <span className="ml-2 truncate font-mono text-xs text-dim">{title}</span>
      </div>
      <div className="p-4 font-mono text-sm leading-relaxed sm:p-5">{children}</div>
    </div>
  );
}
