import { ArrowUpRight, Building2, CalendarClock } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ExternalLink } from '@/components/ui/external-link';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { Section } from '@/components/ui/section';
import { TerminalWindow } from '@/components/ui/terminal-window';
import { siteContent } from '@/content/site';
import type { About } from '@/content/types';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

/** One `"key": value` line of the profile block, coloured like a terminal's JSON output. */
function JsonLine({ name, children, last }: { name: string; children: ReactNode; last?: boolean }) {
  return (
    <span className="block pl-4">
      <span className="text-term-cyan">"{name}"</span>
      <span className="text-muted">: </span>
      {children}
      {last ? null : <span className="text-muted">,</span>}
    </span>
  );
}

function JsonString({ value }: { value: string }) {
  return <span className="break-words text-term-green">"{value}"</span>;
}

/** The profile as a JSON document, the way the console's `about` command prints it. */
function ProfileBlock({ about }: { about: About }) {
  return (
    <TerminalWindow title="ruv@io: ~ cat profile.json" className="mt-10">
      <pre className="font-mono text-xs leading-relaxed whitespace-pre-wrap sm:text-sm">
        <code>
          <span className="block text-muted">{'{'}</span>
          <JsonLine name="name">
            <JsonString value={about.name} />
          </JsonLine>
          <JsonLine name="handle">
            <JsonString value={about.handle} />
          </JsonLine>
          <JsonLine name="title">
            <JsonString value={about.title} />
          </JsonLine>
          <JsonLine name="website">
            <JsonString value={about.website} />
          </JsonLine>
          <JsonLine name="expertise" last>
            <span className="text-muted">[</span>
            {about.expertise.map((item, i) => (
              <span key={item} className="block pl-4">
                <JsonString value={item} />
                {i < about.expertise.length - 1 ? <span className="text-muted">,</span> : null}
              </span>
            ))}
            <span className="text-muted">]</span>
          </JsonLine>
          <span className="block text-muted">{'}'}</span>
        </code>
      </pre>
    </TerminalWindow>
  );
}

export function AboutPage() {
  const { about } = siteContent();

  return (
    <Page title="About">
      <PageHeader command="cat about.md" title={`About ${about.handle}`} lead={about.summary}>
        <p className="mt-4 max-w-2xl font-mono text-sm text-term-cyan">{about.title}</p>
      </PageHeader>

      <ProfileBlock about={about} />

      <Section id="pact" eyebrow="agentics" title="PACT" lead={about.pact.summary}>
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {about.pact.principles.map((item) => (
            <li key={item.name}>
              <Card className="h-full">
                <p aria-hidden="true" className="font-mono text-4xl font-bold text-term-green">
                  {item.name.charAt(0)}
                </p>
                <h3 className="mt-2 font-mono text-lg text-fg">{item.name}</h3>
                <p className="mt-1 text-sm text-muted">{item.meaning}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="philosophy" eyebrow="philosophy" title="How I work" lead={about.approach}>
        <ul className="mt-6 grid gap-4 md:grid-cols-2">
          {about.philosophy.map((p, i) => (
            <li key={p.title}>
              <Card className="h-full">
                <p aria-hidden="true" className="font-mono text-xs text-dim">
                  {'// '}
                  {String(i + 1).padStart(2, '0')}
                </p>
                <h3 className="mt-1 text-lg font-semibold text-fg">{p.title}</h3>
                <p className="mt-2 text-sm text-muted">{p.description}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="clients" eyebrow="clients" title="Clients and institutions">
        <ul className="mt-6 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {about.clients.map((c) => (
            <li
              key={c.name}
              className="flex items-start gap-3 rounded-lg border border-ink-700 bg-ink-850/60 p-4"
            >
              <Building2 size={18} aria-hidden="true" className="mt-0.5 shrink-0 text-term-cyan" />
              <div className="min-w-0">
                <p className="text-sm font-medium text-fg">{c.name}</p>
                <p className="font-mono text-xs text-dim">{c.sector}</p>
              </div>
            </li>
          ))}
        </ul>
        {about.clients_note ? (
          <p className="mt-4 text-sm text-muted">{about.clients_note}</p>
        ) : null}
      </Section>

      <Section id="biography" eyebrow="biography" title="Biography">
        <div className="mt-6 max-w-3xl space-y-4 text-base leading-relaxed text-muted">
          {about.biography.map((paragraph) => (
            <p key={paragraph.slice(0, 40)}>{paragraph}</p>
          ))}
        </div>
        {about.followers.length > 0 ? (
          <ul className="mt-8 flex flex-wrap gap-3" aria-label="Followers">
            {about.followers.map((f) => (
              <li key={f.platform}>
                <ExternalLink
                  href={f.url}
                  className="group inline-flex items-center gap-3 rounded-full border border-ink-600 bg-ink-850 px-4 py-2 font-mono text-sm transition-colors hover:border-term-green/60"
                >
                  <span className="font-bold text-term-green">{f.count}</span>
                  <span className="text-fg">
                    {f.platform} {f.label}
                  </span>
                  <ArrowUpRight
                    size={14}
                    aria-hidden="true"
                    className="text-dim group-hover:text-term-green"
                  />
                </ExternalLink>
              </li>
            ))}
          </ul>
        ) : null}
      </Section>

      <div className="mt-16 rounded-xl border border-term-green/40 bg-ink-850/80 p-6 sm:p-8">
        <h2 className="text-xl font-bold text-fg sm:text-2xl">Work with me</h2>
        <p className="mt-2 max-w-2xl text-muted">
          Bring a question, a design or a codebase. One-on-one sessions start at 15 minutes.
        </p>
        <Link
          to="/booking"
          onClick={scrollToTopSmooth}
          className={buttonClasses('primary', 'lg', 'mt-5')}
        >
          <CalendarClock size={18} aria-hidden="true" />
          Book a session
        </Link>
      </div>
    </Page>
  );
}
