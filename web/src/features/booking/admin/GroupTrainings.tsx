import {
  Armchair,
  CalendarClock,
  ListOrdered,
  type LucideIcon,
  Mail,
  Users,
  XCircle,
} from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { fieldControlClass, TextField } from '@/components/ui/text-field';
import { ApiError, errorMessage } from '@/lib/api';
import { MaxEventSeats } from '@/lib/api-types/booking';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { todayIn } from '@/lib/time-zone';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import {
  useAdminEvents,
  useAttendees,
  useCancelEvent,
  useMessageAttendees,
  useMoveEvent,
  useScheduleEvent,
  useSetEventSeats,
} from '../api/admin-events';
import { useSeatWaitlist } from '../api/seat-waitlist';
import type { BookingEvent, BookingType } from '../api/types';
import { durationText } from '../offers';
import { STATUS_TEXT } from '../status';
import { clockInZone, formatInZone, instantInZone } from '../time';
import { ConfirmAction } from './ConfirmAction';

type ScheduleField = 'date' | 'time' | 'duration' | 'seats';

/**
 * The group training's dates: schedule one on the owner's clock, see each date's seats, its
 * attendees, write to them all, or cancel it (every seat is cancelled and refunded).
 */
export function GroupTrainings({
  ownerZone,
  type,
}: {
  ownerZone: string;
  /** The seated type (group training) from `GET /api/booking/types`. */
  type: BookingType;
}) {
  const events = useAdminEvents();
  const list = (events.data?.events ?? []).filter((e) => e.type === type.id);
  return (
    <Card>
      <h3 className="flex items-center gap-2 text-lg font-semibold text-fg">
        <Users size={18} aria-hidden="true" className="text-term-cyan" />
        {type.name}: dates and seats
      </h3>
      <p className="mt-1 text-sm text-muted">
        Visitors buy one seat of a date at /book/{type.id}. A date is busy time: no one-to-one call
        is offered during it. Times are on your clock ({ownerZone}).
      </p>
      <ScheduleForm ownerZone={ownerZone} type={type} />
      <div className="mt-6">
        {events.isPending ? (
          <p className="text-sm text-muted">Loading dates…</p>
        ) : events.isError ? (
          <p role="alert" className="text-sm text-fg">
            The dates could not be loaded: {errorMessage(events.error)}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted">No dates scheduled yet.</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {list.map((e) => (
              <EventRow key={e.id} event={e} ownerZone={ownerZone} />
            ))}
          </ul>
        )}
      </div>
    </Card>
  );
}

function ScheduleForm({ ownerZone, type }: { ownerZone: string; type: BookingType }) {
  const [values, setValues] = useState({
    date: '',
    time: '10:00',
    duration: String(type.duration),
    seats: String(type.seats ?? 50),
  });
  const [errors, setErrors] = useState<Partial<Record<ScheduleField, string>>>({});
  const schedule = useScheduleEvent({
    mutationConfig: {
      onSuccess: (reply) => {
        toast.success('Date scheduled', formatInZone(reply.event.start, ownerZone));
        setValues((v) => ({ ...v, date: '' }));
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 400) {
          const field = error.field === 'start' ? 'date' : error.field;
          if (field === 'date' || field === 'duration' || field === 'seats') {
            setErrors({ [field]: error.message });
            return;
          }
        }
        toast.error('Not scheduled', errorMessage(error));
      },
    },
  });
  const set = (field: ScheduleField) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    const start = instantInZone(values.date, values.time, ownerZone);
    if (!values.date) {
      setErrors({ date: 'Choose the date.' });
      return;
    }
    if (!start) {
      setErrors({ time: `That time does not exist on your clock (${ownerZone}) that day.` });
      return;
    }
    return schedule.mutateAsync({
      type: type.id,
      start,
      duration: Number(values.duration) || 0,
      seats: Number(values.seats) || 0,
    });
  });
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label={`Schedule a date of ${type.name}`}
      className="mt-4 grid gap-3 sm:grid-cols-[1fr_1fr_1fr_1fr_auto] sm:items-end"
    >
      <TextField
        size="sm"
        label="Date"
        error={errors.date}
        name="date"
        type="date"
        value={values.date}
        onValueChange={set('date')}
      />
      <TextField
        size="sm"
        label="Start"
        error={errors.time}
        name="time"
        type="time"
        step={300}
        value={values.time}
        onValueChange={set('time')}
      />
      <TextField
        size="sm"
        label="Minutes"
        error={errors.duration}
        name="duration"
        type="number"
        min={15}
        step={5}
        value={values.duration}
        onValueChange={set('duration')}
      />
      <TextField
        size="sm"
        label="Seats"
        error={errors.seats}
        name="seats"
        type="number"
        min={1}
        value={values.seats}
        onValueChange={set('seats')}
      />
      <Button type="submit" size="sm" disabled={guard.pending}>
        {guard.pending ? 'Scheduling…' : 'Schedule date'}
      </Button>
    </form>
  );
}

