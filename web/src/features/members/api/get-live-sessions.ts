import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';
import type { LiveSessionList } from './types';

/** `GET /api/sessions`: every live session, soonest first; meeting details only for subscribers. */
export function getLiveSessions(signal?: AbortSignal): Promise<LiveSessionList> {
  return api.get<LiveSessionList>('/api/sessions', signal);
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
