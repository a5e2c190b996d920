import { ChevronLeft, ChevronRight } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { cn } from '@/lib/cn';
import {
  addDays,
  addMonths,
  compareMonths,
  DAY_NAMES,
  longDate,
  type Month,
  monthLabel,
  monthOf,
  monthWeeks,
  sameDayInMonth,
  weekday,
} from './calendar';

export interface MonthCalendarProps {
  /** The month on screen. */
  month: Month;
  onMonthChange: (month: Month) => void;
  /** The first and last month one may go to. */
  minMonth: Month;
  maxMonth: Month;
  /** Dates with at least one free time, and how many. */
  available: ReadonlyMap<string, number>;
  selected: string | null;
  onSelect: (date: string) => void;
  /** The visitor's today, marked on the grid. */
  today: string;
  /** The month's times are still loading: days are not marked yet. */
  loading?: boolean;
}

/**
 * A month as an accessible date grid (the WAI-ARIA grid pattern): one day button takes Tab, and
 * the arrow keys move by day and week, Home and End to the week's ends, Page Up and Page Down by
 * month, crossing into the next or previous month as needed. Days without a free time are
 * announced as unavailable and cannot be chosen.
 */
export function MonthCalendar({
  month,
  onMonthChange,
  minMonth,
  maxMonth,
  available,
  selected,
  onSelect,
  today,
  loading = false,
}: MonthCalendarProps) {
  const captionId = useId();
  const gridRef = useRef<HTMLTableElement>(null);
  const inMonth = (date: string) => compareMonths(monthOf(date), month) === 0;
  const firstAvailable = [...available.keys()].filter(inMonth).sort()[0];
  const defaultFocus =
    selected && inMonth(selected)
      ? selected
      : (firstAvailable ??
        (compareMonths(monthOf(today), month) === 0
          ? today
          : `${month.year}-${pad(month.month)}-01`));
  // The day the visitor moved to or focused; until then the roving day follows the free days as
  // they load (a day taken meanwhile, such as today's last time, does not keep it).
  const [focused, setFocused] = useState<string | null>(null);
  // Set by a key press, so focus follows the moved day once it is on screen (not on load).
  const moveFocus = useRef(false);

  // The month changed from outside (its buttons, a new zone): the roving day goes with it.
  const focusDay = focused !== null && inMonth(focused) ? focused : defaultFocus;

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-date="${focusDay}"]`)?.focus();
  });

  const canPrev = compareMonths(month, minMonth) > 0;
  const canNext = compareMonths(month, maxMonth) < 0;

  const moveTo = (date: string) => {
    const target = monthOf(date);
    if (compareMonths(target, minMonth) < 0 || compareMonths(target, maxMonth) > 0) return;
    moveFocus.current = true;
    setFocused(date);
    if (compareMonths(target, month) !== 0) onMonthChange(target);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const day = focusDay;
    let next: string | null = null;
    switch (event.key) {
      case 'ArrowLeft':
        next = addDays(day, -1);
        break;
      case 'ArrowRight':
        next = addDays(day, 1);
        break;
      case 'ArrowUp':
        next = addDays(day, -7);
        break;
      case 'ArrowDown':
        next = addDays(day, 7);
        break;
      case 'Home':
        next = addDays(day, -weekday(day));
        break;
      case 'End':
        next = addDays(day, 6 - weekday(day));
        break;
      case 'PageUp':
        next = sameDayInMonth(day, -1);
        break;
      case 'PageDown':
        next = sameDayInMonth(day, 1);
        break;
      default:
        return;
    }
    event.preventDefault();
    moveTo(next);
  };

  // The month buttons leave the roving day to the new month's first free day (once it is known).
  const goMonth = (n: number) => onMonthChange(addMonths(month, n));

  return (
    <div className="w-full">
      <div className="flex items-center justify-between gap-2">
        <h3 id={captionId} className="font-mono text-base font-semibold text-fg" aria-live="polite">
          {monthLabel(month)}
        </h3>
        <div className="flex gap-1">
          <button
            type="button"
            onClick={() => goMonth(-1)}
            disabled={!canPrev}
            aria-label="Previous month"
            className={navButton}
          >
            <ChevronLeft size={18} aria-hidden="true" />
          </button>
          <button
            type="button"
            onClick={() => goMonth(1)}
            disabled={!canNext}
            aria-label="Next month"
            className={navButton}
          >
            <ChevronRight size={18} aria-hidden="true" />
          </button>
        </div>
      </div>
      <table
        ref={gridRef}
        // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA date grid is a table with role grid
        role="grid"
        aria-labelledby={captionId}
        aria-busy={loading || undefined}
        onKeyDown={onKeyDown}
        className="mt-3 w-full table-fixed border-collapse"
      >
        <thead>
          <tr>
            {DAY_NAMES.map((name) => (
              <th
                key={name}
                scope="col"
                abbr={name}
                className="pb-2 text-center font-mono text-xs font-normal text-dim"
              >
                <span aria-hidden="true">{name.slice(0, 2)}</span>
                <span className="sr-only">{name}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week) => (
            <tr key={week.find((d) => d !== null) ?? 'empty'}>
              {week.map((date, i) =>
                date === null ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: empty cells have no other identity
                  <td key={`pad-${i}`} />
                ) : (
                  <DayCell
                    key={date}
                    date={date}
                    count={available.get(date) ?? 0}
                    selected={selected === date}
                    isToday={today === date}
                    tabbable={focusDay === date}
                    loading={loading}
                    onFocus={() => setFocused(date)}
                    onSelect={() => onSelect(date)}
                  />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');

const navButton =
  'inline-flex h-11 w-11 items-center justify-center rounded-md border border-ink-600 bg-ink-850/60 text-fg ' +
  'hover:border-term-green/70 hover:text-term-green disabled:pointer-events-none disabled:opacity-40 ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-term-cyan';

function DayCell({
  date,
  count,
  selected,
  isToday,
  tabbable,
  loading,
  onFocus,
  onSelect,
}: {
  date: string;
  count: number;
  selected: boolean;
  isToday: boolean;
  tabbable: boolean;
  loading: boolean;
  onFocus: () => void;
  onSelect: () => void;
}) {
  const free = count > 0;
  const status = loading
    ? 'loading'
    : free
      ? `${count} time${count === 1 ? '' : 's'} available`
      : 'no free times';
  return (
    // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: a cell of the date grid
    // biome-ignore lint/a11y/useFocusableInteractive: focus is on the day's button inside (roving tabindex)
    <td role="gridcell" aria-selected={selected} className="p-0.5 text-center">
      <button
        type="button"
        data-date={date}
        tabIndex={tabbable ? 0 : -1}
        aria-disabled={!free || undefined}
        aria-label={`${longDate(date)}${isToday ? ', today' : ''}, ${status}`}
        onFocus={onFocus}
        onClick={() => {
          if (free) onSelect();
        }}
        className={cn(
          'relative inline-flex h-11 w-full max-w-12 flex-col items-center justify-center rounded-md font-mono text-sm',
          'focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-term-cyan',
          selected
            ? 'border border-term-green bg-term-green font-semibold text-ink-950'
            : free
              ? 'border border-term-green/50 bg-term-green/10 font-semibold text-fg hover:bg-term-green/20'
              : 'cursor-default text-dim',
          isToday && !selected && 'underline decoration-term-cyan decoration-2 underline-offset-4',
        )}
      >
        {Number(date.slice(8, 10))}
        {free && !selected ? (
          <span
            aria-hidden="true"
            className="absolute bottom-1 h-1 w-1 rounded-full bg-term-green"
          />
        ) : null}
      </button>
    </td>
  );
}
