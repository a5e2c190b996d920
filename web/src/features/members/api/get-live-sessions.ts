import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { SessionList } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/sessions`: every live session, soonest first; meeting details only for subscribers. */
export function getLiveSessions(signal?: AbortSignal): Promise<SessionList> {
  return api.get<SessionList>('/api/sessions', signal);
}

/** Longest wait between reads for a state change; also keeps the timer within setTimeout's range. */
const MAX_WAIT_MS = 6 * 60 * 60 * 1000;

/**
 * Milliseconds until the next session starts or ends, when its `state` and `upcoming` change (a
 * second after, so the server's clock has passed it too), or false when none will.
 */
export function untilNextChange(list: SessionList | undefined, now = Date.now()): number | false {
  let next = Number.POSITIVE_INFINITY;
  for (const s of list?.sessions ?? []) {
    for (const at of [Date.parse(s.starts_at), Date.parse(s.ends_at)]) {
      if (at > now && at < next) next = at;
    }
  }
  return Number.isFinite(next) ? Math.min(next - now + 1_000, MAX_WAIT_MS) : false;
}

export function getLiveSessionsQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.sessions,
    queryFn: ({ signal }) => getLiveSessions(signal),
    // A session that starts or ends while the page is open moves to live, to the archive, ended.
    refetchInterval: (query) => untilNextChange(query.state.data),
  });
}

export function useLiveSessions({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getLiveSessionsQueryOptions>;
} = {}) {
  return useQuery({ ...getLiveSessionsQueryOptions(), ...queryConfig });
}
