import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Award } from '@/lib/api-types/levels';
import type { AwardList } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/members/me/awards`: the member's own awards and suggestions, newest first. */
export async function getMyAwards(signal?: AbortSignal): Promise<Award[]> {
  return (await api.get<AwardList>('/api/members/me/awards', signal)).awards;
}

export function getMyAwardsQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.myAwards,
    queryFn: ({ signal }) => getMyAwards(signal),
  });
}

export function useMyAwards({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getMyAwardsQueryOptions>;
} = {}) {
  return useQuery({ ...getMyAwardsQueryOptions(), ...queryConfig });
}
