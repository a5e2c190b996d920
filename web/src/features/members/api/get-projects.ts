import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ProjectList } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/projects`: the board, newest first; `author` keeps one member's (`me`: the caller's). */
export function getProjects(author: string, signal?: AbortSignal): Promise<ProjectList> {
  const query = author ? `?author=${encodeURIComponent(author)}` : '';
  return api.get<ProjectList>(`/api/projects${query}`, signal);
}

export function getProjectsQueryOptions(author = '') {
  return queryOptions({
    queryKey: membersKeys.projectList(author),
    queryFn: ({ signal }) => getProjects(author, signal),
  });
}

export function useProjects({
  author = '',
  queryConfig,
}: {
  author?: string;
  queryConfig?: QueryConfig<typeof getProjectsQueryOptions>;
} = {}) {
  return useQuery({ ...getProjectsQueryOptions(author), ...queryConfig });
}
