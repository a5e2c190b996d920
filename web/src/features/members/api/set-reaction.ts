import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Project } from '@/lib/api-types/community';
import type { ProjectList, ProjectReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `PUT` or `DELETE /api/projects/{id}/reaction`: gives or takes back the member's one "🔥". */
export async function setReaction({ id, on }: { id: string; on: boolean }): Promise<Project> {
  const path = `/api/projects/${encodeURIComponent(id)}/reaction`;
  return (on ? await api.put<ProjectReply>(path) : await api.delete<ProjectReply>(path)).project;
}

export function useSetReaction({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof setReaction>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: setReaction,
    onSuccess: (...args) => {
      const saved = args[0];
      // The answer carries the new count: show it at once in every list that holds the project.
      client.setQueriesData<ProjectList>({ queryKey: membersKeys.projects }, (list) =>
        list && 'projects' in list
          ? { ...list, projects: list.projects.map((p) => (p.id === saved.id ? saved : p)) }
          : list,
      );
      return onSuccess?.(...args);
    },
  });
}
