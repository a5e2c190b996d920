import { useEffect, useRef } from 'react';

/**
 * Keeps the document's head tags (description, canonical link, social tags, robots, structured
 * data) those of the current page, as its prerendered HTML has them. When the page was hydrated
 * from that HTML (`prerendered`), its head is already right until the first navigation. The
 * table of every page's metadata, and the content files the structured data is made of, load on
 * the first navigation (they are not needed before, and would weigh on the first visit).
 */
export function useDocumentHead(pathname: string, prerendered: boolean): void {
  const untouched = useRef<string | null>(prerendered ? pathname : null);
  useEffect(() => {
    if (pathname === untouched.current) return;
    untouched.current = null;
    let current = true;
    void updateHead(pathname, () => current);
    return () => {
      current = false;
    };
  }, [pathname]);
}

async function updateHead(pathname: string, isCurrent: () => boolean): Promise<void> {
  try {
    const head = await import('./head');
    if (!isCurrent()) return;
    const { path, meta } = head.metaFor(pathname);
    const base = head.documentBaseUrl(document);
    head.applyHead(document, head.headTags(path, meta, base, null));
    if (!head.hasStructuredData(path)) return;
    const { siteContent } = await import('@/content/site');
    if (!isCurrent()) return;
    const data = head.structuredData(path, siteContent(), meta, base);
    head.applyHead(document, head.headTags(path, meta, base, data));
  } catch {
    // Offline: the chunk did not load, and the page keeps the head tags it had.
  }
}
