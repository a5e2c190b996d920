import { Fragment } from 'react';
import { Card } from '@/components/ui/card';
import { SecretFeedCard } from '@/components/ui/secret-feed-card';
import { errorMessage } from '@/lib/api';
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
import { GroupTrainings } from './GroupTrainings';
import { Inquiries } from './Inquiries';
import { OwnerCalendars } from './OwnerCalendars';
import { PackageSales } from './PackageSales';
import { SettingsForm } from './SettingsForm';

/**
 * The Admin tab's Booking section: this month's money, the bookings with their actions, the
 * group training's dates and attendees, the session packages bought, the enterprise inquiries, the availability settings and
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
      {settings.data?.room_warning ? (
        <div
          role="alert"
          className="rounded-md border border-term-amber/60 bg-term-amber/10 p-4 text-sm text-fg"
        >
          <p>{settings.data.room_warning}</p>
          <button
            type="button"
            onClick={() =>
              document.querySelector<HTMLInputElement>('[data-field="meeting_link"]')?.focus()
            }
            className="mt-2 text-term-cyan underline underline-offset-4"
          >
            Set the room address
          </button>
        </div>
      ) : null}
      <Revenue />
      <OpenHolds />
      <div>
        <h3 className="text-lg font-semibold text-fg">Bookings</h3>
        <div className="mt-3">
          {settings.data || settings.isError ? (
            <BookingsList ownerZone={ownerZone} roomSet={!!settings.data?.settings.meeting_link} />
          ) : (
            <p className="text-sm text-muted">Loading bookings…</p>
          )}
        </div>
      </div>
      {seated.map((t) => (
        <GroupTrainings key={t.id} ownerZone={ownerZone} type={t} />
      ))}
      <PackageSales ownerZone={ownerZone} />
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
      <OwnerCalendars ownerZone={ownerZone} />
      <BookingFeed ownerZone={ownerZone} />
    </section>
  );
}

/** OpenHolds warns the owner when many bookings wait for payment at once. */
function OpenHolds() {
  const query = useAdminBookings({ scope: 'upcoming' });
  const n = query.data?.open_holds ?? 0;
  if (n === 0) return null;
  const text = `${n} ${n === 1 ? 'booking is' : 'bookings are'} waiting for payment right now.`;
  if (!query.data?.holds_alert) return <p className="text-sm text-muted">{text}</p>;
  return (
    <p role="alert" className="text-sm text-fg">
      {text} That is more than usual: someone may be holding your times without paying. Each hold
      lapses after 15 minutes, and at most half of a day&apos;s time can be held at once.
    </p>
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
          {revenue.totals.map((t) => {
            // A list's groups sit directly in it (one wrapper each), so each figure is its own group.
            const unit = revenue.totals.length > 1 ? ` (${t.currency.toUpperCase()})` : '';
            return (
              <Fragment key={t.currency}>
                <div>
                  <dt className="font-mono text-xs text-dim">Gross{unit}</dt>
                  <dd className="font-mono text-2xl font-bold text-fg">
                    {formatMinor(t.gross, t.currency)}
                  </dd>
                </div>
                <div>
                  <dt className="font-mono text-xs text-dim">Refunded{unit}</dt>
                  <dd className="font-mono text-2xl font-bold text-fg">
                    {formatMinor(t.refunded, t.currency)}
                  </dd>
                </div>
                <div>
                  <dt className="font-mono text-xs text-dim">Net{unit}</dt>
                  <dd className="font-mono text-2xl font-bold text-term-green">
                    {formatMinor(t.net, t.currency)}
                  </dd>
                </div>
              </Fragment>
            );
          })}
        </dl>
      )}
    </Card>
  );
}

/** The owner's private feed of every booking. */
function BookingFeed({ ownerZone }: { ownerZone: string }) {
  const feed = useBookingFeed();
  const create = useCreateBookingFeed();
  const revoke = useDeleteBookingFeed();
  return (
    <SecretFeedCard
      title="Bookings calendar feed"
      headingLevel={3}
      description="Every booking in your own calendar app, with the booker's name, address and notes. Keep the URL private: anyone holding it sees them."
      exists={feed.data?.exists ?? false}
      loading={feed.isPending}
      createdOn={feed.data?.created_at ? formatInZone(feed.data.created_at, ownerZone) : null}
      create={() => create.mutateAsync()}
      revoke={() => revoke.mutateAsync()}
      noun="Bookings feed"
      revokedLoses="bookings"
    />
  );
}
