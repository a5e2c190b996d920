import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { CalendarPlus, CheckCircle2, Clock, ExternalLink as LinkIcon, XCircle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button, buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ExternalLink } from '@/components/ui/external-link';
import { Modal } from '@/components/ui/modal';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { ApiError, errorMessage } from '@/lib/api';
import { createQueryClient } from '@/lib/query';
import { Link, useLocation, useSearchParams } from '@/lib/router';
import { useBookingEvents } from './api/booking-events';
import { useCancelBooking, useRescheduleBooking } from './api/change-booking';
import { useBooking } from './api/get-booking';
import { RetryLaterError, retryText } from './api/request';
import type { Booking, BookingStatus, BookingView } from './api/types';
import { longDate } from './calendar';
import { durationText } from './offers';
import { SlotPicker } from './SlotPicker';
import { canReschedule, isOpen, POLL_FOR_MS, POLL_MS, refundText, STATUS_TEXT } from './status';
import { detectTimeZone, formatInZone, formatMinor, slotLabel, wallClock } from './time';

const TONE: Record<BookingStatus, BadgeTone> = {
  held: 'amber',
  requested: 'cyan',
  confirmed: 'green',
  cancelled: 'neutral',
  expired: 'neutral',
  declined: 'neutral',
  completed: 'green',
  no_show: 'neutral',
};

/** The longest delay a browser timer takes (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** /bookings/{id}?token=…: a booking through its manage link. */
export function BookingStatusPage({ client }: { client?: QueryClient }) {
  const [own] = useState(() => client ?? createQueryClient());
  return (
    <QueryClientProvider client={own}>
      <BookingStatusView />
    </QueryClientProvider>
  );
}

