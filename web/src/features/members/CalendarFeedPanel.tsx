import { SecretFeedCard } from '@/components/ui/secret-feed-card';
import { useCreateCalendarFeed } from './api/create-calendar-feed';
import { useDeleteCalendarFeed } from './api/delete-calendar-feed';
import { useCalendarFeed } from './api/get-calendar-feed';
import { formatLongDate } from './logic';

/** The member's private calendar feed of every live session. */
export function CalendarFeedPanel() {
  const feed = useCalendarFeed();
  const create = useCreateCalendarFeed();
  const revoke = useDeleteCalendarFeed();
  return (
    <SecretFeedCard
      title="Calendar feed"
      description="Subscribe to every live session from your own calendar app with a private URL. Keep it to yourself: anyone holding it sees the sessions."
      exists={feed.data?.exists ?? false}
      loading={feed.isPending}
      createdOn={feed.data?.created_at ? formatLongDate(feed.data.created_at) : null}
      create={() => create.mutateAsync()}
      revoke={() => revoke.mutateAsync()}
      noun="Calendar feed"
      revokedLoses="updates"
    />
  );
}
