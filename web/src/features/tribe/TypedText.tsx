import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn';

export interface TypedTextProps {
  text: string;
  /** Milliseconds per character. */
  speed?: number;
  /** Milliseconds before the first character. */
  delay?: number;
  className?: string;
}

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/**
 * Types `text` out character by character after the page has loaded. The full text is in the
 * prerendered HTML and always available to screen readers; people who prefer reduced motion see
 * it at once.
 */
export function TypedText({ text, speed = 60, delay = 1000, className }: TypedTextProps) {
  const [shown, setShown] = useState(text.length);

  useEffect(() => {
    if (prefersReducedMotion()) {
      setShown(text.length);
      return;
    }
    setShown(0);
    let timer: ReturnType<typeof setTimeout>;
    const tick = (n: number) => {
      setShown(n);
      if (n < text.length) timer = setTimeout(() => tick(n + 1), speed);
    };
    timer = setTimeout(() => tick(1), delay);
    return () => clearTimeout(timer);
  }, [text, speed, delay]);

  // The full text, invisible, holds the space the typed text will need, so typing never moves
  // anything around it (no layout shift); the typed part is drawn over it.
  return (
    <span className={cn('relative inline-block font-mono', className)}>
      <span className="sr-only">{text}</span>
      <span aria-hidden="true" className="invisible">
        {text}
        <span className="ml-0.5 inline-block w-[0.5em]" />
      </span>
      <span aria-hidden="true" className="absolute inset-0 text-left">
        {text.slice(0, shown)}
        <span className="ml-0.5 inline-block h-[1em] w-[0.5em] translate-y-[0.15em] bg-current motion-safe:animate-blink" />
      </span>
    </span>
  );
}
