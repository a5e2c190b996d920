import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { prefersReducedMotion } from '@/lib/scroll';

export interface TypedTextProps {
  text: string;
  /** Milliseconds per character. */
  speed?: number;
  /** Milliseconds before the first character appears. */
  delay?: number;
  /**
   * `block` (a line of its own, such as a heading): the whole text and its cursor keep their
   * space while the typed copy is drawn over them; once typed, only the whole text is left.
   * `inline` (centred text that wraps inside a paragraph): the whole text keeps its space, and
   * the typed copy is drawn over it line by line, each line breaking where the whole text breaks
   * and centred as it will be once complete, so nothing around it moves and no line starts off
   * to one side; the caret hangs after the last typed character.
   */
  layout?: 'block' | 'inline';
}

/**
 * How many characters are typed so far, or null for the whole text. Null on the server and in the
 * first client render (so prerendered HTML and hydration agree, and readers without JavaScript get
 * the whole text), and for people who prefer reduced motion; the typing starts in an effect.
 */
function useTypedCount(text: string, speed: number, delay: number): number | null {
  const [typed, setTyped] = useState<number | null>(null);

  useEffect(() => {
    if (prefersReducedMotion()) {
      setTyped(null);
      return;
    }
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

  return typed;
}

function BlockCursor() {
  return (
    <span className="ml-1 inline-block h-[0.85em] w-[0.45em] translate-y-[0.1em] bg-term-green motion-safe:animate-blink" />
  );
}

/**
 * Text typed out character by character, like a terminal. Assistive technology always reads
 * the whole text (`sr-only`), never the partial one; the drawn copy is `aria-hidden` and carries
 * `data-typing` while it types.
 */
export function TypedText({ text, speed = 60, delay = 400, layout = 'block' }: TypedTextProps) {
  const typed = useTypedCount(text, speed, delay);
  const typing = typed !== null || undefined;

  if (layout === 'inline') return <CentredLines text={text} typed={typed} />;

  return (
    <>
      <span className="sr-only">{text}</span>
      <span aria-hidden="true" className="relative block" data-typing={typing}>
        <span className={typed === null ? undefined : 'invisible'}>
          {text}
          <BlockCursor />
        </span>
        {typed === null ? null : (
          <span className="absolute inset-0">
            {text.slice(0, typed)}
            <BlockCursor />
          </span>
        )}
      </span>
    </>
  );
}

/** The caret of the inline layout: it has no width of its own, so typing moves nothing around it. */
function HangingCaret() {
  return (
    <span className="relative">
      <span className="absolute top-[0.1em] left-0.5 h-[1em] w-[0.5em] bg-current motion-safe:animate-blink" />
    </span>
  );
}

/**
 * Where each line of `ref`'s laid-out text starts (character indexes), measured while `active`
 * and again when its width changes; null until measured (or where nothing is laid out, as in
 * tests), and then the text is drawn as one run.
 */
function useLineStarts(ref: RefObject<HTMLElement | null>, text: string, active: boolean) {
  const [starts, setStarts] = useState<number[] | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!active || element === null) return;
    const measure = () => {
      const node = element.firstChild;
      if (node?.nodeType !== Node.TEXT_NODE) return;
      const range = document.createRange();
      if (typeof range.getClientRects !== 'function') return;
      const found = [0];
      let lineTop: number | null = null;
      for (let i = 0; i < text.length; i += 1) {
        if (i > 0 && text[i - 1] !== ' ') continue;
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const top = range.getClientRects()[0]?.top;
        if (top === undefined) return;
        if (lineTop !== null && top > lineTop + 1) found.push(i);
        lineTop = top;
      }
      setStarts((prev) => (prev && prev.join() === found.join() ? prev : found));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, text, active]);
  return starts;
}

/** The inline layout: the whole text holds the space, the typed lines are drawn over it, centred. */
function CentredLines({ text, typed }: { text: string; typed: number | null }) {
  const whole = useRef<HTMLSpanElement>(null);
  const starts = useLineStarts(whole, text, typed !== null) ?? [0];
  const lines = starts
    .map((start, i) => [start, starts[i + 1] ?? text.length] as const)
    .filter(([start], i) => i === 0 || (typed !== null && start < typed));
  return (
    <span className="font-mono">
      <span className="sr-only">{text}</span>
      <span aria-hidden="true" className="relative block" data-typing={typed !== null || undefined}>
        <span ref={whole} className={typed === null ? undefined : 'invisible'}>
          {text}
          {typed === null ? <HangingCaret /> : null}
        </span>
        {typed === null ? null : (
          <span className="absolute inset-x-0 top-0" data-typed-lines="">
            {lines.map(([start, end], i) => (
              <span key={start} className="block">
                {text.slice(start, Math.min(end, typed))}
                {i === lines.length - 1 ? <HangingCaret /> : null}
              </span>
            ))}
          </span>
        )}
      </span>
    </span>
  );
}
