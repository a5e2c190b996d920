import { CalendarSync, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/edit-confirm-dialog';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useCreateCalendarFeed } from './api/create-calendar-feed';
import { useDeleteCalendarFeed } from './api/delete-calendar-feed';
import { useCalendarFeed } from './api/get-calendar-feed';
import { formatLongDate } from './logic';
import { Skeleton } from './parts';

/**
 * The member's private calendar feed. The server keeps only a hash of the token, so a new URL is
 * shown once, right after it is made; afterwards the member can only replace or revoke it.
 */
export function CalendarFeedPanel() {
  const urlId = useId();
  const feed = useCalendarFeed();
  const [shownUrl, setShownUrl] = useState<string | null>(null);
  const [confirmRevoke, setConfirmRevoke] = useState(false);

  const create = useCreateCalendarFeed({
    mutationConfig: {
      onSuccess: (created) => {
        setShownUrl(created.url);
        toast.success('Calendar feed ready', 'Copy the URL now: it is shown only once.');
      },
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });
  const revoke = useDeleteCalendarFeed({
    mutationConfig: {
      onSuccess: () => {
        setShownUrl(null);
        setConfirmRevoke(false);
        toast.success('Calendar feed revoked', 'The old URL no longer works.');
      },
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });

  const copy = async () => {
    if (!shownUrl) return;
    try {
      await navigator.clipboard.writeText(shownUrl);
      toast.success('Copied', 'Paste the URL into your calendar app as a new subscription.');
    } catch {
      toast.error('Error', 'Copying is blocked here: select the URL and copy it by hand.');
    }
  };

  const exists = feed.data?.exists ?? false;
  return (
    <Card>
      <h2 className="flex items-center gap-2 text-lg font-semibold text-fg">
        <CalendarSync size={18} aria-hidden="true" className="text-term-cyan" />
        Calendar feed
      </h2>
      <p className="mt-1 text-sm text-muted">
        Subscribe to every live session from your own calendar app with a private URL. Keep it to
        yourself: anyone holding it sees the sessions.
      </p>

      <div className="mt-4">
        {feed.isPending ? (
          <Skeleton className="h-9 w-48" />
        ) : (
          <>
            {shownUrl ? (
              <div className="mb-3 flex flex-col gap-2">
                <label htmlFor={urlId} className="font-mono text-xs text-muted">
                  Your feed URL (shown only now)
                </label>
                <div className="flex flex-col gap-2 sm:flex-row">
                  <input
                    id={urlId}
                    readOnly
                    value={shownUrl}
                    onFocus={(event) => event.currentTarget.select()}
                    className="h-9 min-w-0 flex-1 rounded-md border border-ink-600 bg-ink-900 px-3 font-mono text-xs text-fg"
                  />
                  <Button variant="outline" size="sm" onClick={() => void copy()}>
                    <Copy size={14} aria-hidden="true" />
                    Copy
                  </Button>
                </div>
              </div>
            ) : exists && feed.data?.created_at ? (
              <p className="mb-3 text-sm text-muted">
                A feed URL was created on {formatLongDate(feed.data.created_at)}. Create a new one
                if you lost it; the old one stops working.
              </p>
            ) : null}
            <div className="flex flex-wrap gap-2">
              <Button
                variant={exists ? 'outline' : 'primary'}
                size="sm"
                disabled={create.isPending}
                onClick={() => create.mutate()}
              >
                {create.isPending
                  ? 'Creating…'
                  : exists
                    ? 'Create a new feed URL'
                    : 'Create feed URL'}
              </Button>
              {exists ? (
                <Button variant="ghost" size="sm" onClick={() => setConfirmRevoke(true)}>
                  Revoke
                </Button>
              ) : null}
            </div>
          </>
        )}
      </div>

      <ConfirmDialog
        open={confirmRevoke}
        onOpenChange={setConfirmRevoke}
        title="Revoke the calendar feed?"
        description="Calendar apps subscribed to the current URL stop getting updates. You can create a new URL at any time."
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
    </Card>
  );
}
