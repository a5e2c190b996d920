import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { AtRiskList } from '@/lib/api-types/notify';
import type { QueryConfig } from '@/lib/query';
import { notifyKeys } from './notify-keys';

/** `GET /api/admin/at-risk` (admins): members who missed sessions, are away, or whose payment failed. */
export function getAtRisk(signal?: AbortSignal): Promise<AtRiskList> {
  return api.get<AtRiskList>('/api/admin/at-risk', signal);
}

export function getAtRiskQueryOptions() {
  return queryOptions({
    queryKey: notifyKeys.atRisk,
    queryFn: ({ signal }) => getAtRisk(signal),
  });
}

export function useAtRisk({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getAtRiskQueryOptions>;
} = {}) {
  return useQuery({ ...getAtRiskQueryOptions(), ...queryConfig });
}
