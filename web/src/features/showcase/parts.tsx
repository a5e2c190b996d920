/**
 * Building blocks shared by the package showcase pages: sections, badges, cards, figure
 * tiles and tables, registry links, the sticky package bar and the closing call to action.
 */
import { ArrowLeft, ArrowUpRight, Box, Package } from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CodeBlock } from '@/components/ui/code-block';
import { ExternalLink } from '@/components/ui/external-link';
import { SocialIcon } from '@/components/ui/social-icon';
import { cn } from '@/lib/cn';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import type { Feature, FigureTable, PackageLink, RegistryKind, Snippet, Stat } from './types';

export interface SectionProps {
  /** Used for the heading id (`<id>-title`) and as the in-page anchor. */
  id: string;
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A titled block of a showcase page, labelled by its h2. */
export function Section({ id, title, lead, children, className }: SectionProps) {
  const headingId = `${id}-title`;
  return (
    <section id={id} aria-labelledby={headingId} className={cn('mt-16 scroll-mt-40', className)}>
      <h2 id={headingId} className="text-xl font-semibold text-fg sm:text-2xl">
        <span aria-hidden="true" className="mr-2 text-term-green">
          #
        </span>
        {title}
      </h2>
      {lead ? <p className="mt-3 max-w-3xl text-muted">{lead}</p> : null}
      <div className="mt-6">{children}</div>
    </section>
  );
}

/** Short facts about a package (version, licence, runtime) as a list of pills. */
export function BadgeList({
  badges,
  label = 'Package facts',
  className,
}: {
  badges: readonly string[];
  label?: string;
  className?: string;
}) {
  return (
    <ul className={cn('flex flex-wrap gap-2', className)} aria-label={label}>
      {badges.map((badge) => (
        <li
          key={badge}
          className="rounded-full border border-ink-600 bg-ink-850 px-3 py-1 font-mono text-xs text-muted"
        >
          {badge}
        </li>
      ))}
    </ul>
  );
}

const gridColumns = {
  2: 'sm:grid-cols-2',
  3: 'sm:grid-cols-2 lg:grid-cols-3',
  4: 'sm:grid-cols-2 lg:grid-cols-4',
} as const;

/** Icon cards in a responsive grid (one column on phones). */
export function FeatureGrid({
  items,
  columns = 3,
}: {
  items: readonly Feature[];
  columns?: keyof typeof gridColumns;
}) {
  return (
    <ul className={cn('grid gap-4', gridColumns[columns])}>
      {items.map(({ icon: Icon, title, text, tag }) => (
        <li key={title}>
          <Card className="flex h-full flex-col transition-colors hover:border-term-green/40">
            <div className="flex items-start justify-between gap-3">
              <span className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-md border border-term-green/30 bg-ink-900 text-term-green">
                <Icon size={18} aria-hidden="true" />
              </span>
              {tag ? (
                <span className="rounded border border-ink-600 px-2 py-0.5 text-right font-mono text-[11px] text-term-cyan">
                  {tag}
                </span>
              ) : null}
            </div>
            <h3 className="mt-4 font-mono text-base font-semibold text-fg">{title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-muted">{text}</p>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** Headline figures as tiles: two per row on phones, up to four on wide screens. */
export function StatTiles({ stats }: { stats: readonly Stat[] }) {
  return (
    <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      {stats.map((stat) => (
        <div
          key={stat.label}
          className="flex flex-col rounded-lg border border-ink-700 bg-ink-850/80 p-4 sm:p-5"
        >
          <dt className="order-2 mt-1 text-sm text-muted">{stat.label}</dt>
          <dd className="order-1 font-mono text-xl font-bold text-term-green sm:text-2xl lg:text-3xl">
            {stat.value}
          </dd>
          {stat.detail ? (
            <dd className="order-3 mt-1 font-mono text-xs text-dim">{stat.detail}</dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}

/**
 * A table of figures. Cells wrap, so it fits a 320 px screen without a sideways scroll area.
 */
export function DataTable({ table }: { table: FigureTable }) {
  return (
    <div className="overflow-hidden rounded-lg border border-ink-700">
      <table className="w-full border-collapse text-left text-[13px] hyphens-auto sm:text-sm">
        <caption className="border-b border-ink-700 bg-ink-850 px-2.5 py-2 text-left font-mono text-xs text-dim sm:px-4">
          {table.caption}
        </caption>
        <thead>
          <tr className="border-b border-ink-700 bg-ink-850/60">
            {table.columns.map((column) => (
              <th
                key={column}
                scope="col"
                className="px-2.5 py-2.5 align-bottom font-mono text-xs font-semibold text-muted uppercase sm:px-4"
              >
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row) => {
            const [name, ...cells] = row;
            return (
              <tr key={name} className="border-b border-ink-800 last:border-b-0">
                <th scope="row" className="px-2.5 py-2.5 align-top font-medium text-fg sm:px-4">
                  {name}
                </th>
                {cells.map((cell, index) => (
                  <td
                    // Columns are fixed per table, so the position is the identity.
                    key={`${name}-${table.columns[index + 1] ?? index}`}
                    className={cn(
                      'px-2.5 py-2.5 align-top sm:px-4',
                      index === 0 ? 'font-mono text-term-green' : 'text-muted',
                    )}
                  >
                    {cell}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function RegistryIcon({ kind }: { kind: RegistryKind }) {
  if (kind === 'github') return <SocialIcon kind="github" width={16} height={16} />;
  const Icon = kind === 'npm' ? Package : Box;
  return <Icon size={16} aria-hidden="true" />;
}

/** Buttons to the code host and package registries; each opens a new tab. */
export function PackageLinks({
  links,
  className,
}: {
  links: readonly PackageLink[];
  className?: string;
}) {
  return (
    <ul className={cn('flex flex-wrap gap-3', className)} aria-label="Package links">
      {links.map((link) => {
        return (
          <li key={link.href}>
            <ExternalLink href={link.href} className={buttonClasses('outline', 'md')}>
              <RegistryIcon kind={link.kind} />
              {link.label}
              <ArrowUpRight size={14} aria-hidden="true" />
              <span className="sr-only">(opens in a new tab)</span>
            </ExternalLink>
          </li>
        );
      })}
    </ul>
  );
}

/** Code blocks side by side from 1024 px (one under the other before); an odd last one spans. */
export function Snippets({ snippets }: { snippets: readonly Snippet[] }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2 lg:[&>*:last-child:nth-child(odd)]:col-span-2">
      {snippets.map((s) => (
        <CodeBlock key={s.title} title={s.title} code={s.code} language={s.language} />
      ))}
    </div>
  );
}

/** A link back to the projects list, styled as a quiet button. */
export function ProjectsLink({ className }: { className?: string }) {
  return (
    <Link
      to="/projects"
      onClick={scrollToTopSmooth}
      className={buttonClasses('ghost', 'md', className)}
    >
      <ArrowLeft size={16} aria-hidden="true" />
      All projects
    </Link>
  );
}

/** The closing block of a page: a last pitch, the package links and the way back to /projects. */
export function ClosingCta({
  title,
  text,
  links,
  children,
}: {
  title: string;
  text: ReactNode;
  links: readonly PackageLink[];
  children?: ReactNode;
}) {
  return (
    <section
      aria-labelledby="closing-title"
      className="mt-20 rounded-xl border border-term-green/30 bg-gradient-to-b from-ink-850 to-ink-900 p-6 text-center sm:p-10"
    >
      <h2 id="closing-title" className="text-2xl font-bold text-fg sm:text-3xl">
        {title}
      </h2>
      <p className="mx-auto mt-3 max-w-2xl text-muted">{text}</p>
      <PackageLinks links={links} className="mt-6 justify-center" />
      <div className="mt-4 flex flex-wrap justify-center gap-3">
        {children}
        <ProjectsLink />
      </div>
    </section>
  );
}

/**
 * A bar that stays under the site header while the page scrolls, flush with it (the negative
 * top margin cancels the page's top padding). Its offsets match the site header: a 20 px
 * progress strip plus a 56 px (64 px from md) bar and its border.
 *
 * From 640 px the whole bar sticks: name, every badge and the source link on one line. On
 * phones all the badges would wrap to two or three lines and cover a fifth of the screen, so
 * only a one-line row (name, version, source) sticks and the full badge list follows it in the
 * page. The wrapper is `display: contents` on phones so that row sticks for the whole page
 * rather than only within the wrapper.
 */
export function StickyPackageBar({
  name,
  badges,
  repoHref,
}: {
  name: string;
  badges: readonly string[];
  repoHref: string;
}) {
  const version = badges[0];
  return (
    <div
      data-testid="package-bar"
      className="contents sm:sticky sm:top-[77px] sm:z-30 sm:-mx-6 sm:-mt-16 sm:flex sm:flex-wrap sm:items-center sm:gap-x-4 sm:gap-y-2 sm:border-b sm:border-ink-800 sm:bg-ink-900/90 sm:px-6 sm:py-2.5 sm:backdrop-blur sm:supports-[backdrop-filter]:bg-ink-900/75 md:top-[85px] lg:-mx-8 lg:-mt-20 lg:px-8"
    >
      <div
        data-testid="package-bar-row"
        className="sticky top-[77px] z-30 -mx-4 -mt-12 flex items-center gap-3 border-b border-ink-800 bg-ink-900/95 px-4 py-2.5 backdrop-blur sm:contents"
      >
        <p className="min-w-0 truncate font-mono text-sm font-bold text-fg">
          <span aria-hidden="true" className="text-term-green">
            ~/
          </span>
          {name}
          {version ? (
            // The badge list below carries the version for assistive technology.
            <span aria-hidden="true" className="ml-2 font-normal text-dim sm:hidden">
              {version}
            </span>
          ) : null}
        </p>
        <ExternalLink
          href={repoHref}
          className="ml-auto inline-flex shrink-0 items-center gap-1.5 rounded-md font-mono text-xs text-term-cyan hover:underline sm:order-last"
        >
          <SocialIcon kind="github" width={14} height={14} />
          Source
          <span className="sr-only">of {name} on GitHub (opens in a new tab)</span>
        </ExternalLink>
      </div>
      <BadgeList
        badges={badges}
        label={`${name} versions and requirements`}
        className="mt-3 sm:mt-0"
      />
    </div>
  );
}
