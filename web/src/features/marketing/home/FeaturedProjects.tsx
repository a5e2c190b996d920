import { ArrowRight } from 'lucide-react';
import { Section } from '@/components/ui/section';
import type { Project, ProjectStats } from '@/content/types';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { ProjectCard } from '../ProjectCard';

/** Home's featured projects, then the way to all of them. */
export function FeaturedProjects({
  projects,
  stats,
}: {
  projects: Project[];
  stats: ProjectStats;
}) {
  return (
    <Section
      id="featured-projects"
      eyebrow="featured"
      title="Featured Projects"
      lead="Open-source work that sessions and the tribe build on."
    >
      <ul className="mt-6 grid gap-4 md:grid-cols-3">
        {projects.map((p) => (
          <li key={p.id}>
            <ProjectCard project={p} variant="featured" />
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
  );
}
