import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { MembersOverview } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/members/overview`: subscription, roles, tribe size and the group-chat invitation. */
export function getMembersOverview(signal?: AbortSignal): Promise<MembersOverview> {
  return api.get<MembersOverview>('/api/members/overview', signal);
}

export function getMembersOverviewQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.overview,
    queryFn: ({ signal }) => getMembersOverview(signal),
  });
}

export function useMembersOverview({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getMembersOverviewQueryOptions>;
} = {}) {
  return useQuery({ ...getMembersOverviewQueryOptions(), ...queryConfig });
}
