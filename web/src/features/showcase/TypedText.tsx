import { useEffect, useState } from 'react';
import { prefersReducedMotion } from '@/lib/scroll';

export interface TypedTextProps {
  text: string;
  /** Milliseconds per character. */
  speed?: number;
  /** Milliseconds before the first character appears. */
  delay?: number;
}

function Cursor() {
  return (
    <span className="ml-1 inline-block h-[0.85em] w-[0.45em] translate-y-[0.1em] bg-term-green motion-safe:animate-blink" />
  );
}

/**
 * Text typed out character by character, like a terminal. The server and the first client
 * render show the whole text (so prerendered HTML and hydration agree, and readers without
 * JavaScript or with reduced motion get it at once); the typing starts in an effect. Assistive
 * technology always reads the whole text, never the partial one.
 */
export function TypedText({ text, speed = 60, delay = 400 }: TypedTextProps) {
  // null: show everything. A number: how many characters are typed so far.
  const [typed, setTyped] = useState<number | null>(null);

  useEffect(() => {
    if (prefersReducedMotion()) return;
    let count = 0;
    let timer = 0;
    setTyped(0);
    const step = () => {
      count += 1;
      if (count >= text.length) {
        setTyped(null);
        return;
      }
      setTyped(count);
      timer = window.setTimeout(step, speed);
    };
    timer = window.setTimeout(step, delay);
    return () => window.clearTimeout(timer);
  }, [text, speed, delay]);

  return (
    <>
      <span className="sr-only">{text}</span>
      {/* The full text keeps its space while the typed copy is drawn over it, so nothing
          below the heading moves as it types. */}
      <span aria-hidden="true" className="relative block" data-typing={typed !== null || undefined}>
        <span className={typed === null ? undefined : 'invisible'}>
          {text}
          <Cursor />
        </span>
        {typed === null ? null : (
          <span className="absolute inset-0">
            {text.slice(0, typed)}
            <Cursor />
          </span>
        )}
      </span>
    </>
  );
}
