import { useState } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ExternalLink } from '@/components/ui/external-link';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useAdminBookings, useBookingAction } from '../api/admin';
import type { AdminAction, AdminBooking, AdminScope, BookingStatus } from '../api/types';
import { STATUS_TEXT } from '../status';
import { formatInZone, formatMinor, timeRangeInZone } from '../time';
import { ConfirmAction } from './ConfirmAction';

const SCOPES: { id: AdminScope; label: string }[] = [
  { id: 'upcoming', label: 'Upcoming' },
  { id: 'past', label: 'Past' },
  { id: 'cancelled', label: 'Cancelled' },
];

const TONE: Partial<Record<BookingStatus, BadgeTone>> = {
  held: 'amber',
  requested: 'cyan',
  confirmed: 'green',
  completed: 'green',
};

/** What each action asks before it runs, and says when it is done. */
const ACTIONS: Record<
  AdminAction,
  {
    label: string;
    title: string;
    /** roomSet: the owner has saved a room address, so a confirmation carries a link. */
    text: (b: AdminBooking, roomSet: boolean) => string;
    done: string;
    danger?: boolean;
  }
> = {
  confirm: {
    label: 'Confirm',
    title: 'Confirm this request?',
    text: (b, roomSet) =>
      `${b.name} gets the confirmation with the calendar invitation and ${
        roomSet
          ? 'the link to join the call'
          : 'a note that you will send the link to join (no room address is set below)'
      }. Arrange the payment of ${formatMinor(b.amount, b.currency)} with them.`,
    done: 'Booking confirmed',
  },
  decline: {
    label: 'Decline',
    title: 'Decline this request?',
    text: (b) => `${b.name} is told by e-mail, and the time becomes free again.`,
    done: 'Request declined',
    danger: true,
  },
  cancel: {
    label: 'Cancel',
    title: 'Cancel this booking?',
    text: (b) =>
      b.paid && b.amount - b.refunded > 0
        ? `${b.name} gets a full refund of ${formatMinor(b.amount - b.refunded, b.currency)} and a cancellation that removes the event from their calendar.`
        : `${b.name} gets a cancellation that removes the event from their calendar. Nothing was paid, so nothing is refunded.`,
    done: 'Booking cancelled',
    danger: true,
  },
  complete: {
    label: 'Completed',
    title: 'Mark the session completed?',
    text: (b) => `The call with ${b.name} took place.`,
    done: 'Marked completed',
  },
  'no-show': {
    label: 'No-show',
    title: 'Mark as no-show?',
    text: (b) => `${b.name} did not come to the call. Nothing is refunded.`,
    done: 'Marked no-show',
  },
};

/** The actions the server allows on a booking now (docs/booking.md, "Statuses"). */
export function actionsFor(b: AdminBooking, now: number = Date.now()): AdminAction[] {
  const started = Date.parse(b.start) <= now;
  switch (b.status) {
    case 'requested':
      return started ? ['decline'] : ['confirm', 'decline', 'cancel'];
    case 'held':
      return ['cancel'];
    case 'confirmed':
      return started ? ['complete', 'no-show'] : ['cancel'];
    default:
      return [];
  }
}

/** The bookings list: upcoming, past or cancelled, each with its details and actions. */
export function BookingsList({ ownerZone, roomSet }: { ownerZone: string; roomSet: boolean }) {
  const [scope, setScope] = useState<AdminScope>('upcoming');
  const query = useAdminBookings({ scope });
  const [pending, setPending] = useState<{ booking: AdminBooking; action: AdminAction } | null>(
    null,
  );
  const run = useBookingAction({
    mutationConfig: {
      onSuccess: () => {
        if (pending) toast.success(ACTIONS[pending.action].done);
        setPending(null);
      },
      onError: (error) => {
        setPending(null);
        toast.error('Error', errorMessage(error));
      },
    },
  });

  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">Which bookings</legend>
        {SCOPES.map((s) => (
          <Button
            key={s.id}
            size="sm"
            variant={scope === s.id ? 'primary' : 'outline'}
            aria-pressed={scope === s.id}
            onClick={() => setScope(s.id)}
          >
            {s.label}
          </Button>
        ))}
      </fieldset>
      {query.isPending ? (
        <p className="text-sm text-muted">Loading bookings…</p>
      ) : query.isError ? (
        <div role="alert" className="text-sm text-fg">
          The bookings could not be loaded: {errorMessage(query.error)}{' '}
          <Button size="sm" variant="outline" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      ) : query.data.bookings.length === 0 ? (
        <p className="rounded-md border border-dashed border-ink-700 p-4 text-sm text-muted">
          No {scope} bookings.
        </p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label={`${scope} bookings`}>
          {query.data.bookings.map((b) => (
            <li key={b.id}>
              <BookingRow
                booking={b}
                ownerZone={ownerZone}
                onAction={(action) => setPending({ booking: b, action })}
              />
            </li>
          ))}
        </ul>
      )}
      {pending ? (
        <ConfirmAction
          open
          onOpenChange={(open) => {
            if (!open) setPending(null);
          }}
          title={ACTIONS[pending.action].title}
          description={ACTIONS[pending.action].text(pending.booking, roomSet)}
          confirmLabel={ACTIONS[pending.action].label}
          danger={ACTIONS[pending.action].danger ?? false}
          busy={run.isPending}
          onConfirm={() => run.mutateAsync({ id: pending.booking.id, action: pending.action })}
        />
      ) : null}
    </div>
  );
}

