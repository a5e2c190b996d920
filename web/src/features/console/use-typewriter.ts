import { type RefObject, useCallback, useEffect, useRef, useState } from 'react';
import type { Line } from './transcript';

/** The slowest and fastest typing speed, in milliseconds per character. */
export const TYPE_MS = { min: 15, max: 30 } as const;

/**
 * Above this many characters still to type, several characters go per tick, so a long answer
 * (a whole JSON file) types in a few seconds rather than minutes.
 */
const CHARS_PER_TICK_DIVISOR = 150;

export interface Typewriter {
  /** The lines to show, the one being typed cut to what is typed so far. */
  shown: Line[];
  /** The line being typed (hidden from screen readers until it is whole), if any. */
  activeId: number | undefined;
  /** Shows everything at once; a stream still arriving then shows as it comes. */
  finish: () => void;
}

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;
}

/**
 * Types out new output lines character by character, 15 to 30 ms each, while `root` is on screen.
 * The lines there at mount (the first transcript) are not animated; input lines appear whole; a
 * reader who prefers reduced motion gets every line whole.
 */
export function useTypewriter(lines: Line[], root: RefObject<HTMLElement | null>): Typewriter {
  // Lines with an id up to doneId are shown whole; `chars` are typed of the next one.
  const [cursor, setCursor] = useState(() => ({ doneId: lines.at(-1)?.id ?? -1, chars: 0 }));
  // Lines with an id up to skipThrough are shown whole as they arrive (after finish()).
  const [skipThrough, setSkipThrough] = useState(-1);
  const [visible, setVisible] = useState(false);
  const [instant, setInstant] = useState(false);
  const latest = useRef(lines);
  latest.current = lines;

  useEffect(() => {
    const query = window.matchMedia?.('(prefers-reduced-motion: reduce)');
    setInstant(prefersReducedMotion());
    const onChange = () => setInstant(prefersReducedMotion());
    query?.addEventListener?.('change', onChange);
    return () => query?.removeEventListener?.('change', onChange);
  }, []);

  // Typing starts (and goes on) only while the console is on screen.
  useEffect(() => {
    const element = root.current;
    if (!element || typeof IntersectionObserver === 'undefined') {
      setVisible(true);
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      setVisible(entries.some((entry) => entry.isIntersecting));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [root]);

  const active = lines.find((line) => line.id > cursor.doneId);

  useEffect(() => {
    if (!active) return;
    const whole = instant || active.kind === 'input' || active.id <= skipThrough;
    if (whole || cursor.chars >= active.text.length) {
      // A stream still arriving stays the active line and waits for more text.
      if (active.streaming) return;
      setCursor({ doneId: active.id, chars: 0 });
      return;
    }
    if (!visible) return;
    const pending = active.text.length - cursor.chars;
    const step = Math.max(1, Math.ceil(pending / CHARS_PER_TICK_DIVISOR));
    const delay = TYPE_MS.min + Math.random() * (TYPE_MS.max - TYPE_MS.min);
    const timer = setTimeout(
      () => setCursor((c) => (c.doneId === cursor.doneId ? { ...c, chars: c.chars + step } : c)),
      delay,
    );
    return () => clearTimeout(timer);
  }, [active, cursor, visible, instant, skipThrough]);

  const finish = useCallback(() => {
    const last = latest.current.at(-1);
    if (!last) return;
    setSkipThrough(last.id);
    setCursor((c) => {
      // A stream still arriving stays the active line, shown whole as it grows.
      const doneId = last.streaming ? (latest.current.at(-2)?.id ?? -1) : last.id;
      return doneId > c.doneId ? { doneId, chars: 0 } : c;
    });
  }, []);

  const whole = active && (instant || active.kind === 'input' || active.id <= skipThrough);
  const shown: Line[] = [];
  for (const line of lines) {
    if (line.id <= cursor.doneId) shown.push(line);
    else if (line === active) {
      shown.push(whole ? line : { ...line, text: line.text.slice(0, cursor.chars) });
    }
  }
  const typing = active !== undefined && active.kind === 'output';
  return { shown, activeId: typing ? active.id : undefined, finish };
}
