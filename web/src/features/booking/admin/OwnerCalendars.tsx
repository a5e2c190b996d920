import { CalendarX2, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { ApiError, errorMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import { type CalendarFeed, useCalendars, useSaveCalendars } from '../api/calendars';
import { formatInZone } from '../time';
import { ConfirmAction } from './ConfirmAction';

/** The host of a calendar address, to name it without reading its secret path aloud. */
export function calendarHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * A calendar's state in one word, for its badge: a copy read with parts left out (an unknown
 * time zone, events that could not be read, a repeat rule read as its first time only, a cap
 * reached) is "partial", never "ok", so the owner knows some busy time may be missing.
 */
export function calendarState(c: CalendarFeed): 'failing' | 'ok' | 'partial' | 'waiting' {
  if (c.last_error) return 'failing';
  if (!c.last_success) return 'waiting';
  return c.skipped > 0 || c.notes.length > 0 ? 'partial' : 'ok';
}

/**
 * The owner's own calendars (Google, Outlook, iCloud "secret address in iCal format"): their
 * events remove booking slots. Each address shows when it last worked and, when it fails, why;
 * a failing address keeps blocking the busy times it last had.
 */
export function OwnerCalendars({ ownerZone }: { ownerZone: string }) {
  const calendars = useCalendars();
  const [address, setAddress] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [removing, setRemoving] = useState<CalendarFeed | null>(null);
  const save = useSaveCalendars();
  const list = calendars.data?.calendars ?? [];
  // The server loads a new address in the background: look again soon while one waits.
  const waiting = list.some((c) => !c.last_success && !c.last_error);
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setInterval(() => void calendars.refetch(), 3_000);
    return () => window.clearInterval(timer);
  }, [waiting, calendars.refetch]);
  const minutes = calendars.data?.refresh_minutes ?? 5;

  const guard = useSubmitGuard();
  const add = guard.onSubmit(() => {
    const url = address.trim();
    if (!url) {
      setFieldError('Paste the calendar address first.');
      return;
    }
    setFieldError(undefined);
    return save.mutateAsync([...list.map((c) => c.url), url], {
      onSuccess: () => {
        setAddress('');
        toast.success(
          'Calendar added',
          'It is being loaded now; its status below shows when its events remove booking slots.',
        );
      },
      onError: (error) => {
        if (error instanceof ApiError && error.field === 'urls') setFieldError(error.message);
        else toast.error('Error', errorMessage(error));
      },
    });
  });

  const remove = (c: CalendarFeed) =>
    save.mutate(
      list.filter((x) => x.id !== c.id).map((x) => x.url),
      {
        onSuccess: () => {
          setRemoving(null);
          toast.success('Calendar removed', 'Its events no longer block booking slots.');
        },
        onError: (error) => toast.error('Error', errorMessage(error)),
      },
    );

  return (
    <Card>
      <h3 className="flex items-center gap-2 text-lg font-semibold text-fg">
        <CalendarX2 size={18} aria-hidden="true" className="text-term-cyan" />
        Your calendars as busy time
      </h3>
      <p className="mt-1 text-sm text-muted">
        Add the secret iCal address of your Google, Outlook or iCloud calendar: its events remove
        booking slots. Each address is checked every {minutes} minutes. Events marked free and
        cancelled events do not block; all-day events block their whole day.
      </p>
      <div className="mt-4" aria-live="polite">
        {calendars.isPending ? (
          <p className="text-sm text-muted">Loading calendars…</p>
        ) : calendars.isError ? (
          <p role="alert" className="text-sm text-fg">
            The calendars could not be loaded: {errorMessage(calendars.error)}
          </p>
        ) : list.length === 0 ? (
          <p className="text-sm text-muted">
            No calendars yet: only your hours and bookings decide the free times.
          </p>
        ) : (
          <ul aria-label="Your calendars" className="flex flex-col gap-3">
            {list.map((c) => (
              <CalendarRow
                key={c.id}
                calendar={c}
                ownerZone={ownerZone}
                onRemove={() => setRemoving(c)}
              />
            ))}
          </ul>
        )}
      </div>
      <form onSubmit={add} noValidate className="mt-4 flex flex-col gap-2">
        <FormField
          label="Calendar address (iCal)"
          size="sm"
          hint="Starts with https:// or webcal:// and usually ends in .ics. Keep it private."
          error={fieldError}
        >
          {(control) => (
            <input
              {...control}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              value={address}
              onChange={(e) => setAddress(e.target.value)}
              placeholder="webcal://p01-calendars.icloud.com/published/2/…"
              className="h-9 min-w-0 rounded-md border border-ink-600 bg-ink-900 px-3 font-mono text-xs text-fg placeholder:text-dim"
            />
          )}
        </FormField>
        <div>
          <Button
            type="submit"
            size="sm"
            disabled={guard.pending || save.isPending || calendars.isPending}
          >
            {save.isPending && !removing ? 'Adding…' : 'Add calendar'}
          </Button>
        </div>
      </form>
      <ConfirmAction
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title="Remove this calendar?"
        description={`Events from ${removing ? calendarHost(removing.url) : 'it'} stop blocking booking slots at once. You can add the address again later.`}
        confirmLabel="Remove"
        danger
        busy={save.isPending}
        onConfirm={() => {
          if (removing) remove(removing);
        }}
      />
    </Card>
  );
}

