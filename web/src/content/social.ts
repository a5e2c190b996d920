/**
 * The social profile links, with their addresses from contact.json (the site owner's when the
 * server injected their content), so every place that links a profile uses the same address.
 * Only this part of contact.json is bundled in the entry chunk.
 */
import { online_presence } from '@content/contact.json';
import { injectedContent } from './override';
import type { SocialLinks } from './types';

export type SocialKind = 'youtube' | 'github' | 'linkedin' | 'x';

/** A social profile the site links; its address comes from contact.json. */
export interface SocialProfile {
  kind: SocialKind;
  label: string;
  description: string;
}

/** The profiles in the order the site shows them. */
export const socialProfiles: readonly SocialProfile[] = [
  { kind: 'youtube', label: 'YouTube', description: 'Video tutorials' },
  { kind: 'github', label: 'GitHub', description: 'Code' },
  { kind: 'linkedin', label: 'LinkedIn', description: 'Professional network' },
  { kind: 'x', label: 'X', description: 'Short posts' },
];

export interface SocialLink extends SocialProfile {
  href: string;
}

/** The profiles that have an address in the content, in the site's order. */
export function socialLinks(): SocialLink[] {
  const links: Partial<Record<SocialKind, string>> =
    injectedContent()?.contact.online_presence.links ?? (online_presence.links as SocialLinks);
  return socialProfiles.flatMap((profile) => {
    const href = links[profile.kind];
    return href ? [{ ...profile, href }] : [];
  });
}
