/**
 * A controllable `window.matchMedia` for jsdom: queries are evaluated against a fake viewport
 * width, and {@link setViewportWidth} fires `change` on every list whose result flips.
 */

type Listener = (event: MediaQueryListEvent) => void;

interface FakeList {
  query: string;
  matches: boolean;
  listeners: Set<Listener>;
}

let width = 1024;
let reducedMotion = false;
let lists: FakeList[] = [];

function evaluate(query: string): boolean {
  if (query.includes('prefers-reduced-motion')) return reducedMotion;
  const min = /min-width:\s*(\d+)px/.exec(query);
  const max = /max-width:\s*(\d+)px/.exec(query);
  if (min?.[1] && width < Number(min[1])) return false;
  if (max?.[1] && width > Number(max[1])) return false;
  return Boolean(min || max);
}

export function installMatchMedia(initialWidth: number, prefersReducedMotion = false): void {
  width = initialWidth;
  reducedMotion = prefersReducedMotion;
  lists = [];
  window.matchMedia = (query: string): MediaQueryList => {
    const entry: FakeList = { query, matches: evaluate(query), listeners: new Set() };
    lists.push(entry);
    const mql = {
      get matches() {
        return entry.matches;
      },
      media: query,
      onchange: null,
      addEventListener: (_type: string, listener: Listener) => entry.listeners.add(listener),
      removeEventListener: (_type: string, listener: Listener) => entry.listeners.delete(listener),
      addListener: (listener: Listener) => entry.listeners.add(listener),
      removeListener: (listener: Listener) => entry.listeners.delete(listener),
      dispatchEvent: () => true,
    };
    return mql as unknown as MediaQueryList;
  };
}

export function setViewportWidth(next: number): void {
  width = next;
  for (const entry of lists) {
    const matches = evaluate(entry.query);
    if (matches === entry.matches) continue;
    entry.matches = matches;
    const event = { matches, media: entry.query } as MediaQueryListEvent;
    for (const listener of [...entry.listeners]) listener(event);
  }
}
