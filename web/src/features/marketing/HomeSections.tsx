import {
  ArrowRight,
  ArrowUpRight,
  CalendarClock,
  Check,
  Compass,
  Gauge,
  Layers,
  Package,
  ShieldCheck,
  Users,
  Workflow,
} from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card, coverLinkClass, linkCardClass } from '@/components/ui/card';
import { Container } from '@/components/ui/container';
import { ExternalLink } from '@/components/ui/external-link';
import { IconCards } from '@/components/ui/icon-cards';
import { ProjectIcon } from '@/components/ui/project-icon';
import { Section } from '@/components/ui/section';
import { SocialIcon } from '@/components/ui/social-icon';
import { formatPrice } from '@/content/format';
import { homeContent } from '@/content/home-sections';
import { socialLinks } from '@/content/social';
import { cn } from '@/lib/cn';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

const insights = [
  {
    icon: Compass,
    title: 'Start with one agent',
    text: 'A single agent with a clear goal, good tools and a test suite beats a swarm built on hope. Add agents when the work demands it.',
  },
  {
    icon: Layers,
    title: 'Memory is the product',
    text: 'What an agent remembers, and how fast it can find it, decides how useful it is. Design memory and retrieval first.',
  },
  {
    icon: Workflow,
    title: 'Tools over prompts',
    text: 'Give models well-described tools through the Model Context Protocol instead of ever-longer prompts. Tools are testable; prose is not.',
  },
  {
    icon: Gauge,
    title: 'Measure, then scale',
    text: 'Track cost, latency and success rate from day one. The numbers tell you when an agent is ready for more autonomy.',
  },
] as const;

const whyChoose = [
  'Three decades in enterprise technology, from cloud computing to enterprise AI platforms',
  'Author of widely used open-source agent frameworks, so advice comes from code that runs',
  'Hands-on sessions: we look at your repository and design, not at slides',
  'Straight answers on what agents can and cannot do for your case today',
] as const;

const quickLinks = [
  { to: '/about', label: 'About rUv' },
  { to: '/projects', label: 'Projects' },
  { to: '/booking', label: 'Book a Session' },
] as const;

/**
 * Home below the hero: featured projects, project cards, insights, services, the tribe, why
 * choose, connect and (on phones) quick links. A chunk of its own, so the entry chunk stays small
 * and the prerendered HTML hydrates in two shorter tasks instead of one long one.
 */
