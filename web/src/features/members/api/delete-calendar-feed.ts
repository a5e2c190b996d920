import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { FeedStatus } from '@/lib/api-types/web';
import type { MutationConfig } from '@/lib/query';
import { membersKeys } from './keys';

/** `DELETE /api/calendar/feed`: the feed URL stops working. */
export function deleteCalendarFeed(): Promise<undefined> {
  return api.delete<undefined>('/api/calendar/feed');
}

export function useDeleteCalendarFeed({
  mutationConfig,
}: {
  mutationConfig?: MutationConfig<typeof deleteCalendarFeed>;
} = {}) {
  const client = useQueryClient();
  const { onSuccess, ...rest } = mutationConfig ?? {};
  return useMutation({
    ...rest,
    mutationFn: deleteCalendarFeed,
    onSuccess: (...args) => {
      const feed: FeedStatus = { exists: false, created_at: null };
      client.setQueryData(membersKeys.feed, feed);
      return onSuccess?.(...args);
    },
  });
}
