import { ArrowRight, ArrowUpRight, Package, Wrench } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Card, coverLinkClass, linkCardClass } from '@/components/ui/card';
import { ExternalLink } from '@/components/ui/external-link';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { ProjectIcon } from '@/components/ui/project-icon';
import { Section } from '@/components/ui/section';
import { SocialIcon } from '@/components/ui/social-icon';
import { siteContent } from '@/content/site';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { ProjectCard } from './ProjectCard';

/** How many of the featured projects get the large cards at the top of the page. */
const PROJECTS_FEATURED = 2;

interface Profile {
  href: string;
  name: string;
  detail: string;
  icon: ReactNode;
}

export function ProjectsPage() {
  const { projects: content, contact } = siteContent();
  const { stats } = content;
  // The page leads with two featured projects; the rest of the featured list (Home shows three)
  // opens the grid of external cards, so no project drops off the page.
  const featured = content.featured.slice(0, PROJECTS_FEATURED);
  const showcased = content.projects.filter((p) => p.page);
  const external = [
    ...content.featured.slice(PROJECTS_FEATURED),
    ...content.projects.filter((p) => !p.page),
  ];
  const links = contact.online_presence.links;

  const profiles: Profile[] = [
    {
      href: stats.github_url,
      name: 'GitHub',
      detail: `${stats.total_repositories_display} open-source repositories`,
      icon: <SocialIcon kind="github" width={22} height={22} />,
    },
    ...(stats.npm_url
      ? [
          {
            href: stats.npm_url,
            name: 'npm',
            detail: 'Published TypeScript and WebAssembly packages',
            icon: <Package size={22} aria-hidden="true" />,
          },
        ]
      : []),
    ...(links.youtube
      ? [
          {
            href: links.youtube,
            name: 'YouTube',
            detail: 'Walkthroughs and live builds',
            icon: <SocialIcon kind="youtube" width={22} height={22} />,
          },
        ]
      : []),
    {
      href: links.linkedin,
      name: 'LinkedIn',
      detail: 'Articles and announcements',
      icon: <SocialIcon kind="linkedin" width={22} height={22} />,
    },
  ];

  return (
    <Page title="Projects">
      <PageHeader
        command="ls ~/projects"
        title="Projects"
        lead={`Open-source and commercial work on AI agents: orchestration frameworks, agent memory, trading systems, security tooling and MCP servers, across ${stats.total_repositories_display} repositories on GitHub.`}
      />

      <ul className="mt-10 grid gap-3 sm:grid-cols-2 lg:grid-cols-4" aria-label="Profiles">
        {profiles.map((p) => (
          <li key={p.href}>
            <Card className={`${linkCardClass} flex items-center gap-3 p-4`}>
              <span className="text-term-green">{p.icon}</span>
              <div className="min-w-0">
                <p className="font-mono font-semibold text-fg">
                  <ExternalLink href={p.href} className={coverLinkClass}>
                    {p.name}
                  </ExternalLink>
                </p>
                <p className="text-xs text-muted">{p.detail}</p>
              </div>
              <ArrowUpRight
                size={16}
                aria-hidden="true"
                className="ml-auto shrink-0 text-dim group-hover:text-term-green"
              />
            </Card>
          </li>
        ))}
      </ul>

      <Section id="featured" eyebrow="featured" title="Featured projects">
        <ul className="mt-6 grid gap-5 md:grid-cols-2">
          {featured.map((p) => (
            <li key={p.id}>
              <ProjectCard project={p} variant="lead" />
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="showcases"
        eyebrow="on this site"
        title="Package showcases"
        lead="Guided tours of packages: what they do, how to install them and how fast they run."
      >
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {showcased.map((p) => (
            <li key={p.id}>
              <Card className={linkCardClass}>
                <div className="flex items-center gap-3">
                  <ProjectIcon name={p.icon} size={20} className="shrink-0 text-term-green" />
                  <h3 className="font-mono font-semibold text-fg">
                    <Link
                      to={p.page ?? '/projects'}
                      onClick={scrollToTopSmooth}
                      className={coverLinkClass}
                    >
                      {p.name}
                    </Link>
                  </h3>
                  <ArrowRight
                    size={16}
                    aria-hidden="true"
                    className="ml-auto shrink-0 text-dim transition-transform group-hover:translate-x-0.5 group-hover:text-term-green"
                  />
                </div>
                <p className="mt-3 text-sm text-muted">{p.description}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="open-source" eyebrow="open source" title="Frameworks and tools">
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {external.map((p) => (
            <li key={p.id}>
              <ProjectCard project={p} variant="listed" />
            </li>
          ))}
        </ul>
        <p className="mt-6">
          <ExternalLink href={stats.github_url} className={buttonClasses('outline', 'md')}>
            <SocialIcon kind="github" />
            All {stats.total_repositories_display} repositories
          </ExternalLink>
        </p>
      </Section>

      <Section id="mcp" eyebrow="mcp" title="Client-side MCP tools">
        <Card className="mt-6 grid gap-5 border-term-cyan/40 p-6 sm:p-8 md:grid-cols-[1fr_auto] md:items-center">
          <div>
            <p className="flex items-center gap-2 font-mono text-sm text-term-cyan">
              <Wrench size={16} aria-hidden="true" />
              Model Context Protocol, in the browser
            </p>
            <p className="mt-3 max-w-2xl text-muted">
              A starter kit of MCP-style tools that run entirely on the page: list and read
              resources, search an index and read JSON paths over static files. No tool server to
              host, and your visitors' data never leaves their browser. MIT licensed.
            </p>
          </div>
          <div>
            <Link to="/mcp" onClick={scrollToTopSmooth} className={buttonClasses('primary', 'md')}>
              Tools and starter kit
              <ArrowRight size={16} aria-hidden="true" />
            </Link>
          </div>
        </Card>
      </Section>
    </Page>
  );
}