export function HomeSections() {
  const content = homeContent();
  const { tribe, stats } = content;
  const codeLinks = [
    { href: stats.github_url, label: 'Code on GitHub', icon: <SocialIcon kind="github" /> },
    ...(stats.npm_url
      ? [
          {
            href: stats.npm_url,
            label: 'Packages on npm',
            icon: <Package size={18} aria-hidden="true" />,
          },
        ]
      : []),
  ];

  return (
    <Container className="pb-16 sm:pb-24">
      <Section
        id="featured-projects"
        eyebrow="featured"
        title="Featured Projects"
        lead="Open-source work that sessions and the tribe build on."
      >
        <ul className="mt-6 grid gap-4 md:grid-cols-3">
          {content.featured.map((p) => (
            <li key={p.id}>
              <Card className={cn(linkCardClass, 'flex flex-col')}>
                <div className="flex items-center gap-3">
                  <span className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-md border border-ink-700 bg-ink-900 text-term-green">
                    <ProjectIcon name={p.icon} size={20} />
                  </span>
                  <h3 className="min-w-0 text-lg font-semibold text-fg">
                    <ExternalLink href={p.url} className={coverLinkClass}>
                      {p.name}
                    </ExternalLink>
                  </h3>
                  {p.badge ? (
                    <Badge tone="green" className="ml-auto">
                      {p.badge}
                    </Badge>
                  ) : null}
                </div>
                <p className="mt-3 text-sm text-muted">{p.description}</p>
                {/* Padding on the svg itself would squeeze the drawing to a dot: space it from outside. */}
                <span aria-hidden="true" className="mt-auto self-end pt-3">
                  <ArrowUpRight size={16} className="text-dim group-hover:text-term-green" />
                </span>
              </Card>
            </li>
          ))}
        </ul>
        <p className="mt-5">
          <Link
            to="/projects"
            onClick={scrollToTopSmooth}
            className="inline-flex items-center gap-1.5 font-mono text-sm text-term-cyan hover:underline"
          >
            {stats.total_repositories_display} repositories on GitHub
            <ArrowRight size={14} aria-hidden="true" />
          </Link>
        </p>
      </Section>

      <Section id="more-projects" eyebrow="projects" title="More from the workshop">
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {content.projects.map((p) => (
            <li key={p.id}>
              <Card className={linkCardClass}>
                <ProjectIcon name={p.icon} size={20} className="text-term-cyan" />
                <h3 className="mt-3 font-semibold text-fg">
                  <ExternalLink href={p.url} className={coverLinkClass}>
                    {p.name}
                  </ExternalLink>
                </h3>
                <p className="mt-2 text-sm text-muted">{p.description}</p>
              </Card>
            </li>
          ))}
        </ul>
        <p className="mt-5">
          <Link
            to="/projects"
            onClick={scrollToTopSmooth}
            className={buttonClasses('outline', 'md')}
          >
            View all projects
            <ArrowRight size={16} aria-hidden="true" />
          </Link>
        </p>
      </Section>

      <Section id="insights" eyebrow="insights" title="Notes from building agents">
        <IconCards
          items={insights}
          className="sm:grid-cols-2 lg:grid-cols-4"
          iconClassName="text-term-amber"
        />
      </Section>

      <Section
        id="services"
        eyebrow="coaching"
        title="Coaching services"
        lead="One-on-one video sessions on agentic AI, booked on an external scheduling page."
      >
        <ul className="mt-6 grid gap-4 md:grid-cols-3">
          {content.sessions.map((s) => (
            <li key={s.id}>
              <Card className={s.popular ? 'h-full border-term-green/60' : 'h-full'}>
                <div className="flex items-center justify-between gap-2">
                  <p className="font-mono text-sm text-term-cyan">{s.duration} minutes</p>
                  {s.popular ? <Badge tone="amber">Most popular</Badge> : null}
                </div>
                <h3 className="mt-2 font-semibold text-fg">{s.name}</h3>
                <p className="mt-1 font-mono text-3xl font-bold text-fg">
                  {formatPrice(s.price, content.currency)}
                </p>
                <p className="mt-3 text-sm text-muted">{s.description}</p>
              </Card>
            </li>
          ))}
        </ul>
        <p className="mt-5">
          <Link
            to="/booking"
            onClick={scrollToTopSmooth}
            className={buttonClasses('primary', 'md')}
          >
            <CalendarClock size={16} aria-hidden="true" />
            See booking options
          </Link>
        </p>
      </Section>

      <Section id="tribe" eyebrow="community" title={tribe.name}>
        <Card className="mt-6 grid gap-6 border-term-green/40 p-6 sm:p-8 md:grid-cols-[1.4fr_1fr] md:items-center">
          <div>
            <p className="text-base text-muted">{tribe.summary}</p>
            <ul className="mt-4 space-y-2">
              {tribe.features.map((f) => (
                <li key={f} className="flex gap-2 text-sm text-fg">
                  <Check size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-term-green" />
                  {f}
                </li>
              ))}
            </ul>
          </div>
          <div className="rounded-md border border-ink-700 bg-ink-900 p-5 font-mono">
            <p className="text-3xl font-bold text-fg">
              {formatPrice(tribe.price_monthly, tribe.currency)}
              <span className="text-base font-normal text-muted">/month</span>
            </p>
            <p className="mt-1 text-sm text-muted">{tribe.billing}</p>
            <p className="mt-3 flex items-center gap-2 text-sm text-term-amber">
              <Users size={16} aria-hidden="true" />
              Limited to {tribe.capacity} members
            </p>
            <Link
              to="/tribe"
              onClick={scrollToTopSmooth}
              className={buttonClasses('primary', 'md', 'mt-5 w-full')}
            >
              Explore the Tribe
              <ArrowRight size={16} aria-hidden="true" />
            </Link>
          </div>
        </Card>
      </Section>

      <Section id="why-choose" eyebrow="why" title="Why work with rUv">
        <ul className="mt-6 grid gap-3 sm:grid-cols-2">
          {whyChoose.map((point) => (
            <li
              key={point}
              className="flex gap-3 rounded-lg border border-ink-700 bg-ink-850/60 p-4 text-sm text-fg"
            >
              <ShieldCheck size={18} aria-hidden="true" className="shrink-0 text-term-green" />
              {point}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="connect" eyebrow="connect" title="Connect">
        <ul className="mt-6 flex flex-wrap gap-3">
          {codeLinks.map((l) => (
            <li key={l.href}>
              <ExternalLink href={l.href} className={buttonClasses('outline', 'md')}>
                {l.icon}
                {l.label}
              </ExternalLink>
            </li>
          ))}
          {socialLinks()
            .filter((l) => l.kind !== 'github')
            .map((l) => (
              <li key={l.kind}>
                <ExternalLink
                  href={l.href}
                  className={buttonClasses('ghost', 'md', 'border border-ink-700')}
                >
                  <SocialIcon kind={l.kind} />
                  {l.label}
                </ExternalLink>
              </li>
            ))}
        </ul>
      </Section>

      <nav aria-labelledby="quick-links" className="mt-16 md:hidden">
        <h2 id="quick-links" className="font-mono text-sm uppercase tracking-[0.18em] text-dim">
          Quick links
        </h2>
        <ul className="mt-4 grid gap-2">
          {quickLinks.map((l) => (
            <li key={l.to}>
              <Link
                to={l.to}
                onClick={scrollToTopSmooth}
                className="flex items-center justify-between rounded-md border border-ink-700 bg-ink-850/60 px-4 py-3 font-mono text-sm text-fg hover:border-term-green/60"
              >
                {l.label}
                <ArrowRight size={16} aria-hidden="true" className="text-dim" />
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </Container>
  );
}
