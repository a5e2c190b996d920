import { ArrowUpRight } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, coverLinkClass, linkCardClass } from '@/components/ui/card';
import { ExternalLink } from '@/components/ui/external-link';
import { ProjectIcon } from '@/components/ui/project-icon';
import type { Project } from '@/content/types';

/**
 * Where a card stands, which decides its look:
 * - `featured`: Home's featured projects, the icon on a tile and an arrow at the foot;
 * - `lead`: the projects page's first cards, larger, with the project's topics at the foot;
 * - `listed`: the projects page's grid, the icon alone and the topics at the foot;
 * - `compact`: Home's smaller cards, the icon above the name, no badge and no topics.
 */
export type ProjectCardVariant = 'featured' | 'lead' | 'listed' | 'compact';

interface Look {
  /** Classes the card adds to the link card's. */
  card: string;
  /** The icon's tile size and the icon's own size; no tile draws the icon alone. */
  tile: { className: string; icon: number } | null;
  title: string;
  text: string;
}

const looks: Record<Exclude<ProjectCardVariant, 'compact'>, Look> = {
  featured: {
    card: 'flex flex-col',
    tile: { className: 'h-10 w-10', icon: 20 },
    title: 'text-lg font-semibold',
    text: 'mt-3',
  },
  lead: {
    card: 'flex flex-col border-ink-600 p-6',
    tile: { className: 'h-11 w-11', icon: 22 },
    title: 'text-xl font-bold',
    text: 'mt-4',
  },
  listed: { card: 'flex flex-col', tile: null, title: 'font-semibold', text: 'mt-3' },
};

/** A project as a card whose one link, the project's name, opens its page elsewhere. */
export function ProjectCard({
  project: p,
  variant,
}: {
  project: Project;
  variant: ProjectCardVariant;
}) {
  const name = (
    <ExternalLink href={p.url} className={coverLinkClass}>
      {p.name}
    </ExternalLink>
  );
  if (variant === 'compact') {
    return (
      <Card className={linkCardClass}>
        <ProjectIcon name={p.icon} size={20} className="text-term-cyan" />
        <h3 className="mt-3 font-semibold text-fg">{name}</h3>
        <p className="mt-2 text-sm text-muted">{p.description}</p>
      </Card>
    );
  }
  const look = looks[variant];
  return (
    <Card className={`${linkCardClass} ${look.card}`}>
      <div className="flex items-center gap-3">
        {look.tile ? (
          <span
            className={`inline-flex ${look.tile.className} shrink-0 items-center justify-center rounded-md border border-ink-700 bg-ink-900 text-term-green`}
          >
            <ProjectIcon name={p.icon} size={look.tile.icon} />
          </span>
        ) : (
          <ProjectIcon name={p.icon} size={20} className="shrink-0 text-term-cyan" />
        )}
        <h3 className={`min-w-0 ${look.title} text-fg`}>{name}</h3>
        {p.badge ? (
          <Badge tone="green" className="ml-auto">
            {p.badge}
          </Badge>
        ) : variant === 'listed' ? (
          <ArrowUpRight
            size={16}
            aria-hidden="true"
            className="ml-auto shrink-0 text-dim group-hover:text-term-green"
          />
        ) : null}
      </div>
      <p className={`${look.text} text-sm text-muted`}>{p.description}</p>
      {variant === 'featured' ? (
        // Padding on the svg itself would squeeze the drawing to a dot: space it from outside.
        <span aria-hidden="true" className="mt-auto self-end pt-3">
          <ArrowUpRight size={16} className="text-dim group-hover:text-term-green" />
        </span>
      ) : (
        <div className="mt-auto">
          <Topics tags={p.tags} />
        </div>
      )}
    </Card>
  );
}

function Topics({ tags }: { tags: string[] }) {
  if (tags.length === 0) return null;
  return (
    <ul className="mt-4 flex flex-wrap gap-1.5" aria-label="Topics">
      {tags.map((t) => (
        <li key={t}>
          <Badge>{t}</Badge>
        </li>
      ))}
    </ul>
  );
}
