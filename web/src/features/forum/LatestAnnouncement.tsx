import { Megaphone } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Link } from '@/lib/router';
import { useThreads } from './api/community';
import { threadPath, when } from './logic';

const ANNOUNCEMENTS = { category: 'announcement', q: '', unanswered: false };

/**
 * The dashboard's card of the owner's announcement while it is pinned (its first 7 days), for
 * every member; nothing when there is none.
 */
export function LatestAnnouncement() {
  const query = useThreads(ANNOUNCEMENTS);
  const latest = query.data?.pages[0]?.threads.find((t) => t.pinned);
  if (!latest) return null;
  return (
    <Card className="mb-6 flex flex-col gap-2 border-term-amber/60 p-4">
      <h2 className="flex items-center gap-2 text-sm font-semibold text-term-amber">
        <Megaphone size={16} aria-hidden="true" />
        Announcement · {when(latest.created_at)}
      </h2>
      <p className="text-base font-semibold text-fg">
        <Link to={threadPath(latest.id)} className="underline-offset-2 hover:underline">
          {latest.title}
        </Link>
      </p>
      {latest.excerpt ? <p className="break-words text-sm text-muted">{latest.excerpt}</p> : null}
    </Card>
  );
}
