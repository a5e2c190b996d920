import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { CohortList } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/cohorts`: every cohort and the member's own. */
export function getCohorts(signal?: AbortSignal): Promise<CohortList> {
  return api.get<CohortList>('/api/cohorts', signal);
}

export function getCohortsQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.cohorts,
    queryFn: ({ signal }) => getCohorts(signal),
  });
}

export function useCohorts({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getCohortsQueryOptions>;
} = {}) {
  return useQuery({ ...getCohortsQueryOptions(), ...queryConfig });
}
