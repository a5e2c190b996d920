import { CheckCircle2, CircleSlash, LoaderCircle } from 'lucide-react';
import type { ToolStatus } from '@/lib/ai-stream';
import { cn } from '@/lib/cn';

export interface ToolProgressProps {
  tools: ToolStatus[];
  /** False once the answer ended: a tool still marked running was cut short. */
  streaming: boolean;
  /** Shown when there are no tools yet. */
  emptyText?: string;
  className?: string;
}

/** The tools an AI answer runs, each with what it looks for and whether it is done. */
export function ToolProgress({ tools, streaming, emptyText, className }: ToolProgressProps) {
  if (tools.length === 0) {
    return emptyText ? <p className={cn('text-sm text-dim', className)}>{emptyText}</p> : null;
  }
  return (
    <ul className={cn('flex flex-col gap-2', className)} aria-label="Tool calls">
      {tools.map((tool) => {
        const state =
          tool.status === 'completed' ? 'completed' : streaming ? 'running' : 'interrupted';
        return (
          <li
            key={tool.id}
            data-state={state}
            className="flex min-w-0 items-start gap-2 rounded-md border border-ink-700 bg-ink-900/60 px-3 py-2 font-mono text-xs"
          >
            {state === 'completed' ? (
              <CheckCircle2
                size={14}
                aria-hidden="true"
                className="mt-0.5 shrink-0 text-term-green"
              />
            ) : state === 'running' ? (
              <LoaderCircle
                size={14}
                aria-hidden="true"
                className="mt-0.5 shrink-0 text-term-amber motion-safe:animate-spin"
              />
            ) : (
              <CircleSlash size={14} aria-hidden="true" className="mt-0.5 shrink-0 text-dim" />
            )}
            <span className="min-w-0 flex-1">
              <span className="flex flex-wrap items-baseline justify-between gap-x-2">
                <span className="break-all text-term-cyan">{tool.name}</span>
                <span
                  className={cn(
                    state === 'completed' && 'text-term-green',
                    state === 'running' && 'text-term-amber',
                    state === 'interrupted' && 'text-dim',
                  )}
                >
                  {state}
                </span>
              </span>
              {tool.query ? (
                <span className="mt-1 block break-words text-muted">“{tool.query}”</span>
              ) : null}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
