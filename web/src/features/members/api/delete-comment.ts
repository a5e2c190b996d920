import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MutationConfig } from '@/lib/query';
import { refetchProjects } from './cache';

/** `DELETE /api/projects/{id}/comments/{comment}`: its author takes it back, or an admin removes it. */
export async function deleteComment({
  projectId,
  commentId,
}: {
  projectId: string;
  commentId: string;
}): Promise<void> {
  await api.delete<undefined>(
    `/api/projects/${encodeURIComponent(projectId)}/comments/${encodeURIComponent(commentId)}`,
  );
}

export function useDeleteComment({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof deleteComment>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteComment,
    onSuccess: (...args) => {
      void refetchProjects(client);
      return onSuccess?.(...args);
    },
  });
}
