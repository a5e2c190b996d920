import { ArrowLeft, ArrowUpRight } from 'lucide-react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { scrollToTopSmooth } from '@/lib/scroll';

export interface ShowcaseProps {
  title: string;
  command: string;
  lead: string;
  badges: readonly string[];
  install?: string;
  repoUrl?: string;
}

/** Shared frame of the static package showcase pages. */
export function ShowcasePage({ title, command, lead, badges, install, repoUrl }: ShowcaseProps) {
  return (
    <Page title={title}>
      <PageHeader command={command} title={title} lead={lead}>
        <ul className="mt-6 flex flex-wrap gap-2" aria-label="Facts">
          {badges.map((badge) => (
            <li
              key={badge}
              className="rounded-full border border-ink-600 bg-ink-850 px-3 py-1 font-mono text-xs text-muted"
            >
              {badge}
            </li>
          ))}
        </ul>
      </PageHeader>
      {install ? (
        <pre className="mt-10 overflow-x-auto rounded-lg border border-ink-700 bg-ink-950 p-4 font-mono text-sm text-fg">
          <code>
            <span className="text-term-green">$</span> {install}
          </code>
        </pre>
      ) : null}
      <div className="mt-10 flex flex-col gap-3 sm:flex-row">
        {repoUrl ? (
          <ExternalLink href={repoUrl} className={buttonClasses('outline', 'md')}>
            Source code
            <ArrowUpRight size={16} aria-hidden="true" />
          </ExternalLink>
        ) : null}
        <Link to="/projects" onClick={scrollToTopSmooth} className={buttonClasses('ghost', 'md')}>
          <ArrowLeft size={16} aria-hidden="true" />
          All projects
        </Link>
      </div>
    </Page>
  );
}
