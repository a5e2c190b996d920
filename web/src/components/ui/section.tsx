import type { ReactNode } from 'react';
import { cn } from '@/lib/cn';

export interface SectionProps {
  /** Id of the heading, used for aria-labelledby and as an in-page anchor. */
  id: string;
  title: ReactNode;
  /** Small mono label above the heading, like a comment in a shell script. */
  eyebrow?: string;
  lead?: ReactNode;
  className?: string;
  children: ReactNode;
}

/** A titled page section: an eyebrow line, an h2 and optional lead text above its content. */
export function Section({ id, title, eyebrow, lead, className, children }: SectionProps) {
  return (
    <section aria-labelledby={id} className={cn('mt-16 sm:mt-20', className)}>
      {eyebrow ? (
        <p className="font-mono text-xs uppercase tracking-[0.18em] text-term-green">
          <span aria-hidden="true"># </span>
          {eyebrow}
        </p>
      ) : null}
      <h2 id={id} className="mt-2 text-2xl font-bold text-fg sm:text-3xl">
        {title}
      </h2>
      {lead ? <p className="mt-3 max-w-3xl text-base text-muted">{lead}</p> : null}
      {children}
    </section>
  );
}
