import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Comment } from '@/lib/api-types/community';
import type { CommentReply } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { refetchProjects } from './cache';

/** `POST /api/projects/{id}/comments`: a plain-text comment (subscribers and admins). */
export async function addComment({
  projectId,
  body,
}: {
  projectId: string;
  body: string;
}): Promise<Comment> {
  return (
    await api.post<CommentReply>(`/api/projects/${encodeURIComponent(projectId)}/comments`, {
      body,
    })
  ).comment;
}

export function useAddComment({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof addComment>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: addComment,
    onSuccess: (...args) => {
      void refetchProjects(client);
      return onSuccess?.(...args);
    },
  });
}
