import { CalendarSync, Copy } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import {
  useAdminBookings,
  useBookingFeed,
  useBookingSettings,
  useCreateBookingFeed,
  useDeleteBookingFeed,
} from '../api/admin';
import { useBookingTypes } from '../api/get-types';
import { MONTH_NAMES } from '../calendar';
import { formatInZone, formatMinor } from '../time';
import { BookingsList } from './BookingsList';
import { ConfirmAction } from './ConfirmAction';
import { GroupTrainings } from './GroupTrainings';
import { Inquiries } from './Inquiries';
import { SettingsForm } from './SettingsForm';

/**
 * The Admin tab's Booking section: this month's money, the bookings with their actions, the
 * group training's dates and attendees, the enterprise inquiries, the availability settings and
 * the owner's private calendar feed. The server checks that the
 * caller is an admin for every request.
 */
export function BookingAdmin() {
  const settings = useBookingSettings();
  const ownerZone = settings.data?.settings.time_zone ?? 'UTC';
  const types = useBookingTypes();
  const seated = types.data?.types.filter((t) => t.mode === 'native' && (t.seats ?? 0) > 0) ?? [];
  return (
    <section aria-labelledby="admin-booking-heading" className="flex flex-col gap-6">
      <div>
        <h2 id="admin-booking-heading" className="text-xl font-semibold text-fg">
          Booking
        </h2>
        <p className="mt-1 text-sm text-muted">
          Calls and group trainings booked on the site, and enterprise inquiries. Times are on your
          clock ({ownerZone}).
        </p>
      </div>
      <Revenue />
      <div>
        <h3 className="text-lg font-semibold text-fg">Bookings</h3>
        <div className="mt-3">
          {settings.data || settings.isError ? (
            <BookingsList ownerZone={ownerZone} />
          ) : (
            <p className="text-sm text-muted">Loading bookings…</p>
          )}
        </div>
      </div>
      {seated.map((t) => (
        <GroupTrainings key={t.id} ownerZone={ownerZone} type={t} />
      ))}
      <Inquiries ownerZone={ownerZone} />
      <Card>
        <h3 className="text-lg font-semibold text-fg">Availability and details</h3>
        <div className="mt-4">
          {settings.isPending ? (
            <p className="text-sm text-muted">Loading settings…</p>
          ) : settings.isError ? (
            <p role="alert" className="text-sm text-fg">
              The settings could not be loaded: {errorMessage(settings.error)}
            </p>
          ) : (
            <SettingsForm initial={settings.data.settings} />
          )}
        </div>
      </Card>
      <BookingFeed ownerZone={ownerZone} />
    </section>
  );
}

function Revenue() {
  // The upcoming list is the one shown first; its answer carries this month's money.
  const query = useAdminBookings({ scope: 'upcoming' });
  const revenue = query.data?.revenue;
  if (!revenue) return null;
  const [y, m] = revenue.month.split('-').map(Number);
  const label = y && m ? `${MONTH_NAMES[m - 1]} ${y}` : revenue.month;
  return (
    <Card>
      <h3 className="text-lg font-semibold text-fg">Booking revenue, {label}</h3>
      {revenue.totals.length === 0 ? (
        <p className="mt-2 text-sm text-muted">No payments or refunds this month yet.</p>
      ) : (
        <dl className="mt-3 grid gap-4 sm:grid-cols-3">
          {revenue.totals.map((t) => (
            <div key={t.currency} className="contents">
              <div>
                <dt className="font-mono text-xs text-dim">Gross</dt>
                <dd className="font-mono text-2xl font-bold text-fg">
                  {formatMinor(t.gross, t.currency)}
                </dd>
              </div>
              <div>
                <dt className="font-mono text-xs text-dim">Refunded</dt>
                <dd className="font-mono text-2xl font-bold text-fg">
                  {formatMinor(t.refunded, t.currency)}
                </dd>
              </div>
              <div>
                <dt className="font-mono text-xs text-dim">Net</dt>
                <dd className="font-mono text-2xl font-bold text-term-green">
                  {formatMinor(t.net, t.currency)}
                </dd>
              </div>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

/** The owner's private feed of every booking; the URL is shown once, right after it is made. */
function BookingFeed({ ownerZone }: { ownerZone: string }) {
  const urlId = useId();
  const feed = useBookingFeed();
  const [shownUrl, setShownUrl] = useState<string | null>(null);
  const [confirmRevoke, setConfirmRevoke] = useState(false);
  const create = useCreateBookingFeed({
    mutationConfig: {
      onSuccess: (created) => {
        setShownUrl(created.url);
        toast.success('Bookings feed ready', 'Copy the URL now: it is shown only once.');
      },
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });
  const revoke = useDeleteBookingFeed({
    mutationConfig: {
      onSuccess: () => {
        setShownUrl(null);
        setConfirmRevoke(false);
        toast.success('Bookings feed revoked', 'The old URL no longer works.');
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
      <h3 className="flex items-center gap-2 text-lg font-semibold text-fg">
        <CalendarSync size={18} aria-hidden="true" className="text-term-cyan" />
        Bookings calendar feed
      </h3>
      <p className="mt-1 text-sm text-muted">
        Every booking in your own calendar app, with the booker's name, address and notes. Keep the
        URL private: anyone holding it sees them.
      </p>
      <div className="mt-4 flex flex-col gap-3">
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
                onFocus={(e) => e.currentTarget.select()}
                className="h-9 min-w-0 flex-1 rounded-md border border-ink-600 bg-ink-900 px-3 font-mono text-xs text-fg"
              />
              <Button variant="outline" size="sm" onClick={() => void copy()}>
                <Copy size={14} aria-hidden="true" />
                Copy
              </Button>
            </div>
          </div>
        ) : exists && feed.data?.created_at ? (
          <p className="text-sm text-muted">
            A feed URL was made on {formatInZone(feed.data.created_at, ownerZone)}. Make a new one
            if you lost it; the old one stops working.
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant={exists ? 'outline' : 'primary'}
            disabled={create.isPending || feed.isPending}
            onClick={() => create.mutate()}
          >
            {create.isPending ? 'Creating…' : exists ? 'Create a new feed URL' : 'Create feed URL'}
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
      </div>
      <ConfirmAction
        open={confirmRevoke}
        onOpenChange={setConfirmRevoke}
        title="Revoke the bookings feed?"
        description="Calendar apps subscribed to the current URL stop getting bookings. You can make a new URL at any time."
        confirmLabel="Revoke"
        danger
        busy={revoke.isPending}
        onConfirm={() => revoke.mutate()}
      />
    </Card>
  );
}
