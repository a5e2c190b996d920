import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Comment } from '@/lib/api-types/community';
import type { CommentList } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/projects/{id}/comments`: a project's comments, oldest first. */
export async function getComments(projectId: string, signal?: AbortSignal): Promise<Comment[]> {
  return (
    await api.get<CommentList>(`/api/projects/${encodeURIComponent(projectId)}/comments`, signal)
  ).comments;
}

export function getCommentsQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: membersKeys.comments(projectId),
    queryFn: ({ signal }) => getComments(projectId, signal),
  });
}

export function useComments({
  projectId,
  queryConfig,
}: {
  projectId: string;
  queryConfig?: QueryConfig<typeof getCommentsQueryOptions>;
}) {
  return useQuery({ ...getCommentsQueryOptions(projectId), ...queryConfig });
}
