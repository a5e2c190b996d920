import { ArrowUpRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { type ButtonVariant, buttonClasses } from '@/components/ui/button';
import { externalLinkProps } from '@/lib/links';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

export interface BookButtonProps {
  /** The external scheduling link; empty when bookings for this card are paused. */
  href: string;
  /** The site's own booking page (/book/{type}) for an offer booked on the site; wins over `href`. */
  to?: string | undefined;
  children: ReactNode;
  variant?: ButtonVariant;
  /** Names the card, for screen readers: "Book 30 minutes". */
  label?: string;
}

/**
 * A card's Book button: goes to the site's booking page in the same tab for an offer booked on
 * the site, else opens the scheduling page in a new tab, or is disabled when the card has no
 * booking link.
 */
export function BookButton({ href, to, children, variant = 'primary', label }: BookButtonProps) {
  const className = buttonClasses(variant, 'md', 'w-full');
  if (to) {
    return (
      <Link to={to} onClick={scrollToTopSmooth} className={className} aria-label={label}>
        {children}
      </Link>
    );
  }
  if (href.trim() === '') {
    return (
      <button type="button" disabled className={className} aria-label={label}>
        {children}
      </button>
    );
  }
  return (
    <a href={href} {...externalLinkProps} className={className} aria-label={label}>
      {children}
      <ArrowUpRight size={16} aria-hidden="true" />
    </a>
  );
}
