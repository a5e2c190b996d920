import { ArrowRight, ArrowUpRight } from 'lucide-react';
import { Link } from 'react-router';
import { Card } from '@/components/ui/card';
import { ExternalLink } from '@/components/ui/external-link';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { scrollToTopSmooth } from '@/lib/scroll';

const showcases = [
  {
    to: '/agentic-payments',
    name: 'Agentic Payments',
    text: 'Signed spending mandates for agents.',
  },
  { to: '/lean-agentic', name: 'Lean Agentic', text: 'A theorem-prover package for agents.' },
  { to: '/midstreamer', name: 'Midstreamer', text: 'Temporal analysis of streaming data.' },
  { to: '/ai-defence', name: 'AI Defence', text: 'Detection and response for LLM threats.' },
  { to: '/aimds', name: 'AIMDS', text: 'The platform behind AI Defence.' },
  { to: '/mcp', name: 'Client-side tools', text: 'MCP-style tools that run in the browser.' },
] as const;

export function ProjectsPage() {
  return (
    <Page title="Projects">
      <PageHeader
        command="ls ~/projects"
        title="Projects"
        lead="Open-source and commercial work on AI agents: orchestration frameworks, agent databases, trading systems, security tooling and MCP servers. Most of it lives in more than 80 repositories on GitHub."
      >
        <p className="mt-6">
          <ExternalLink
            href="https://github.com/ruvnet"
            className="inline-flex items-center gap-1 font-mono text-sm text-term-cyan hover:underline"
          >
            github.com/ruvnet
            <ArrowUpRight size={14} aria-hidden="true" />
          </ExternalLink>
        </p>
      </PageHeader>
      <section aria-labelledby="showcases" className="mt-12">
        <h2 id="showcases" className="text-xl font-semibold text-fg">
          Showcased packages
        </h2>
        <ul className="mt-5 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {showcases.map((s) => (
            <li key={s.to}>
              <Card className="group relative h-full transition-colors hover:border-term-green/50 has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-term-cyan">
                <h3 className="font-mono text-fg">
                  <Link
                    to={s.to}
                    onClick={scrollToTopSmooth}
                    className="after:absolute after:inset-0 focus-visible:outline-none"
                  >
                    {s.name}
                  </Link>
                </h3>
                <p className="mt-2 text-sm text-muted">{s.text}</p>
                <ArrowRight
                  size={16}
                  aria-hidden="true"
                  className="absolute top-5 right-5 text-dim group-hover:text-term-green"
                />
              </Card>
            </li>
          ))}
        </ul>
      </section>
    </Page>
  );
}