type Panel = 'attendees' | 'waitlist' | 'message' | 'seats' | 'move';

/** The panels a date's row opens below it, one at a time, in the order of their buttons. */
const PANELS: ReadonlyArray<{ panel: Panel; label: string; Icon: LucideIcon }> = [
  { panel: 'attendees', label: 'Attendees', Icon: Users },
  { panel: 'waitlist', label: 'Wait list', Icon: ListOrdered },
  { panel: 'move', label: 'Move', Icon: CalendarClock },
  { panel: 'seats', label: 'Seats', Icon: Armchair },
  { panel: 'message', label: 'Message all', Icon: Mail },
];

function EventRow({ event: e, ownerZone }: { event: BookingEvent; ownerZone: string }) {
  const [open, setOpen] = useState<Panel | null>(null);
  const [confirming, setConfirming] = useState(false);
  // A cancelled date loses its buttons, the one that opened the confirmation included: focus goes
  // to the date's own lines, which then say "cancelled", instead of falling to the page.
  const [cancelledNow, setCancelledNow] = useState(false);
  const dateRef = useRef<HTMLDivElement>(null);
  const panelId = useId();
  const cancelled = e.status === 'cancelled';
  const taken = e.taken;
  const cancel = useCancelEvent({
    mutationConfig: {
      onSuccess: (reply) => {
        setCancelledNow(true);
        setConfirming(false);
        toast.success(
          'Date cancelled',
          reply.refunds.length > 0
            ? `${plural(reply.refunds.length, 'seat')} refunded in full.`
            : 'Every attendee was told.',
        );
      },
      onError: (error) => {
        setConfirming(false);
        toast.error('Not cancelled', errorMessage(error));
      },
    },
  });
  const toggle = (what: Panel) => setOpen((o) => (o === what ? null : what));
  return (
    <li
      className={cn(
        'rounded-md border border-ink-700 bg-ink-900/60 p-3',
        cancelled && 'opacity-70',
      )}
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div
          ref={dateRef}
          tabIndex={-1}
          className="rounded-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-term-cyan"
        >
          <p className="text-sm font-medium text-fg">{formatInZone(e.start, ownerZone)}</p>
          <p className="font-mono text-xs text-muted">
            {durationText(e.duration)} ·{' '}
            {cancelled ? 'cancelled' : `${taken} of ${plural(e.seats, 'seat')} taken`}
          </p>
        </div>
        {cancelled ? null : (
          <div className="flex flex-wrap gap-2">
            {PANELS.map(({ panel, label: name, Icon }) => {
              const label = panel === 'waitlist' && e.waiting > 0 ? `${name} (${e.waiting})` : name;
              return (
                <Button
                  key={panel}
                  size="sm"
                  variant="outline"
                  aria-expanded={open === panel}
                  aria-controls={panelId}
                  onClick={() => toggle(panel)}
                >
                  <Icon size={14} aria-hidden="true" />
                  {label}
                </Button>
              );
            })}
            <Button
              size="sm"
              variant="ghost"
              aria-haspopup="dialog"
              onClick={() => setConfirming(true)}
            >
              <XCircle size={14} aria-hidden="true" />
              Cancel date
            </Button>
          </div>
        )}
      </div>
      <div id={panelId}>
        {open === 'attendees' ? <Attendees eventId={e.id} ownerZone={ownerZone} /> : null}
        {open === 'waitlist' ? <SeatWaitlist eventId={e.id} ownerZone={ownerZone} /> : null}
        {open === 'message' ? <MessageForm eventId={e.id} onDone={() => setOpen(null)} /> : null}
        {open === 'move' ? (
          <MoveForm event={e} taken={taken} ownerZone={ownerZone} onDone={() => setOpen(null)} />
        ) : null}
        {open === 'seats' ? (
          <SeatsForm event={e} taken={taken} onDone={() => setOpen(null)} />
        ) : null}
      </div>
      <ConfirmAction
        open={confirming}
        onOpenChange={setConfirming}
        title="Cancel this date?"
        description={`Every seat (${taken}) is cancelled and refunded in full, and each attendee gets the cancellation with the calendar update.`}
        confirmLabel="Cancel date"
        danger
        busy={cancel.isPending}
        onConfirm={() => cancel.mutateAsync(e.id)}
        returnFocusTo={cancelledNow ? dateRef : undefined}
      />
    </li>
  );
}

