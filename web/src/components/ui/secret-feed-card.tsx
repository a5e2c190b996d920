import { CalendarSync, Copy } from 'lucide-react';
import { type ReactNode, useId, useState } from 'react';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { Button } from './button';
import { Card } from './card';
import { ConfirmDialog } from './edit-confirm-dialog';

export interface SecretFeedCardProps {
  /** The card's heading, e.g. "Calendar feed". */
  title: string;
  /** The heading's level where the card stands. */
  headingLevel?: 2 | 3;
  description: ReactNode;
  /** Whether a feed URL exists (the server keeps only its hash). */
  exists: boolean;
  /** The feed's state is still loading. */
  loading: boolean;
  /** When the existing URL was made, as the page writes dates; null when unknown. */
  createdOn: string | null;
  /** Makes a new URL (replacing any older one) and answers it. */
  create: () => Promise<{ url: string }>;
  revoke: () => Promise<unknown>;
  /** What the toasts and the revoke question call the feed: "Calendar feed", "Bookings feed". */
  noun: string;
  /** What subscribers stop getting when it is revoked: "updates", "bookings". */
  revokedLoses: string;
}

/**
 * A private calendar feed behind an unguessable URL: the URL is shown once, right after it is
 * made, with a copy button; afterwards it can only be replaced or revoked (after a question).
 */
export function SecretFeedCard({
  title,
  headingLevel = 2,
  description,
  exists,
  loading,
  createdOn,
  create,
  revoke,
  noun,
  revokedLoses,
}: SecretFeedCardProps) {
  const urlId = useId();
  const [shownUrl, setShownUrl] = useState<string | null>(null);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const [busy, setBusy] = useState<'create' | 'revoke' | null>(null);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';

  const make = async () => {
    setBusy('create');
    try {
      const created = await create();
      setShownUrl(created.url);
      toast.success(`${noun} ready`, 'Copy the URL now: it is shown only once.');
    } catch (error) {
      toast.error('Error', errorMessage(error));
    } finally {
      setBusy(null);
    }
  };
  const drop = async () => {
    setBusy('revoke');
    try {
      await revoke();
      setShownUrl(null);
      setConfirmRevoke(false);
      toast.success(`${noun} revoked`, 'The old URL no longer works.');
    } catch (error) {
      toast.error('Error', errorMessage(error));
    } finally {
      setBusy(null);
    }
  };
  const copy = async () => {
    if (!shownUrl) return;
    try {
      await navigator.clipboard.writeText(shownUrl);
      toast.success('Copied', 'Paste the URL into your calendar app as a new subscription.');
    } catch {
      toast.error('Error', 'Copying is blocked here: select the URL and copy it by hand.');
    }
  };

  return (
    <Card>
      <Heading className="flex items-center gap-2 text-lg font-semibold text-fg">
        <CalendarSync size={18} aria-hidden="true" className="text-term-cyan" />
        {title}
      </Heading>
      <p className="mt-1 text-sm text-muted">{description}</p>
      <div className="mt-4 flex flex-col gap-3">
        {loading ? (
          <div aria-hidden="true" className="h-9 w-48 animate-pulse rounded-md bg-ink-800" />
        ) : null}
        {shownUrl ? (
          <div className="flex flex-col gap-2">
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
        ) : exists && createdOn ? (
          <p className="text-sm text-muted">
            A feed URL was created on {createdOn}. Create a new one if you lost it; the old one
            stops working.
          </p>
        ) : null}
        {loading ? null : (
          <div className="flex flex-wrap gap-2">
            <Button
              size="sm"
              variant={exists ? 'outline' : 'primary'}
              disabled={busy !== null}
              onClick={() => void make()}
            >
              {busy === 'create'
                ? 'Creating…'
                : exists
                  ? 'Create a new feed URL'
                  : 'Create feed URL'}
            </Button>
            {exists ? (
              <Button
                size="sm"
                variant="ghost"
                aria-haspopup="dialog"
                onClick={() => setConfirmRevoke(true)}
              >
                Revoke
              </Button>
            ) : null}
          </div>
        )}
      </div>
      <ConfirmDialog
        open={confirmRevoke}
        onOpenChange={setConfirmRevoke}
        title={`Revoke the ${noun.toLowerCase()}?`}
        description={`Calendar apps subscribed to the current URL stop getting ${revokedLoses}. You can create a new URL at any time.`}
        confirmLabel="Revoke"
        busy={busy === 'revoke'}
        onConfirm={drop}
      />
    </Card>
  );
}
