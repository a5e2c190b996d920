import type { AnchorHTMLAttributes } from 'react';
import { externalLinkProps } from '@/lib/links';

/** A link that leaves the site: opens a new tab without giving it a handle on this one. */
export function ExternalLink(
  props: Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'target' | 'rel'>,
) {
  return <a {...props} {...externalLinkProps} />;
}
