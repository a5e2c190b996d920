/**
 * Site-wide constants of the layout: navigation and footer links. (The social profiles and their
 * order are in content/social.ts; the attributes of links that leave the site in lib/links.ts.)
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
