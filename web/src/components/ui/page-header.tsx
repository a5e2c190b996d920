import type { ReactNode } from 'react';

export interface PageHeaderProps {
  /** Shell-style line shown above the heading, e.g. "cat about.md". */
  command: string;
  title: ReactNode;
  lead?: ReactNode;
  children?: ReactNode;
}

/** The heading block every page starts with: a prompt line, the h1 and a lead paragraph. */
export function PageHeader({ command, title, lead, children }: PageHeaderProps) {
  return (
    <header className="motion-safe:animate-fade-up">
      <p className="font-mono text-sm text-dim" aria-hidden="true">
        <span className="text-term-green">ruv@io</span>
        <span className="text-muted">:</span>
        <span className="text-term-cyan">~</span>
        <span className="text-muted">$ </span>
        <span className="text-muted">{command}</span>
      </p>
      <h1 className="mt-3 text-3xl font-bold text-fg sm:text-4xl lg:text-5xl">{title}</h1>
      {lead ? <p className="mt-4 max-w-2xl text-base text-muted sm:text-lg">{lead}</p> : null}
      {children}
    </header>
  );
}