const WAIT_STATUS: Record<string, string> = {
  waiting: 'Waiting',
  offered: 'Seat offered',
  booked: 'Took the seat',
  lapsed: 'Offer lapsed',
  closed: 'Closed',
};

/**
 * A date's wait list in line order: who waits (numbered), whom a freed seat is offered to and
 * until when, and how earlier offers ended.
 */
function SeatWaitlist({ eventId, ownerZone }: { eventId: string; ownerZone: string }) {
  const query = useSeatWaitlist(eventId);
  if (query.isPending) return <p className="mt-3 text-sm text-muted">Loading the wait list…</p>;
  if (query.isError)
    return (
      <p role="alert" className="mt-3 text-sm text-fg">
        The wait list could not be loaded: {errorMessage(query.error)}
      </p>
    );
  const list = query.data.waitlist;
  if (list.length === 0)
    return (
      <p className="mt-3 text-sm text-muted">
        Nobody is on the wait list. When the date sells out, visitors can join it from the booking
        page.
      </p>
    );
  return (
    <table className="mt-3 w-full text-left text-sm">
      <caption className="sr-only">Wait list</caption>
      <thead className="font-mono text-xs text-dim">
        <tr>
          <th scope="col" className="py-1 pr-3 font-normal">
            #
          </th>
          <th scope="col" className="py-1 pr-3 font-normal">
            Name
          </th>
          <th scope="col" className="py-1 pr-3 font-normal">
            E-mail
          </th>
          <th scope="col" className="py-1 pr-3 font-normal">
            Status
          </th>
        </tr>
      </thead>
      <tbody>
        {list.map((w) => (
          <tr key={w.id} className="border-t border-ink-700">
            <td className="py-1.5 pr-3 font-mono text-muted">
              {w.position > 0 ? w.position : '–'}
            </td>
            <td className="py-1.5 pr-3 text-fg">{w.name}</td>
            <td className="break-all py-1.5 pr-3 text-muted">{w.email}</td>
            <td className="py-1.5 pr-3 text-fg">
              {WAIT_STATUS[w.status] ?? w.status}
              {w.status === 'offered' && w.offer_expires_at
                ? ` until ${formatInZone(w.offer_expires_at, ownerZone)}`
                : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Attendees({ eventId, ownerZone }: { eventId: string; ownerZone: string }) {
  const query = useAttendees(eventId, true);
  if (query.isPending) return <p className="mt-3 text-sm text-muted">Loading attendees…</p>;
  if (query.isError)
    return (
      <p role="alert" className="mt-3 text-sm text-fg">
        The attendees could not be loaded: {errorMessage(query.error)}
      </p>
    );
  const list = query.data.attendees;
  if (list.length === 0) return <p className="mt-3 text-sm text-muted">No seats taken yet.</p>;
  return (
    <table className="mt-3 w-full text-left text-sm">
      <caption className="sr-only">Attendees</caption>
      <thead className="font-mono text-xs text-dim">
        <tr>
          <th scope="col" className="py-1 pr-3 font-normal">
            Name
          </th>
          <th scope="col" className="py-1 pr-3 font-normal">
            E-mail
          </th>
          <th scope="col" className="py-1 pr-3 font-normal">
            Status
          </th>
          <th scope="col" className="hidden py-1 font-normal sm:table-cell">
            Booked
          </th>
        </tr>
      </thead>
      <tbody>
        {list.map((b) => (
          <tr key={b.id} className="border-t border-ink-700">
            <td className="py-1.5 pr-3 text-fg">{b.name}</td>
            <td className="break-all py-1.5 pr-3 text-muted">{b.email}</td>
            <td className="py-1.5 pr-3 text-fg">
              {STATUS_TEXT[b.status]}
              {b.paid ? ' · paid' : ''}
            </td>
            <td className="hidden py-1.5 text-muted sm:table-cell">
              {formatInZone(b.created_at, ownerZone)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A date's new start on the owner's clock and its length. The server moves every seat with it and
 * tells each confirmed or requested attendee; an unpaid hold is not mailed (its payment's
 * confirmation carries the new time), so it is counted apart.
 */
function MoveForm({
  event: e,
  taken,
  ownerZone,
  onDone,
}: {
  event: BookingEvent;
  taken: number;
  ownerZone: string;
  onDone: () => void;
}) {
  const attendees = useAttendees(e.id, taken > 0);
  const seats = attendees.data?.attendees ?? [];
  const told = seats.filter((a) => a.status === 'confirmed' || a.status === 'requested').length;
  const holds = seats.filter((a) => a.status === 'held').length;
  const [date, setDate] = useState(() => todayIn(ownerZone, new Date(e.start)));
  const [time, setTime] = useState(() => clockInZone(e.start, ownerZone));
  const [minutes, setMinutes] = useState(String(e.duration));
  const [error, setError] = useState<string>();
  const [minutesError, setMinutesError] = useState<string>();
  const move = useMoveEvent({
    mutationConfig: {
      onSuccess: (reply) => {
        toast.success(
          'Date moved',
          told > 0
            ? `${formatInZone(reply.event.start, ownerZone)}; ${plural(told, 'attendee')} told.`
            : formatInZone(reply.event.start, ownerZone),
        );
        onDone();
      },
      onError: (err) => {
        if (err instanceof ApiError && err.field === 'start') {
          setError(err.message);
          return;
        }
        if (err instanceof ApiError && err.field === 'duration') {
          setMinutesError(err.message);
          return;
        }
        toast.error('Not moved', errorMessage(err));
      },
    },
  });
  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    const start = date ? instantInZone(date, time, ownerZone) : null;
    if (!date) {
      setError('Choose the date.');
      return;
    }
    if (!start) {
      setError(`That time does not exist on your clock (${ownerZone}) that day.`);
      return;
    }
    setError(undefined);
    return move.mutateAsync({ id: e.id, start, duration: Number(minutes) || 0 });
  });
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label="Move this date"
      className="mt-3 flex flex-wrap items-end gap-3"
    >
      <p className="w-full text-xs text-dim">
        {taken === 0
          ? 'No seats taken yet.'
          : attendees.isPending
            ? 'Counting the attendees…'
            : [
                told > 0
                  ? `${plural(told, 'attendee')} will get the new time by e-mail.`
                  : 'No attendee to tell yet.',
                holds > 0
                  ? `${plural(holds, 'unpaid hold')} ${holds === 1 ? 'keeps its seat and is' : 'keep their seats and are'} not mailed: a payment’s confirmation carries the new time.`
                  : '',
              ]
                .filter(Boolean)
                .join(' ')}
      </p>
      <TextField
        size="sm"
        label="New date"
        error={error}
        className="w-48"
        name="date"
        type="date"
        value={date}
        onValueChange={(v) => {
          setDate(v);
          setError(undefined);
        }}
      />
      <TextField
        size="sm"
        label="New start"
        className="w-36"
        name="time"
        type="time"
        step={300}
        value={time}
        onValueChange={(v) => {
          setTime(v);
          setError(undefined);
        }}
      />
      <TextField
        size="sm"
        label="Minutes"
        error={minutesError}
        className="w-28"
        name="duration"
        type="number"
        min={15}
        step={5}
        value={minutes}
        onValueChange={(v) => {
          setMinutes(v);
          setMinutesError(undefined);
        }}
      />
      <Button type="submit" size="sm" disabled={guard.pending}>
        {guard.pending ? 'Moving…' : 'Move date'}
      </Button>
    </form>
  );
}

/** A date's seats: more at any time, fewer down to those already taken (the server checks too). */
function SeatsForm({
  event: e,
  taken,
  onDone,
}: {
  event: BookingEvent;
  taken: number;
  onDone: () => void;
}) {
  const [seats, setSeats] = useState(String(e.seats));
  const [error, setError] = useState<string>();
  const save = useSetEventSeats({
    mutationConfig: {
      onSuccess: (reply) => {
        toast.success('Seats saved', `${plural(reply.event.seats, 'seat')} on this date.`);
        onDone();
      },
      onError: (err) => {
        if (err instanceof ApiError && err.field === 'seats') {
          setError(err.message);
          return;
        }
        toast.error('Seats not saved', errorMessage(err));
      },
    },
  });
  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    const n = Number(seats);
    if (!/^\d+$/.test(seats.trim()) || n < 1 || n > MaxEventSeats) {
      setError(`Seats must be from 1 to ${MaxEventSeats}.`);
      return;
    }
    if (n < taken) {
      setError(`${plural(taken, 'seat is', 'seats are')} already taken; seats cannot be fewer.`);
      return;
    }
    setError(undefined);
    return save.mutateAsync({ id: e.id, seats: n });
  });
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label="Change the seats of this date"
      className="mt-3 flex flex-wrap items-end gap-3"
    >
      <p className="w-full text-xs text-dim">
        {taken > 0 ? `${plural(taken, 'seat')} taken.` : 'No seats taken yet.'}
      </p>
      <TextField
        size="sm"
        label="Seats"
        error={error}
        className="w-40"
        name="seats"
        type="number"
        inputMode="numeric"
        min={Math.max(1, taken)}
        max={MaxEventSeats}
        value={seats}
        onValueChange={(v) => {
          setSeats(v);
          setError(undefined);
        }}
      />
      <Button type="submit" size="sm" disabled={guard.pending}>
        {guard.pending ? 'Saving…' : 'Save seats'}
      </Button>
    </form>
  );
}

function MessageForm({ eventId, onDone }: { eventId: string; onDone: () => void }) {
  const [subject, setSubject] = useState('');
  const [body, setBody] = useState('');
  const [errors, setErrors] = useState<{ subject?: string; body?: string }>({});
  const send = useMessageAttendees({
    mutationConfig: {
      onSuccess: (reply) => {
        toast.success('Message queued', `Sent to ${plural(reply.sent, 'attendee')}.`);
        onDone();
      },
      onError: (error) => {
        if (error instanceof ApiError && (error.field === 'subject' || error.field === 'body')) {
          setErrors({ [error.field]: error.message });
          return;
        }
        toast.error('Not sent', errorMessage(error));
      },
    },
  });
  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    const found = {
      subject: subject.trim() ? undefined : 'Write a subject.',
      body: body.trim() ? undefined : 'Write the message.',
    };
    setErrors(found);
    if (found.subject || found.body) return;
    return send.mutateAsync({ id: eventId, subject: subject.trim(), body: body.trim() });
  });
  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label="Message every attendee"
      className="mt-3 flex flex-col gap-3"
    >
      <TextField
        size="sm"
        label="Subject"
        error={errors.subject}
        name="subject"
        value={subject}
        onValueChange={setSubject}
      />
      <FormField
        label="Message"
        size="sm"
        hint="Goes by e-mail to every confirmed or requested attendee."
        error={errors.body}
      >
        {(control) => (
          <textarea
            {...control}
            name="body"
            rows={4}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            className={cn(fieldControlClass, 'py-2')}
          />
        )}
      </FormField>
      <Button type="submit" size="sm" className="self-start" disabled={guard.pending}>
        {guard.pending ? 'Sending…' : 'Send to all attendees'}
      </Button>
    </form>
  );
}
