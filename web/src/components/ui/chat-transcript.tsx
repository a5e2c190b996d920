import { Check, Copy } from 'lucide-react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { cn } from '@/lib/cn';
import type { ChatEntry } from '@/lib/use-chat';
import { Markdown } from './markdown';

/** How long "Copied" shows before the button reads "Copy" again. */
const COPIED_MS = 2000;

function CopyButton({ text }: { text: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <button
      type="button"
      className="inline-flex items-center gap-1 rounded px-1.5 py-0.5 font-mono text-xs text-dim hover:bg-ink-800 hover:text-fg focus-visible:outline-2 focus-visible:outline-term-cyan"
      onClick={() => {
        navigator.clipboard?.writeText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        ) ?? setState('failed');
      }}
    >
      {state === 'copied' ? (
        <Check size={12} aria-hidden="true" />
      ) : (
        <Copy size={12} aria-hidden="true" />
      )}
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy answer'}
    </button>
  );
}

export interface ChatTranscriptProps {
  entries: ChatEntry[];
  streaming: boolean;
  /** Shown while there are no messages. */
  empty: ReactNode;
  /** Sizes the scrolling pane, e.g. its min and max height. */
  className?: string;
  /** Names the pane for screen readers. */
  label: string;
}

/**
 * A conversation with the site's AI: the person's messages as text, the answers as Markdown, each
 * finished answer with a Copy button. The pane scrolls to the newest message as it grows, and is a
 * polite live region so a screen reader hears new messages.
 */
export function ChatTranscript({
  entries,
  streaming,
  empty,
  className,
  label,
}: ChatTranscriptProps) {
  const pane = useRef<HTMLDivElement>(null);
  const last = entries[entries.length - 1];
  // Scrolls on every new message and on every piece of the answer being streamed.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the scroll follows the text's length
  useEffect(() => {
    const el = pane.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [entries.length, last?.content.length]);

  return (
    <div
      ref={pane}
      role="log"
      aria-label={label}
      aria-busy={streaming}
      // A scrolling region must be reachable by keyboard to be scrolled.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the pane scrolls
      tabIndex={0}
      className={cn(
        'overflow-y-auto rounded-md border border-ink-700 bg-ink-950 p-3 focus-visible:outline-2 focus-visible:outline-term-cyan sm:p-4',
        className,
      )}
    >
      {entries.length === 0 ? (
        <div className="flex h-full min-h-[inherit] items-center justify-center p-4 text-center text-sm text-dim">
          {empty}
        </div>
      ) : (
        <ol className="flex flex-col gap-4">
          {entries.map((entry) => {
            const pending = streaming && entry === last && entry.role === 'assistant';
            if (entry.role === 'user') {
              return (
                <li key={entry.id} className="flex justify-end">
                  <div className="max-w-[90%] rounded-lg border border-term-green/30 bg-term-green/10 px-3 py-2 text-sm whitespace-pre-wrap break-words text-fg">
                    <span className="sr-only">You: </span>
                    {entry.content}
                  </div>
                </li>
              );
            }
            return (
              <li key={entry.id} className="flex flex-col items-start gap-1">
                <div
                  className={cn(
                    'w-full max-w-full rounded-lg border bg-ink-850 px-3 py-2 text-sm leading-relaxed text-muted',
                    entry.failed ? 'border-term-red/50' : 'border-ink-700',
                  )}
                >
                  <span className="sr-only">Assistant: </span>
                  {entry.content === '' && pending ? (
                    <span className="font-mono text-dim">
                      Thinking
                      <span
                        aria-hidden="true"
                        className="ml-1 inline-block h-3.5 w-1.5 translate-y-0.5 bg-term-green motion-safe:animate-blink"
                      />
                    </span>
                  ) : (
                    <Markdown text={entry.content} />
                  )}
                  {entry.stopped ? (
                    <p className="mt-2 font-mono text-xs text-dim">(stopped)</p>
                  ) : entry.failed ? (
                    <p className="mt-2 font-mono text-xs text-dim">(incomplete)</p>
                  ) : null}
                </div>
                {!pending && entry.content !== '' && !entry.failed ? (
                  <CopyButton text={entry.content} />
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}
