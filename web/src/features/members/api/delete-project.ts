import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import { refetchProjects } from './cache';

/** `DELETE /api/projects/{id}`: its author or an admin removes it, with its reactions and comments. */
export async function deleteProject(id: string): Promise<void> {
  await api.delete<undefined>(`/api/projects/${encodeURIComponent(id)}`);
}

export function useDeleteProject({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof deleteProject>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteProject,
    onSuccess: (...args) => {
      void refetchProjects(client);
      return onSuccess?.(...args);
    },
  });
}
