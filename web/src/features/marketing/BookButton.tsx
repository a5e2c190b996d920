import { ArrowUpRight } from 'lucide-react';
import type { ReactNode } from 'react';
import { type ButtonVariant, buttonClasses } from '@/components/ui/button';
import { externalLinkProps } from '@/lib/links';

export interface BookButtonProps {
  /** The external scheduling link; empty when bookings for this card are paused. */
  href: string;
  children: ReactNode;
  variant?: ButtonVariant;
  /** Names the card, for screen readers: "Book 30 minutes". */
  label?: string;
}

/**
 * A card's Book button: opens the scheduling page in a new tab, or is disabled when the card has
 * no booking link.
 */
export function BookButton({ href, children, variant = 'primary', label }: BookButtonProps) {
  const className = buttonClasses(variant, 'md', 'w-full');
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
