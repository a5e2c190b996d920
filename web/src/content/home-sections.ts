/**
 * The content of Home below the hero. It travels in the chunk of Home's lower sections, so the
 * project list stays out of the entry chunk (the social links come from content/social.ts).
 */
import { featured, projects, stats } from '@content/projects.json';
import { type ConsoleContent, consoleContent } from './home';
import { injectedContent } from './override';
import type { Project, ProjectStats } from './types';

export interface HomeContent extends ConsoleContent {
  featured: Project[];
  /** The first four other projects, shown as cards. */
  projects: Project[];
  stats: ProjectStats;
}

const HOME_PROJECT_CARDS = 4;

/** Home's content: the site owner's when the server injected it, the bundled files otherwise. */
export function homeContent(): HomeContent {
  const injected = injectedContent();
  if (injected === null) {
    return {
      ...consoleContent(),
      featured,
      projects: projects.slice(0, HOME_PROJECT_CARDS),
      stats,
    };
  }
  return {
    ...consoleContent(),
    featured: injected.projects.featured,
    projects: injected.projects.projects.slice(0, HOME_PROJECT_CARDS),
    stats: injected.projects.stats,
  };
}