function BookingStatusView() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const id = decodeURIComponent(pathname.replace(/^\/bookings\//, '').replace(/\/+$/, ''));
  const token = params.get('token') ?? '';
  const [since] = useState(() => Date.now());
  // Browsers follow the booking's live stream; without EventSource the page polls.
  const live = typeof EventSource !== 'undefined';
  const query = useBooking({
    id,
    token,
    queryConfig: {
      enabled: id !== '' && token !== '',
      // Without the live stream, a hold waiting for Stripe's word is read every 2 s for 2 minutes.
      refetchInterval: (q) =>
        !live && q.state.data?.booking.status === 'held' && Date.now() - since < POLL_FOR_MS
          ? POLL_MS
          : false,
      retry: false,
    },
  });
  const status = query.data?.booking.status;
  useBookingEvents(id, token, status !== undefined && isOpen(status));
  // The room's link comes inside the join window: read the booking again when it opens.
  const opensAt = query.data?.booking.room_opens_at;
  const refetch = query.refetch;
  useEffect(() => {
    if (!opensAt) return;
    const wait = new Date(opensAt).getTime() - Date.now();
    if (wait > MAX_TIMER_MS) return;
    const timer = setTimeout(() => void refetch(), Math.max(wait, 0) + 1000);
    return () => clearTimeout(timer);
  }, [opensAt, refetch]);

  if (token === '' || (query.error instanceof ApiError && query.error.status === 404)) {
    return <NotFound />;
  }
  if (query.isError) {
    return (
      <Page title="Your booking">
        <PageHeader command="booking --status" title="Your booking" />
        <div role="alert" className="mt-6 text-fg">
          <p>The booking could not be loaded: {errorMessage(query.error)}</p>
          <Button variant="outline" className="mt-4" onClick={() => void query.refetch()}>
            Try again
          </Button>
        </div>
      </Page>
    );
  }
  if (!query.data) {
    return (
      <Page title="Your booking">
        <PageHeader command="booking --status" title="Your booking" />
        <p className="mt-6 text-muted" role="status">
          Loading your booking…
        </p>
      </Page>
    );
  }
  return (
    <BookingDetails
      view={query.data}
      id={id}
      token={token}
      waitedOut={status === 'held' && Date.now() - since >= POLL_FOR_MS}
    />
  );
}

function NotFound() {
  return (
    <Page title="Booking not found">
      <PageHeader
        command="booking --status"
        title="Booking not found"
        lead="This link does not open a booking: it may be incomplete, or too old. Open the link in your confirmation e-mail again, or book a new session."
      />
      <Link to="/booking" className={buttonClasses('outline', 'md', 'mt-8')}>
        Sessions and prices
      </Link>
    </Page>
  );
}

function BookingDetails({
  view,
  id,
  token,
  waitedOut,
}: {
  view: BookingView;
  id: string;
  token: string;
  waitedOut: boolean;
}) {
  const b = view.booking;
  const [visitorZone] = useState(detectTimeZone);
  const ownerZone = b.owner_time_zone;
  const statusText = STATUS_TEXT[b.status] ?? b.status;
  const active = b.status === 'requested' || b.status === 'confirmed';
  const [moving, setMoving] = useState(false);
  const icsUrl = `/api/bookings/${encodeURIComponent(id)}/calendar.ics?token=${encodeURIComponent(token)}`;

  return (
    <Page title="Your booking">
      <PageHeader command="booking --status" title={b.type_name || 'Your booking'}>
        <p className="mt-4 flex flex-wrap items-center gap-3" role="status" aria-live="polite">
          <span className="sr-only">Status: </span>
          <Badge tone={TONE[b.status] ?? 'neutral'} className="text-sm">
            {b.status === 'confirmed' ? <CheckCircle2 size={14} aria-hidden="true" /> : null}
            {b.status === 'held' ? <Clock size={14} aria-hidden="true" /> : null}
            {statusText}
          </Badge>
        </p>
      </PageHeader>

      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Card className="flex flex-col gap-4">
          <StatusNote booking={b} waitedOut={waitedOut} />
          <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="font-mono text-dim">Your time</dt>
            <dd className="text-fg">
              {formatInZone(b.start, visitorZone)}{' '}
              <span className="text-muted">({visitorZone})</span>
            </dd>
            {ownerZone && ownerZone !== visitorZone ? (
              <>
                <dt className="font-mono text-dim">{b.owner_name || 'The host'}'s time</dt>
                <dd className="text-fg">
                  {formatInZone(b.start, ownerZone)}{' '}
                  <span className="text-muted">({ownerZone})</span>
                </dd>
              </>
            ) : null}
            <dt className="font-mono text-dim">Length</dt>
            <dd className="text-fg">{durationText(b.duration)}</dd>
            <dt className="font-mono text-dim">Booked by</dt>
            <dd className="break-all text-fg">
              {b.name} ({b.email})
            </dd>
            {b.amount > 0 ? (
              <>
                <dt className="font-mono text-dim">Price</dt>
                <dd className="text-fg">
                  {formatMinor(b.amount, b.currency)}
                  {b.paid
                    ? ', paid'
                    : b.status === 'requested'
                      ? ', arranged after confirmation'
                      : ''}
                  {b.refunded > 0 ? `; ${formatMinor(b.refunded, b.currency)} refunded` : ''}
                </dd>
              </>
            ) : b.credit ? (
              <>
                <dt className="font-mono text-dim">Price</dt>
                <dd className="text-fg">
                  Paid with a package credit (cancelling before the cut-off gives it back)
                </dd>
              </>
            ) : null}
            {b.notes ? (
              <>
                <dt className="font-mono text-dim">To cover</dt>
                <dd className="whitespace-pre-wrap break-words text-fg">{b.notes}</dd>
              </>
            ) : null}
          </dl>
          {b.status === 'held' && b.checkout_url ? (
            <a href={b.checkout_url} className={buttonClasses('primary', 'md', 'self-start')}>
              Continue to payment
            </a>
          ) : null}
          {b.status === 'confirmed' && b.room === 'open' && b.meeting_link ? (
            <ExternalLink
              href={b.meeting_link}
              className={buttonClasses('primary', 'md', 'self-start')}
            >
              <LinkIcon size={16} aria-hidden="true" />
              Join the call
            </ExternalLink>
          ) : null}
        </Card>

        <div className="flex flex-col gap-4">
          {b.status === 'confirmed' ? (
            <a href={icsUrl} download="booking.ics" className={buttonClasses('outline', 'md')}>
              <CalendarPlus size={16} aria-hidden="true" />
              Add to calendar (.ics)
            </a>
          ) : null}
          {active && b.can_change ? (
            <ManageButtons booking={b} id={id} token={token} moving={moving} onMoving={setMoving} />
          ) : active ? (
            <Card>
              <h2 className="font-semibold text-fg">Need to change it?</h2>
              <p className="mt-2 text-sm text-muted">
                This session can no longer be moved or cancelled online.{' '}
                {b.contact_email ? (
                  <>
                    Write to {b.owner_name || 'the host'} at{' '}
                    <a
                      href={`mailto:${b.contact_email}`}
                      className="break-all text-term-cyan underline underline-offset-4"
                    >
                      {b.contact_email}
                    </a>
                    .
                  </>
                ) : (
                  'Reply to your confirmation e-mail.'
                )}
              </p>
            </Card>
          ) : null}
        </div>
      </div>

      {moving && active && b.can_change ? (
        <Reschedule booking={b} id={id} token={token} onDone={() => setMoving(false)} />
      ) : null}
    </Page>
  );
}

function StatusNote({ booking: b, waitedOut }: { booking: Booking; waitedOut: boolean }) {
  switch (b.status) {
    case 'held':
      return (
        <p className="text-sm text-fg">
          {waitedOut
            ? 'Stripe has not confirmed the payment yet. Some payments take a few minutes: reload this page later, or look for the confirmation e-mail.'
            : 'Your time is held while the payment is confirmed. This page updates by itself.'}
          {b.expires_at ? ` The hold ends at ${formatInZone(b.expires_at, detectTimeZone())}.` : ''}
        </p>
      );
    case 'requested':
      return (
        <p className="text-sm text-fg">
          Your request is with {b.owner_name || 'the host'}, who confirms it by e-mail. Nothing has
          been charged: payment is arranged after confirmation. The time is kept for you meanwhile.
        </p>
      );
    case 'confirmed':
      return <p className="text-sm text-fg">Your session is booked. {roomText(b)}</p>;
    case 'cancelled':
      return (
        <p className="text-sm text-fg">
          This booking was cancelled
          {b.cancelled_by === 'booker' ? ' at your request' : ' by the host'}.
          {b.refunded > 0
            ? ` ${formatMinor(b.refunded, b.currency)} was refunded to your card.`
            : ''}
        </p>
      );
    case 'expired':
      return (
        <p className="text-sm text-fg">
          The payment was not completed in time, so the time was given back. Nothing was charged;
          you can book again.
        </p>
      );
    case 'declined':
      return (
        <p className="text-sm text-fg">
          {b.owner_name || 'The host'} could not take this request. Nothing was charged; please
          choose another time.
        </p>
      );
    default:
      return null;
  }
}

function ManageButtons({
  booking,
  id,
  token,
  moving,
  onMoving,
}: {
  booking: Booking;
  id: string;
  token: string;
  moving: boolean;
  onMoving: (moving: boolean) => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const cancel = useCancelBooking({
    mutationConfig: {
      onSuccess: () => setConfirming(false),
      onError: (error) => {
        setConfirming(false);
        setProblem(
          error instanceof RetryLaterError
            ? `${error.message} Try again ${retryText(error.retryAfter)}.`
            : errorMessage(error),
        );
      },
    },
  });
  const movable = canReschedule(booking);
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="font-semibold text-fg">Change of plans?</h2>
      {booking.change_until ? (
        <p className="text-sm text-muted">
          You can {booking.event_id ? 'cancel your seat' : 'move or cancel'} online until{' '}
          {formatInZone(booking.change_until, detectTimeZone())}.
        </p>
      ) : null}
      {booking.event_id ? (
        <p className="text-sm text-muted">
          A seat keeps its date. To come on another date, cancel this seat and book one there.
        </p>
      ) : movable ? (
        <Button variant="outline" onClick={() => onMoving(!moving)} aria-expanded={moving}>
          {moving ? 'Keep the current time' : 'Reschedule'}
        </Button>
      ) : (
        <p className="text-sm text-muted">
          This booking has been moved as often as allowed online.
        </p>
      )}
      <button
        ref={cancelRef}
        type="button"
        className={buttonClasses('ghost', 'md', 'hover:text-term-red')}
        onClick={() => setConfirming(true)}
        aria-haspopup="dialog"
      >
        <XCircle size={16} aria-hidden="true" />
        Cancel booking
      </button>
      {problem ? (
        <p role="alert" className="text-sm text-term-red">
          {problem}
        </p>
      ) : null}
      <Modal
        open={confirming}
        onOpenChange={setConfirming}
        role="alertdialog"
        windowTitle="~ $ booking --cancel"
        title="Cancel this booking?"
        description={refundText(booking)}
        returnFocusTo={cancelRef}
      >
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => setConfirming(false)}>
            Keep booking
          </Button>
          <Button
            className="bg-term-red text-ink-950 shadow-none hover:bg-term-red/85"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate({ id, token })}
          >
            {cancel.isPending ? 'Cancelling…' : 'Cancel booking'}
          </Button>
        </div>
      </Modal>
    </Card>
  );
}

