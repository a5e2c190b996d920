/**
 * The server's settings for pages (internal/web/page_config.go), which it embeds in every page as
 * #tribe-config when any is set. Absent (the usual case, and always while prerendering), every
 * setting is off.
 */
import type { PageConfig } from '@/lib/api-types/web';
import { readJsonScript } from './json-script';

/** The element the server fills with the page settings. */
export const PAGE_CONFIG_ELEMENT_ID = 'tribe-config';

/** The page settings the server sent, or an empty object. */
export function pageConfig(): PageConfig {
  const value = readJsonScript(PAGE_CONFIG_ELEMENT_ID);
  if (typeof value !== 'object' || value === null) return {};
  const url = (value as { goal_widget_url?: unknown }).goal_widget_url;
  return typeof url === 'string' && url !== '' ? { goal_widget_url: url } : {};
}
