import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Project, ProjectInput } from '@/lib/api-types/community';
import type { ProjectReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchProjects } from './cache';

/** `POST /api/projects`: shares a project (subscribers and admins). */
export async function createProject(input: ProjectInput): Promise<Project> {
  return (await api.post<ProjectReply>('/api/projects', input)).project;
}

export function useCreateProject({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof createProject>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: createProject,
    onSuccess: (...args) => {
      void refetchProjects(client);
      return onSuccess?.(...args);
    },
  });
}