function BookingRow({
  booking: b,
  ownerZone,
  onAction,
}: {
  booking: AdminBooking;
  ownerZone: string;
  onAction: (action: AdminAction) => void;
}) {
  const [open, setOpen] = useState(false);
  const detailsId = `booking-${b.id}-details`;
  const actions = actionsFor(b);
  return (
    <article
      aria-label={`${b.name}, ${b.type_name}, ${formatInZone(b.start, ownerZone)}`}
      className="rounded-lg border border-ink-700 bg-ink-850/80 p-4"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold text-fg">
            {b.name} <span className="font-normal break-all text-muted">{b.email}</span>
          </p>
          <p className="mt-1 text-sm text-fg">
            {b.type_name}: {formatInZone(b.start, ownerZone)}
          </p>
          <p className="mt-1 font-mono text-xs text-muted">
            {timeRangeInZone(b.start, b.end, ownerZone)} ·{' '}
            {b.amount > 0 ? formatMinor(b.amount, b.currency) : 'free'}
            {b.paid ? ' paid' : ''}
            {b.refunded > 0 ? ` · ${formatMinor(b.refunded, b.currency)} refunded` : ''}
          </p>
        </div>
        <Badge tone={TONE[b.status] ?? 'neutral'}>{STATUS_TEXT[b.status] ?? b.status}</Badge>
      </div>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="ghost"
          aria-expanded={open}
          aria-controls={detailsId}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide details' : 'Details'}
        </Button>
        {actions.map((a) => (
          <Button
            key={a}
            size="sm"
            variant="outline"
            aria-haspopup="dialog"
            className={cn(ACTIONS[a].danger && 'hover:border-term-red/70 hover:text-term-red')}
            onClick={() => onAction(a)}
          >
            {ACTIONS[a].label}
          </Button>
        ))}
      </div>
      {open ? (
        <dl
          id={detailsId}
          className="mt-3 grid gap-x-4 gap-y-1 border-t border-ink-700 pt-3 text-sm sm:grid-cols-[auto_1fr]"
        >
          <dt className="font-mono text-dim">Booker's time</dt>
          <dd className="text-fg">
            {formatInZone(b.start, b.time_zone)} ({b.time_zone})
          </dd>
          <dt className="font-mono text-dim">To cover</dt>
          <dd className="whitespace-pre-wrap break-words text-fg">{b.notes || '—'}</dd>
          {b.status === 'confirmed' ? (
            <>
              <dt className="font-mono text-dim">Room</dt>
              <dd className="text-fg">
                {b.meeting_link ? (
                  <ExternalLink
                    href={b.meeting_link}
                    className="break-all text-term-cyan underline underline-offset-4"
                  >
                    {b.meeting_link}
                  </ExternalLink>
                ) : (
                  'none: send them the link to join yourself'
                )}
              </dd>
            </>
          ) : null}
          <dt className="font-mono text-dim">Booked</dt>
          <dd className="text-fg">{formatInZone(b.created_at, ownerZone)}</dd>
          {b.paid_at ? (
            <>
              <dt className="font-mono text-dim">Paid</dt>
              <dd className="text-fg">
                {formatInZone(b.paid_at, ownerZone)}
                {b.payment_intent ? (
                  <span className="font-mono text-xs text-muted"> {b.payment_intent}</span>
                ) : null}
              </dd>
            </>
          ) : null}
          {b.refunds.map((r) => (
            <div key={r.stripe_refund_id} className="contents">
              <dt className="font-mono text-dim">Refund</dt>
              <dd className="text-fg">
                {formatMinor(r.amount, r.currency)} on {formatInZone(r.created_at, ownerZone)}{' '}
                <span className="font-mono text-xs text-muted">{r.stripe_refund_id}</span>
              </dd>
            </div>
          ))}
          <dt className="font-mono text-dim">Moved</dt>
          <dd className="text-fg">{b.reschedule_count} time(s)</dd>
          {b.cancelled_by ? (
            <>
              <dt className="font-mono text-dim">Cancelled by</dt>
              <dd className="text-fg">{b.cancelled_by === 'owner' ? 'you' : 'the booker'}</dd>
            </>
          ) : null}
          {b.user_id ? (
            <>
              <dt className="font-mono text-dim">Member</dt>
              <dd className="text-fg">signed in when booking</dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </article>
  );
}
