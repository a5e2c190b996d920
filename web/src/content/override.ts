import { readJsonScript } from '@/lib/json-script';
import type { SiteContent } from './types';

/** The element the server fills with the site owner's content (internal/web/content_override.go). */
export const CONTENT_ELEMENT_ID = 'tribe-content';

let cachedElement: Element | null = null;
let cachedContent: SiteContent | null = null;
let serverContent: SiteContent | null = null;

/**
 * Sets the content pages render with where there is no document: the server renders its pages
 * again from the site owner's content at start (entry-rerender.tsx); null goes back to the bundled
 * files.
 */
export function setServerContent(content: SiteContent | null): void {
  serverContent = content;
}

/**
 * The site owner's content when the server injected it into the page (or, rendering on the
 * server, set it with setServerContent), otherwise null: always null while prerendering at build
 * time. The server validated the files before injecting them, so their shapes are the ones in
 * ./types.
 */
export function injectedContent(): SiteContent | null {
  if (typeof document === 'undefined') return serverContent;
  const element = document.getElementById(CONTENT_ELEMENT_ID);
  if (element === null) return null;
  if (element !== cachedElement) {
    cachedElement = element;
    // Broken, it is ignored: the bundled content is still correct text.
    const value = readJsonScript(CONTENT_ELEMENT_ID);
    cachedContent = typeof value === 'object' && value !== null ? (value as SiteContent) : null;
  }
  return cachedContent;
}
