import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Project, ProjectPatch } from '@/lib/api-types/community';
import type { ProjectReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchProjects } from './cache';

/** `PATCH /api/projects/{id}`: the author edits; an admin hides (with a reason) or shows. */
export async function updateProject({
  id,
  patch,
}: {
  id: string;
  patch: ProjectPatch;
}): Promise<Project> {
  return (await api.patch<ProjectReply>(`/api/projects/${encodeURIComponent(id)}`, patch)).project;
}

export function useUpdateProject({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof updateProject>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: updateProject,
    onSuccess: (...args) => {
      void refetchProjects(client);
      return onSuccess?.(...args);
    },
  });
}
