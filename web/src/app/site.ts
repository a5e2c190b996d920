/**
 * Site-wide constants: navigation, footer links and the order of the social profiles.
 * (A later step moves these into the content JSON files served by the Go server.)
 */

export interface NavLink {
  to: string;
  label: string;
  /** Shown only from the `lg` breakpoint in the desktop bar (still listed in the mobile menu). */
  largeOnly?: boolean;
}

export interface ExternalLink {
  label: string;
  href: string;
  description?: string;
}

export const site = {
  name: 'rUv',
  person: 'Reuven Cohen',
  url: 'https://ruv.io',
  tagline: 'Agentic AI engineering: consulting, coaching and the tribe.',
} as const;

export const memberLoginLink: NavLink = { to: '/auth', label: 'Member Login' };

/** Primary navigation, in order. The last item (Member Login) is rendered as a button-like link. */
export const navLinks: readonly NavLink[] = [
  { to: '/', label: 'Home', largeOnly: true },
  { to: '/about', label: 'About' },
  { to: '/projects', label: 'Projects' },
  { to: '/tribe', label: 'Tribe' },
  { to: '/booking', label: 'Booking' },
];

export const siblingSites: readonly ExternalLink[] = [
  {
    label: 'Agentics Foundation',
    href: 'https://agentics.org',
    description: 'Community and education for agentic AI',
  },
  {
    label: 'Flow Nexus',
    href: 'https://flow-nexus.ruv.io',
    description: 'Cloud platform for agent swarms',
  },
];

export type SocialKind = 'youtube' | 'github' | 'linkedin' | 'x';

/** A social profile the site links; its address comes from contact.json (content/social.ts). */
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

/** Attributes for every link that leaves the site. */
export const externalLinkProps = {
  target: '_blank',
  rel: 'noopener noreferrer',
} as const;