/** A note from the server ("unknown time zone …") as a sentence. */
function sentence(note: string): string {
  return `${note.charAt(0).toUpperCase()}${note.slice(1)}.`;
}

function CalendarRow({
  calendar: c,
  ownerZone,
  onRemove,
}: {
  calendar: CalendarFeed;
  ownerZone: string;
  onRemove: () => void;
}) {
  const state = calendarState(c);
  const host = calendarHost(c.url);
  return (
    <li className="flex flex-col gap-2 rounded-md border border-ink-600 bg-ink-900/60 p-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-mono text-sm text-fg">{host}</span>
          {state === 'ok' ? (
            <Badge tone="green">Working</Badge>
          ) : state === 'partial' ? (
            <Badge tone="amber">Working, with problems</Badge>
          ) : state === 'failing' ? (
            <Badge tone="amber">Failing</Badge>
          ) : (
            <Badge>Not loaded yet</Badge>
          )}
        </div>
        <p className="font-mono text-xs break-all text-dim">{c.url}</p>
        <p className="text-xs text-muted">
          {c.last_success
            ? `Last loaded ${formatInZone(c.last_success, ownerZone)}: ${c.events} ${c.events === 1 ? 'event' : 'events'}, ${c.busy} busy ${c.busy === 1 ? 'time' : 'times'} ahead.`
            : 'Never loaded yet.'}
        </p>
        {c.last_success && (c.skipped > 0 || c.notes.length > 0) ? (
          <div className="text-xs text-term-amber">
            <p>
              {c.skipped > 0
                ? `${c.skipped} ${c.skipped === 1 ? 'part' : 'parts'} of this calendar could not be read and block nothing. `
                : ''}
              Check these in your calendar app; until then, some busy time may be missing:
            </p>
            <ul aria-label={`Problems reading ${host}`} className="mt-1 list-disc pl-4">
              {c.notes.map((n) => (
                <li key={n}>{sentence(n)}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {c.last_error ? (
          <p className="text-xs text-term-amber">
            {c.last_error_at ? `Failed ${formatInZone(c.last_error_at, ownerZone)}: ` : 'Failed: '}
            {c.last_error}.
            {c.last_success ? ' Its busy times from the last success still block.' : ''}
          </p>
        ) : null}
      </div>
      <Button
        variant="ghost"
        size="sm"
        aria-haspopup="dialog"
        aria-label={`Remove calendar ${host}`}
        onClick={onRemove}
        className="self-start"
      >
        <Trash2 size={14} aria-hidden="true" />
        Remove
      </Button>
    </li>
  );
}
