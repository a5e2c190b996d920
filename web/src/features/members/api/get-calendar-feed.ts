import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { FeedStatus } from '@/lib/api-types/web';
import type { QueryConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `GET /api/calendar/feed`: whether the member has a private calendar feed. */
export function getCalendarFeed(signal?: AbortSignal): Promise<FeedStatus> {
  return api.get<FeedStatus>('/api/calendar/feed', signal);
}

export function getCalendarFeedQueryOptions() {
  return queryOptions({
    queryKey: membersKeys.feed,
    queryFn: ({ signal }) => getCalendarFeed(signal),
  });
}

export function useCalendarFeed({
  queryConfig,
}: {
  queryConfig?: QueryConfig<typeof getCalendarFeedQueryOptions>;
} = {}) {
  return useQuery({ ...getCalendarFeedQueryOptions(), ...queryConfig });
}
