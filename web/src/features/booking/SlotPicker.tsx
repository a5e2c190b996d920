import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { useSlots } from './api/get-slots';
import {
  addMonths,
  compareMonths,
  firstOfMonth,
  lastOfMonth,
  longDate,
  type Month,
  monthLabel,
  monthOf,
  todayIn,
} from './calendar';
import { MonthCalendar } from './MonthCalendar';
import { TimeZonePicker } from './TimeZonePicker';
import { slotLabels } from './time';

/** How far ahead the calendar goes; the server's booking window decides what is free in it. */
const MONTHS_AHEAD = 12;

export interface SlotPickerProps {
  type: string;
  zone: string;
  onZoneChange: (zone: string) => void;
  /** The chosen start (an instant from the server), or null. */
  slot: string | null;
  onSlotChange: (slot: string | null) => void;
  /** A start never to offer (the booking's own time when moving it). */
  exclude?: string;
  /** A start proposed before the picker shows (a link's ?start=): chosen once it is free. */
  proposed?: string | null;
  /** The chosen or proposed start is not free (taken meanwhile, or a link's time gone). */
  onSlotGone?: () => void;
}

/** The date of `slot` in `zone`, or null when it is no instant. */
function dateOf(slot: string | null, zone: string): string | null {
  if (!slot) return null;
  const t = Date.parse(slot);
  return Number.isNaN(t) ? null : todayIn(zone, new Date(t));
}

/** Whether two RFC 3339 texts name the same instant, whatever offset each is written with. */
function sameInstant(a: string, b: string | undefined): boolean {
  return b !== undefined && Date.parse(a) === Date.parse(b);
}

/** The visitor's zone, a month of days with free times, and the times of the chosen day. */
export function SlotPicker({
  type,
  zone,
  onZoneChange,
  slot,
  onSlotChange,
  exclude,
  proposed = null,
  onSlotGone,
}: SlotPickerProps) {
  const today = useMemo(() => todayIn(zone), [zone]);
  const minMonth = monthOf(today);
  const maxMonth = addMonths(minMonth, MONTHS_AHEAD);
  // A proposed start opens its month and day.
  const [date, setDate] = useState<string | null>(() => {
    const d = dateOf(proposed, zone);
    return d && d >= today ? d : null;
  });
  const [month, setMonth] = useState<Month>(() => {
    const m = date ? monthOf(date) : minMonth;
    return compareMonths(m, maxMonth) > 0 ? minMonth : m;
  });
  const timesId = useId();

  const from = compareMonths(month, minMonth) === 0 ? today : firstOfMonth(month);
  const to = lastOfMonth(month);
  const slots = useSlots({ params: { type, from, to, tz: zone } });
  const current = slots.data && !slots.isPlaceholderData ? slots.data : undefined;

  const available = useMemo(() => {
    const map = new Map<string, number>();
    for (const day of current?.days ?? []) {
      const free = day.slots.filter((s) => !sameInstant(s, exclude));
      if (free.length > 0) map.set(day.date, free.length);
    }
    return map;
  }, [current, exclude]);

  // The first month shown has no free time left (the end of a month): show the next one, once.
  const advanced = useRef(false);
  useEffect(() => {
    if (advanced.current || !current) return;
    advanced.current = true;
    if (available.size === 0 && compareMonths(month, minMonth) === 0) {
      setMonth(addMonths(month, 1));
    }
  }, [current, available, month, minMonth]);

  // A chosen date or time that is no longer free (taken, or another zone) is dropped.
  useEffect(() => {
    if (!current) return;
    if (date && !available.has(date)) setDate(null);
    if (slot) {
      const stillFree = current.days.some((d) => d.slots.includes(slot));
      if (!stillFree) {
        onSlotChange(null);
        onSlotGone?.();
      }
    }
  }, [current, available, date, slot, onSlotChange, onSlotGone]);

  // The proposed start, once the first answer is in: the server's text of that instant (a link
  // made for another zone writes another offset), or word that it is no longer free.
  const proposalSettled = useRef(proposed === null);
  useEffect(() => {
    if (proposalSettled.current || !current || proposed === null) return;
    proposalSettled.current = true;
    const same = current.days.flatMap((d) => d.slots).find((s) => sameInstant(s, proposed));
    if (same === undefined || sameInstant(same, exclude)) onSlotGone?.();
    else onSlotChange(same);
  }, [current, proposed, exclude, onSlotChange, onSlotGone]);

  const timesList = date
    ? (current?.days.find((d) => d.date === date)?.slots ?? []).filter(
        (s) => !sameInstant(s, exclude),
      )
    : [];
  const labels = slotLabels(timesList);

  return (
    <div className="flex flex-col gap-5">
      <TimeZonePicker
        value={zone}
        onChange={(z) => {
          if (z === zone) return;
          onSlotChange(null);
          setDate(null);
          onZoneChange(z);
        }}
      />
      <div className="grid gap-6 md:grid-cols-[minmax(0,22rem)_1fr]">
        <div>
          <MonthCalendar
            month={month}
            onMonthChange={(m) => {
              setMonth(m);
            }}
            minMonth={minMonth}
            maxMonth={maxMonth}
            available={available}
            selected={date}
            onSelect={(d) => {
              setDate(d);
              onSlotChange(null);
            }}
            today={today}
            loading={!current}
          />
          <p className="mt-3 flex items-center gap-2 text-xs text-dim">
            <span
              aria-hidden="true"
              className="inline-block h-3 w-3 rounded-sm border border-term-green/50 bg-term-green/10"
            />
            Days with free times
          </p>
        </div>
        <div aria-live="polite">
          {slots.isError ? (
            <div role="alert" className="rounded-md border border-term-red/50 p-4 text-sm text-fg">
              <p>The free times could not be loaded: {errorMessage(slots.error)}</p>
              <Button
                variant="outline"
                size="sm"
                className="mt-3"
                onClick={() => void slots.refetch()}
              >
                Try again
              </Button>
            </div>
          ) : !current ? (
            <p className="text-sm text-muted">Loading free times for {monthLabel(month)}…</p>
          ) : available.size === 0 ? (
            <p className="text-sm text-muted">
              No free times in {monthLabel(month)}.{' '}
              {compareMonths(month, maxMonth) < 0 ? 'Try the next month.' : ''}
            </p>
          ) : date === null ? (
            <p className="text-sm text-muted">Choose a highlighted day to see its free times.</p>
          ) : (
            <section aria-labelledby={timesId}>
              <h3 id={timesId} className="font-mono text-base font-semibold text-fg">
                {longDate(date)}
              </h3>
              <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-3">
                {timesList.map((s, i) => (
                  <li key={s}>
                    <button
                      type="button"
                      aria-pressed={slot === s}
                      onClick={() => onSlotChange(s)}
                      className={cn(
                        'h-11 w-full rounded-md border font-mono text-sm',
                        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-term-cyan',
                        slot === s
                          ? 'border-term-green bg-term-green text-ink-950'
                          : 'border-ink-600 bg-ink-850/60 text-fg hover:border-term-green/70 hover:text-term-green',
                      )}
                    >
                      {labels[i]}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      </div>
    </div>
  );
}
