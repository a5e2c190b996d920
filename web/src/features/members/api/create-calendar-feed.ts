import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { FeedCreated, FeedStatus } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `POST /api/calendar/feed`: a new private feed URL (replacing any old one), shown only now. */
export function createCalendarFeed(): Promise<FeedCreated> {
  return api.post<FeedCreated>('/api/calendar/feed');
}

export function useCreateCalendarFeed({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof createCalendarFeed>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: createCalendarFeed,
    onSuccess: (...args) => {
      const feed: FeedStatus = { exists: true, created_at: args[0].created_at };
      client.setQueryData(membersKeys.feed, feed);
      return onSuccess?.(...args);
    },
  });
}
