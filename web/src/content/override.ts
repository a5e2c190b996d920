import { readJsonScript } from '@/lib/json-script';
import type { SiteContent } from './types';

/** The element the server fills with the site owner's content (internal/web/content_override.go). */
export const CONTENT_ELEMENT_ID = 'tribe-content';

let cachedElement: Element | null = null;
let cachedContent: SiteContent | null = null;

/**
 * The site owner's content when the server injected it into the page, otherwise null (always null
 * while prerendering, where there is no document). The server validated the files before
 * injecting them, so their shapes are the ones in ./types.
 */
export function injectedContent(): SiteContent | null {
  if (typeof document === 'undefined') return null;
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
