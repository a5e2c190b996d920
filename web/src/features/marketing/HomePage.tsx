import { ArrowRight, Boxes, CalendarClock, Users, Wrench } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Container } from '@/components/ui/container';
import { TerminalWindow } from '@/components/ui/terminal-window';
import { usePageTitle } from '@/lib/page-title';
import { scrollToTopSmooth } from '@/lib/scroll';

const sessions = [
  { length: '15 min', label: 'quick consult', price: '$149', popular: false },
  { length: '30 min', label: 'deep dive', price: '$299', popular: true },
  { length: '60 min', label: 'architecture review', price: '$499', popular: false },
] as const;

interface Pointer {
  to: string;
  title: string;
  text: string;
  icon: ReactNode;
}

const pointers: Pointer[] = [
  {
    to: '/projects',
    title: 'Projects',
    text: 'Open-source agent frameworks, MCP servers and tools: 80+ repositories on GitHub.',
    icon: <Boxes size={20} aria-hidden="true" />,
  },
  {
    to: '/tribe',
    title: 'The Tribe',
    text: 'A small paid community that builds agentic systems together in live sessions.',
    icon: <Users size={20} aria-hidden="true" />,
  },
  {
    to: '/mcp',
    title: 'Client-side tools',
    text: 'A starter kit for running MCP-style tools in the browser, MIT licensed.',
    icon: <Wrench size={20} aria-hidden="true" />,
  },
];

export function HomePage() {
  usePageTitle('Agentic Coaching & Mentoring');

  return (
    <>
      <section className="relative isolate overflow-hidden border-b border-ink-800">
        <div aria-hidden="true" className="absolute inset-0 -z-10 bg-grid" />
        <div
          aria-hidden="true"
          className="absolute -top-40 left-1/2 -z-10 h-96 w-[48rem] -translate-x-1/2 rounded-full bg-term-green/10 blur-3xl"
        />
        <Container className="grid items-center gap-12 py-14 sm:py-20 lg:grid-cols-[1.1fr_1fr] lg:py-24">
          <div className="motion-safe:animate-fade-up">
            <p className="font-mono text-sm text-dim">
              <span className="text-term-green">$</span> whoami
              <span className="ml-2 text-muted">rUv · Reuven Cohen</span>
            </p>
            <h1 className="mt-4 text-4xl font-bold leading-tight text-fg sm:text-5xl lg:text-6xl">
              <span className="text-term-green">Agentic</span> Coaching &amp; Mentoring
            </h1>
            <p className="mt-5 font-mono text-base text-term-cyan sm:text-lg">
              Personalized AI Mastery: One-on-One Consultations Available
            </p>
            <p className="mt-5 max-w-xl text-base text-muted sm:text-lg">
              Independent consultant and enterprise AI architect. I help developers, teams and
              enterprises design, build and ship AI agents, from a first prototype to multi-agent
              systems running in production.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link
                to="/booking"
                onClick={scrollToTopSmooth}
                className={buttonClasses('primary', 'lg')}
              >
                <CalendarClock size={18} aria-hidden="true" />
                Book a Session
              </Link>
              <Link
                to="/about"
                onClick={scrollToTopSmooth}
                className={buttonClasses('outline', 'lg')}
              >
                About
                <ArrowRight size={18} aria-hidden="true" />
              </Link>
            </div>
          </div>

          <TerminalWindow title="ruv@io: ~/sessions" className="motion-safe:animate-fade-up">
            <p>
              <span className="text-term-green">$</span>{' '}
              <span className="text-fg">ls sessions/</span>
            </p>
            <ul className="mt-2 space-y-1.5">
              {sessions.map((s) => (
                <li key={s.length} className="flex items-baseline gap-3">
                  <span className="w-16 shrink-0 text-term-cyan">{s.length}</span>
                  <span className="min-w-0 flex-1 truncate text-muted">
                    {s.label}
                    {s.popular ? <span className="ml-2 text-term-amber">★ popular</span> : null}
                  </span>
                  <span className="text-fg tabular-nums">{s.price}</span>
                </li>
              ))}
            </ul>
            <p className="mt-4">
              <span className="text-term-green">$</span>{' '}
              <span className="text-fg">cat tribe.txt</span>
            </p>
            <p className="mt-2 text-muted">
              the tribe: <span className="text-fg">$250/month</span>, bi-weekly 2-hour live
              sessions, small cohorts.
            </p>
            <p className="mt-4">
              <span className="text-term-green">$</span>
              <span
                aria-hidden="true"
                className="ml-2 inline-block h-4 w-2 translate-y-0.5 bg-term-green motion-safe:animate-blink"
              />
            </p>
          </TerminalWindow>
        </Container>
      </section>

      <Container className="py-14 sm:py-20">
        <h2 className="font-mono text-sm font-semibold uppercase tracking-[0.18em] text-dim">
          Explore
        </h2>
        <ul className="mt-6 grid gap-4 md:grid-cols-3">
          {pointers.map((p) => (
            <li key={p.to}>
              <Card className="group relative h-full transition-colors hover:border-term-green/50 has-[a:focus-visible]:border-term-cyan has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-term-cyan">
                <span className="inline-flex h-10 w-10 items-center justify-center rounded-md border border-ink-700 bg-ink-900 text-term-green">
                  {p.icon}
                </span>
                <h3 className="mt-4 text-lg font-semibold text-fg">
                  <Link
                    to={p.to}
                    onClick={scrollToTopSmooth}
                    className="after:absolute after:inset-0 after:rounded-lg focus-visible:outline-none group-focus-within:text-term-green"
                  >
                    {p.title}
                  </Link>
                </h3>
                <p className="mt-2 text-sm text-muted">{p.text}</p>
                <ArrowRight
                  size={18}
                  aria-hidden="true"
                  className="absolute top-5 right-5 text-dim transition-transform group-hover:translate-x-0.5 group-hover:text-term-green"
                />
              </Card>
            </li>
          ))}
        </ul>
      </Container>
    </>
  );
}
