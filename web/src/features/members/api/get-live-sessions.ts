import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { SessionList } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/sessions`: every live session, soonest first; meeting details only for subscribers. */
export function getLiveSessions(signal?: AbortSignal): Promise<SessionList> {
  return api.get<SessionList>('/api/sessions', signal);
}

export function getLiveSessionsQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.sessions,
    queryFn: ({ signal }) => getLiveSessions(signal),
  });
}

export function useLiveSessions({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getLiveSessionsQueryOptions>;
} = {}) {
  return useQuery({ ...getLiveSessionsQueryOptions(), ...queryConfig });
}
