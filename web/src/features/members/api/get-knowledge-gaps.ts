import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { Groups as KnowledgeGaps } from '@/lib/api-types/gaps';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/admin/knowledge-gaps` (admins): weakly answered questions of the last 90 days, grouped. */
export function getKnowledgeGaps(signal?: AbortSignal): Promise<KnowledgeGaps> {
  return api.get<KnowledgeGaps>('/api/admin/knowledge-gaps', signal);
}

export function getKnowledgeGapsQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.knowledgeGaps,
    queryFn: ({ signal }) => getKnowledgeGaps(signal),
  });
}

export function useKnowledgeGaps({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getKnowledgeGapsQueryOptions>;
} = {}) {
  return useQuery({ ...getKnowledgeGapsQueryOptions(), ...queryConfig });
}