function Reschedule({
  booking,
  id,
  token,
  onDone,
}: {
  booking: Booking;
  id: string;
  token: string;
  onDone: () => void;
}) {
  const [zone, setZone] = useState(detectTimeZone);
  const [slot, setSlot] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const move = useRescheduleBooking({
    mutationConfig: {
      onSuccess: () => onDone(),
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'slot_taken') {
          setSlot(null);
          setProblem(
            'Someone booked that time a moment ago. Here are the times still free: please choose another.',
          );
          return;
        }
        setProblem(
          error instanceof RetryLaterError
            ? `${error.message} Try again ${retryText(error.retryAfter)}.`
            : errorMessage(error),
        );
      },
    },
  });
  const chosen = slot ? wallClock(slot) : null;
  return (
    <section aria-labelledby="reschedule-heading" className="mt-10">
      <h2
        id="reschedule-heading"
        ref={headingRef}
        tabIndex={-1}
        className="text-2xl font-bold text-fg focus:outline-none"
      >
        Choose a new time
      </h2>
      <Card className="mt-4 flex flex-col gap-6 p-4 sm:p-6">
        {problem ? (
          <p
            role="alert"
            className="rounded-md border border-term-amber/60 bg-term-amber/10 p-3 text-sm text-fg"
          >
            {problem}
          </p>
        ) : null}
        <SlotPicker
          type={booking.type}
          zone={zone}
          onZoneChange={setZone}
          slot={slot}
          onSlotChange={setSlot}
          exclude={booking.start}
        />
        {slot && chosen ? (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            <p className="text-sm text-fg">
              New time: {longDate(chosen.date)} at {slotLabel(slot)} ({zone})
            </p>
            <Button
              disabled={move.isPending}
              onClick={() => {
                setProblem(null);
                move.mutate({ id, token, start: slot });
              }}
            >
              {move.isPending ? 'Moving…' : 'Move my booking here'}
            </Button>
          </div>
        ) : null}
      </Card>
    </section>
  );
}

/** What a confirmed booking's page says of its call link. */
function roomText(b: Booking): string {
  switch (b.room) {
    case 'open':
      return 'Join the call with the button below; the link is in your invitation too.';
    case 'later':
      return `The invitation in your e-mail has the call link; it also appears here at ${
        b.room_opens_at ? formatInZone(b.room_opens_at, detectTimeZone()) : 'the start'
      }, 15 minutes before the start.`;
    case 'owner':
      return `The invitation is in your e-mail; the link to join will be sent by ${
        b.owner_name || 'the host'
      } before the call.`;
    default:
      return 'The invitation is in your e-mail.';
  }
}
