import { Bell, CheckCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { errorMessage } from '@/lib/api';
import type { Notification } from '@/lib/api-types/inbox';
import { cn } from '@/lib/cn';
import { Link } from '@/lib/router';
import { useMarkRead, useNotificationList } from './api';
import { registerServiceWorker } from './push-device';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The bell's accessible name: its visible words, then how many are unread. */
export function bellLabel(unread: number | undefined): string {
  if (unread === undefined || unread === 0) return 'Notifications';
  return `Notifications ${countText(unread)} unread`;
}

function countText(unread: number): string {
  return unread > 99 ? '99+' : String(unread);
}

/**
 * The bell in the members area's header: the unread count (kept current by the live updates, which
 * invalidate the list), and a dialog with the newest notifications, each a link to its thing.
 */
export function NotificationBell() {
  const list = useNotificationList();
  const [open, setOpen] = useState(false);
  const unread = list.data?.unread;

  // The service worker shows pushes even when no tab is open; registering it here keeps it out
  // of the public pages (and their budget) and after the page has loaded.
  useEffect(() => {
    void registerServiceWorker()?.catch(() => {});
  }, []);

  return (
    <>
      {/* The name is the visible text, so voice control can say what it sees. */}
      <Button variant="outline" size="sm" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <Bell size={16} aria-hidden="true" />
        Notifications
        {unread ? (
          <>
            {' '}
            <span
              data-testid="unread-count"
              className="ml-1 inline-flex min-w-6 items-center justify-center rounded-full bg-term-green px-1.5 font-mono text-xs font-semibold text-ink-950"
            >
              {countText(unread)}
            </span>{' '}
            <span className="sr-only">unread</span>
          </>
        ) : null}
      </Button>
      <Modal
        open={open}
        onOpenChange={setOpen}
        windowTitle="~/notifications"
        title="Notifications"
        size="lg"
      >
        <NotificationList onFollow={() => setOpen(false)} />
      </Modal>
    </>
  );
}

function NotificationList({ onFollow }: { onFollow: () => void }) {
  const list = useNotificationList();
  const mark = useMarkRead();

  if (list.isPending) {
    return (
      <p role="status" className="text-sm text-muted">
        Loading your notifications…
      </p>
    );
  }
  if (list.isError) {
    return (
      <div role="alert" className="text-sm text-term-amber">
        <p>Your notifications could not be loaded: {errorMessage(list.error)}</p>
        <Button variant="outline" size="sm" className="mt-3" onClick={() => void list.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  const { notifications, unread } = list.data;
  return (
    <div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted" aria-live="polite">
          {unread === 0 ? 'All caught up.' : `${unread} unread`}
        </p>
        <Button
          variant="outline"
          size="sm"
          disabled={unread === 0 || mark.isPending}
          onClick={() => mark.mutate({ ids: [], all: true })}
        >
          <CheckCheck size={16} aria-hidden="true" />
          {mark.isPending ? 'Marking…' : 'Mark all read'}
        </Button>
      </div>
      {mark.isError ? (
        <p role="alert" className="mt-2 text-sm text-term-amber">
          {errorMessage(mark.error)}
        </p>
      ) : null}
      {notifications.length === 0 ? (
        <p className="mt-6 text-sm text-muted">
          Nothing yet. Mentions, replies, answers and announcements will show up here.
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-ink-700" aria-label="Notifications">
          {notifications.map((n) => (
            <NotificationItem
              key={n.id}
              notification={n}
              onFollow={() => {
                if (n.read_at === null) mark.mutate({ ids: [n.id], all: false });
                onFollow();
              }}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function NotificationItem({
  notification: n,
  onFollow,
}: {
  notification: Notification;
  onFollow: () => void;
}) {
  const isUnread = n.read_at === null;
  const title = n.count > 1 ? `${n.title} (and ${n.count - 1} more)` : n.title;
  const content = (
    <>
      <span className="flex items-start gap-2">
        {isUnread ? (
          <span className="mt-1.5 size-2 shrink-0 rounded-full bg-term-green" aria-hidden="true" />
        ) : null}
        <span className={cn('break-words', isUnread ? 'font-semibold text-fg' : 'text-muted')}>
          {isUnread ? <span className="sr-only">Unread: </span> : null}
          {title}
        </span>
      </span>
      {n.body ? <span className="mt-1 block break-words text-sm text-muted">{n.body}</span> : null}
      <time dateTime={n.created_at} className="mt-1 block font-mono text-xs text-muted">
        {when.format(new Date(n.created_at))}
      </time>
    </>
  );
  return (
    <li className="py-3">
      {n.link ? (
        <Link
          to={n.link}
          onClick={onFollow}
          className="block rounded-md p-1 hover:bg-ink-800 focus-visible:outline-2 focus-visible:outline-term-cyan"
        >
          {content}
        </Link>
      ) : (
        <div className="p-1">{content}</div>
      )}
    </li>
  );
}
