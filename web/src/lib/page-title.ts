import { useEffect } from 'react';

export const SITE_NAME = 'rUv';

export function formatTitle(title: string): string {
  return `${title} | ${SITE_NAME}`;
}

/** Sets `document.title` to "<title> | rUv" while the calling page is mounted. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = formatTitle(title);
  }, [title]);
}
