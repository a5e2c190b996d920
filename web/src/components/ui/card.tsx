import type { HTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** A bordered panel in the terminal style. */
export function Card({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn(
        'rounded-lg border border-ink-700 bg-ink-850/80 p-5 shadow-[inset_0_1px_0_rgb(255_255_255/0.03)]',
        className,
      )}
      {...rest}
    />
  );
}

/**
 * Classes for a Card that is one big link: it lifts on hover and shows the focus ring of the link
 * inside it, which carries `coverLinkClass` so that clicking anywhere on the card follows it.
 */
export const linkCardClass =
  'group relative h-full transition-colors hover:border-term-green/50 has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-term-cyan';

/** Stretches a link over its positioned card (the card draws the focus ring instead). */
export const coverLinkClass =
  'after:absolute after:inset-0 after:rounded-lg focus-visible:outline-none';
