import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Award } from '@/lib/api-types/levels';
import type { AwardList } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/admin/awards` (admins): suggestions waiting first, then newest first. */
export async function getAwards(signal?: AbortSignal): Promise<Award[]> {
  return (await api.get<AwardList>('/api/admin/awards', signal)).awards;
}

export function getAwardsQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.awards,
    queryFn: ({ signal }) => getAwards(signal),
  });
}

export function useAwards({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getAwardsQueryOptions>;
} = {}) {
  return useQuery({ ...getAwardsQueryOptions(), ...queryConfig });
}
