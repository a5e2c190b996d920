import { Users } from 'lucide-react';
import { useId } from 'react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { useEvents } from './api/get-events';
import type { BookingEvent } from './api/types';
import { durationText } from './offers';
import { SeatWaitlistJoin } from './SeatWaitlistJoin';
import { TimeZonePicker } from './TimeZonePicker';
import { formatInZone } from './time';

export interface EventPickerProps {
  type: string;
  zone: string;
  onZoneChange: (zone: string) => void;
  /** The chosen date's id, or null. */
  eventId: string | null;
  onChange: (event: BookingEvent | null) => void;
}

/**
 * What stands where the dates go while they load and when there are none: one size, so the page
 * does not move when the answer arrives (three lines of the empty text on a phone).
 */
const placeBox = 'min-h-24 rounded-md border border-ink-700 bg-ink-900 p-4 text-sm text-muted';

/**
 * The dates of a group training as a list of radio buttons: each with its time in the visitor's
 * zone, its length and the seats left; a full date is shown and cannot be chosen, and offers its
 * wait list instead.
 */
export function EventPicker({ type, zone, onZoneChange, eventId, onChange }: EventPickerProps) {
  const events = useEvents({ type });
  const headingId = useId();
  const list = events.data?.events ?? [];
  return (
    <div className="flex flex-col gap-5">
      <TimeZonePicker
        value={zone}
        onChange={(z) => {
          if (z !== zone) onZoneChange(z);
        }}
      />
      <fieldset aria-labelledby={headingId} className="flex flex-col gap-3">
        <legend id={headingId} className="text-base font-semibold text-fg">
          Upcoming dates
        </legend>
        {events.isPending ? (
          <p role="status" className={placeBox}>
            Loading the dates…
          </p>
        ) : events.isError ? (
          <div role="alert" className="rounded-md border border-term-red/50 p-4 text-sm text-fg">
            <p>The dates could not be loaded: {errorMessage(events.error)}</p>
            <Button
              variant="outline"
              size="sm"
              className="mt-3"
              onClick={() => void events.refetch()}
            >
              Try again
            </Button>
          </div>
        ) : list.length === 0 ? (
          <p className={placeBox}>
            No dates are scheduled right now. New dates are announced here; please check back soon.
          </p>
        ) : (
          <ul className="flex flex-col gap-2">
            {list.map((e) => {
              const full = e.seats_left === 0;
              const chosen = e.id === eventId;
              return (
                <li key={e.id}>
                  <label
                    className={cn(
                      'flex cursor-pointer flex-wrap items-center justify-between gap-x-4 gap-y-1 rounded-md border p-3 transition-colors has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-term-cyan',
                      chosen
                        ? 'border-term-green bg-term-green/10'
                        : 'border-ink-700 bg-ink-900 hover:border-ink-500',
                      full && 'cursor-not-allowed opacity-60 hover:border-ink-700',
                    )}
                  >
                    <span className="flex items-center gap-3">
                      <input
                        type="radio"
                        name={`event-${type}`}
                        value={e.id}
                        checked={chosen}
                        disabled={full}
                        onChange={() => onChange(e)}
                        className="size-4 accent-term-green"
                      />
                      <span className="text-sm text-fg">
                        {formatInZone(e.start, zone)}
                        <span className="block text-xs text-muted">{durationText(e.duration)}</span>
                      </span>
                    </span>
                    <span
                      className={cn(
                        'flex items-center gap-1.5 font-mono text-xs',
                        full ? 'text-term-red' : 'text-term-amber',
                      )}
                    >
                      <Users size={14} aria-hidden="true" />
                      {full ? 'Sold out' : `${plural(e.seats_left, 'seat')} left`}
                    </span>
                  </label>
                  {full ? <SeatWaitlistJoin event={e} zone={zone} /> : null}
                </li>
              );
            })}
          </ul>
        )}
      </fieldset>
    </div>
  );
}
