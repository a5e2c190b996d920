import { useEffect, useState } from 'react';
import { cn } from '@/lib/cn';
import { prefersReducedMotion } from '@/lib/scroll';

export interface TypedTextProps {
  text: string;
  /** Milliseconds per character. */
  speed?: number;
  /** Milliseconds before the first character. */
  delay?: number;
  className?: string;
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

  // The whole text is always laid out: the part not yet typed is only invisible. So lines break
  // and centre exactly as they will at the end, and typing moves nothing around it (no layout
  // shift). The caret has no width of its own; it hangs just after the last typed character.
  return (
    <span className={cn('font-mono', className)}>
      <span className="sr-only">{text}</span>
      <span aria-hidden="true">
        {text.slice(0, shown)}
        <span className="relative">
          <span className="absolute top-[0.1em] left-0.5 h-[1em] w-[0.5em] bg-current motion-safe:animate-blink" />
        </span>
        <span className="invisible">{text.slice(shown)}</span>
      </span>
    </span>
  );
}
