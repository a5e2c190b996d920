import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Progress } from '@/lib/api-types/levels';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/members/me/progress`: the member's level, counts and next milestone. */
export function getProgress(signal?: AbortSignal): Promise<Progress> {
  return api.get<Progress>('/api/members/me/progress', signal);
}

export function getProgressQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.progress,
    queryFn: ({ signal }) => getProgress(signal),
  });
}

export function useProgress({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getProgressQueryOptions>;
} = {}) {
  return useQuery({ ...getProgressQueryOptions(), ...queryConfig });
}
