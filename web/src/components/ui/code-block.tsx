import { Check, Copy, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn';

/** How long the "Copied" (or failure) state stays before the button returns to "Copy". */
export const COPY_FEEDBACK_MS = 2000;

export interface CodeBlockProps {
  /** The exact text put on the clipboard. */
  code: string;
  /** Shown in the title bar (a file name or language) and read out with the copy button. */
  title: string;
  /**
   * `shell` draws a `$` prompt before each command (never copied), dims `#` comments and
   * leaves continuation lines (after a trailing backslash) without a prompt.
   */
  language?: 'shell' | 'code';
  className?: string;
}

type CopyState = 'idle' | 'copied' | 'failed';

function ShellLines({ code }: { code: string }) {
  const lines = code.split('\n');
  return lines.map((line, index) => {
    const continued = index > 0 && (lines[index - 1] ?? '').trimEnd().endsWith('\\');
    const newline = index < lines.length - 1 ? '\n' : '';
    // Lines never reorder, so the index is a stable key.
    const key = `${index}:${line}`;
    if (line.trim() === '') return <span key={key}>{newline}</span>;
    if (line.trimStart().startsWith('#')) {
      return (
        <span key={key} className="text-dim">
          {line}
          {newline}
        </span>
      );
    }
    return (
      <span key={key}>
        {continued ? null : (
          <span aria-hidden="true" className="text-term-green select-none">
            ${' '}
          </span>
        )}
        {line}
        {newline}
      </span>
    );
  });
}

/** A block of code or shell commands with a copy-to-clipboard button. */
export function CodeBlock({ code, title, language = 'code', className }: CodeBlockProps) {
  const [state, setState] = useState<CopyState>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = window.setTimeout(() => setState('idle'), COPY_FEEDBACK_MS);
    return () => window.clearTimeout(timer);
  }, [state]);

  async function copy() {
    try {
      if (!navigator.clipboard) throw new Error('clipboard unavailable');
      await navigator.clipboard.writeText(code);
      setState('copied');
    } catch {
      setState('failed');
    }
  }

  const label = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : 'Copy';
  const Icon = state === 'copied' ? Check : state === 'failed' ? X : Copy;

  return (
    <div
      className={cn(
        'min-w-0 overflow-hidden rounded-lg border border-ink-700 bg-ink-950 text-left',
        className,
      )}
    >
      <div className="flex items-center justify-between gap-3 border-b border-ink-800 bg-ink-850 py-1 pr-1 pl-4">
        <span className="truncate font-mono text-xs text-dim">{title}</span>
        <button
          type="button"
          onClick={copy}
          // The visible word first, so speech users can say what they see.
          aria-label={`${label} ${title}`}
          className={cn(
            'inline-flex h-9 shrink-0 items-center gap-1.5 rounded-md px-2.5 font-mono text-xs transition-colors',
            'hover:bg-ink-800 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-term-cyan',
            state === 'copied'
              ? 'text-term-green'
              : state === 'failed'
                ? 'text-term-red'
                : 'text-muted hover:text-fg',
          )}
        >
          <Icon size={14} aria-hidden="true" />
          {label}
        </button>
        <span role="status" aria-live="polite" className="sr-only">
          {state === 'copied'
            ? 'Copied to clipboard'
            : state === 'failed'
              ? 'Could not copy. Select the text and copy it by hand.'
              : ''}
        </span>
      </div>
      {/* Long lines wrap instead of scrolling sideways: nothing is hidden off-screen on a
          phone, and there is no scroll area a keyboard user would have to reach. */}
      <pre className="p-4 font-mono text-[13px] leading-relaxed whitespace-pre-wrap text-fg wrap-break-word sm:text-sm">
        <code>{language === 'shell' ? <ShellLines code={code} /> : code}</code>
      </pre>
    </div>
  );
}
