/** Cache updates that more than one members-area mutation makes. */

import type { QueryClient } from '@tanstack/react-query';
import type { Profile } from '@/lib/api-types/community';
import { session } from '@/lib/session';
import { membersKeys } from './keys';

/** Puts a saved profile in the cache and refreshes the user (whose name or avatar may change). */
export function profileSaved(client: QueryClient, saved: Profile): void {
  client.setQueryData(membersKeys.profile, saved);
  void session.refresh();
}

/** A new or removed avatar also shows in the cohorts' member lists. */
export function avatarSaved(client: QueryClient, saved: Profile): void {
  profileSaved(client, saved);
  void client.invalidateQueries({ queryKey: membersKeys.cohorts });
}

/** Refetches the cohorts (started at once; the caller awaits it when it should). */
export function refetchCohorts(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: membersKeys.cohorts });
}

/** Refetches the live sessions (started at once; the caller awaits it when it should). */
export function refetchSessions(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: membersKeys.sessions });
}

/** A membership changed: the admins' list and the member count (started at once). */
export function refetchMembership(client: QueryClient): Promise<void> {
  void client.invalidateQueries({ queryKey: membersKeys.overview });
  return client.invalidateQueries({ queryKey: membersKeys.adminMembers });
}

/** The knowledge base changed: every page of the documents list (started at once). */
export function refetchDocuments(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: membersKeys.documents });
}

/** Awards changed (admins): the list, and the admin's own progress should they be the member. */
export function refetchAwards(client: QueryClient): Promise<void> {
  void client.invalidateQueries({ queryKey: membersKeys.progress });
  return client.invalidateQueries({ queryKey: membersKeys.awards });
}

/** The projects board changed: every list, comments, the directory (which lists projects) and the
 * member's progress (projects count towards the level). Started at once. */
export function refetchProjects(client: QueryClient): Promise<void> {
  void client.invalidateQueries({ queryKey: membersKeys.directory });
  void client.invalidateQueries({ queryKey: membersKeys.progress });
  return client.invalidateQueries({ queryKey: membersKeys.projects });
}
