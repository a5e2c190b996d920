import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { connectLiveEvents, type LiveTopic, NOTIFICATIONS_QUERY_ROOT } from '@/lib/events';
import { session } from '@/lib/session';
import { membersKeys } from './keys';

/** What each live-update notice makes stale (docs/api.md, "Live updates"). */
export function invalidateTopic(client: QueryClient, topic: LiveTopic): void {
  switch (topic) {
    case 'cohorts':
      void client.invalidateQueries({ queryKey: membersKeys.cohorts });
      return;
    case 'sessions':
      void client.invalidateQueries({ queryKey: membersKeys.sessions });
      return;
    case 'subscription':
      // A new subscription unlocks meeting details and changes the member count.
      void session.refresh();
      void client.invalidateQueries({ queryKey: membersKeys.overview });
      void client.invalidateQueries({ queryKey: membersKeys.sessions });
      void client.invalidateQueries({ queryKey: membersKeys.adminMembers });
      return;
    case 'tribe':
      // Someone gained or lost access: the member count.
      void client.invalidateQueries({ queryKey: membersKeys.overview });
      void client.invalidateQueries({ queryKey: membersKeys.adminMembers });
      return;
    case 'profile':
      void session.refresh();
      void client.invalidateQueries({ queryKey: membersKeys.profile });
      void client.invalidateQueries({ queryKey: membersKeys.directory });
      return;
    case 'progress':
      // Attendance or an award changed: the level, the counts, the member's awards.
      void client.invalidateQueries({ queryKey: membersKeys.progress });
      void client.invalidateQueries({ queryKey: membersKeys.myAwards });
      return;
    case 'projects':
      // A project shared, changed, hidden or removed, a reaction or a comment: the board, its
      // comments and the directory, which lists each member's projects.
      void client.invalidateQueries({ queryKey: membersKeys.projects });
      void client.invalidateQueries({ queryKey: membersKeys.directory });
      return;
    case 'community':
      // A thread or reply posted, changed, hidden or removed, a reaction or an accepted answer:
      // the community's lists and threads (the forum feature's queries live under this key).
      void client.invalidateQueries({ queryKey: ['community'] });
      return;
    case 'notifications':
      // A new notification or some read: the bell's count and the list.
      void client.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_ROOT });
      return;
  }
}

/** Follows `GET /api/events` while the members area is open and refetches what changed. */
export function useLiveUpdates(enabled: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    return connectLiveEvents({
      onTopic: (topic) => invalidateTopic(client, topic),
      onResync: () => {
        void session.refresh();
        void client.invalidateQueries({ queryKey: membersKeys.all });
        void client.invalidateQueries({ queryKey: NOTIFICATIONS_QUERY_ROOT });
      },
      isSignedIn: async () => (await session.refresh()).status === 'signed-in',
      onSignedOut: () => session.signedOut(),
    });
  }, [client, enabled]);
}
