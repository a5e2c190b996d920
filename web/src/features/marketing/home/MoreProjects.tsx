import { ArrowRight } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { Section } from '@/components/ui/section';
import type { Project } from '@/content/types';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { ProjectCard } from '../ProjectCard';

/** A few more projects as small cards, and the link to the projects page. */
export function MoreProjects({ projects }: { projects: Project[] }) {
  return (
    <Section id="more-projects" eyebrow="projects" title="More from the workshop">
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {projects.map((p) => (
          <li key={p.id}>
            <ProjectCard project={p} variant="compact" />
          </li>
        ))}
      </ul>
      <p className="mt-5">
        <Link to="/projects" onClick={scrollToTopSmooth} className={buttonClasses('outline', 'md')}>
          View all projects
          <ArrowRight size={16} aria-hidden="true" />
        </Link>
      </p>
    </Section>
  );
}
