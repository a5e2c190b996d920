/** The projects board's form rules, as the server has them (docs/api.md, "Projects and directory"). */
import type { Project, ProjectInput } from '@/lib/api-types/community';
import { isHttpUrl, parseTags } from './logic';

export const PROJECT_LIMITS = {
  title: 120,
  description: 500,
  link: 500,
  tags: 5,
  tag: 24,
  comment: 2000,
  reason: 500,
} as const;

export type ProjectField = 'title' | 'link' | 'description' | 'repo_url' | 'tags';
export type ProjectErrors = Partial<Record<ProjectField, string>>;

/** What the project form holds: the tags as typed, "go, agents". */
export interface ProjectFormValues {
  title: string;
  link: string;
  description: string;
  repo_url: string;
  tags: string;
}

export function emptyProjectForm(): ProjectFormValues {
  return { title: '', link: '', description: '', repo_url: '', tags: '' };
}

export function projectFormOf(p: Project): ProjectFormValues {
  return {
    title: p.title,
    link: p.link,
    description: p.description,
    repo_url: p.repo_url ?? '',
    tags: p.tags.join(', '),
  };
}

/** The form as the server takes it, trimmed. */
export function projectInput(values: ProjectFormValues): ProjectInput {
  return {
    title: values.title.trim(),
    link: values.link.trim(),
    description: values.description.trim(),
    repo_url: values.repo_url.trim(),
    tags: parseTags(values.tags),
  };
}

const linkMessage = 'must be an http:// or https:// address.';

/** The browser's check of the project form; the server checks again and has the last word. */
export function validateProject(values: ProjectFormValues): ProjectErrors {
  const p = projectInput(values);
  const errors: ProjectErrors = {};
  if (p.title === '') errors.title = 'Title is required.';
  else if ([...p.title].length > PROJECT_LIMITS.title) {
    errors.title = `Title must be at most ${PROJECT_LIMITS.title} characters.`;
  }
  if (p.link === '') errors.link = 'Link is required.';
  else if (!isHttpUrl(p.link)) errors.link = `Link ${linkMessage}`;
  if (p.description === '') errors.description = 'Description is required.';
  else if ([...p.description].length > PROJECT_LIMITS.description) {
    errors.description = `Description must be at most ${PROJECT_LIMITS.description} characters.`;
  }
  if (p.repo_url !== '' && !isHttpUrl(p.repo_url)) {
    errors.repo_url = `Repository link ${linkMessage}`;
  }
  if (new Set(p.tags.map((t) => t.toLowerCase())).size > PROJECT_LIMITS.tags) {
    errors.tags = `A project has at most ${PROJECT_LIMITS.tags} tags.`;
  } else if (p.tags.some((t) => [...t].length > PROJECT_LIMITS.tag)) {
    errors.tags = `Each tag must be at most ${PROJECT_LIMITS.tag} characters.`;
  }
  return errors;
}

/** Whether a field name the server sent belongs to the project form. */
export function isProjectField(field: string | undefined): field is ProjectField {
  return (
    field === 'title' ||
    field === 'link' ||
    field === 'description' ||
    field === 'repo_url' ||
    field === 'tags'
  );
}

/** "🔥 3": how the reaction button reads to a screen reader. */
export function reactionLabel(p: Pick<Project, 'title' | 'reactions' | 'reacted'>): string {
  // The button shows only the count: its name starts with it, as voice control users say it.
  const count = p.reactions === 1 ? '1 fire reaction' : `${p.reactions} fire reactions`;
  return `${count}: ${p.reacted ? 'take back your fire reaction to' : 'react with fire to'} ${p.title}`;
}

/** An address the browser may open from a member's post: http(s) only, whatever the server sent. */
export function safeHref(url: string | null): string | undefined {
  return url && isHttpUrl(url) ? url : undefined;
}
