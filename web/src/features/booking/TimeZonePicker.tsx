import { Globe } from 'lucide-react';
import { type KeyboardEvent, useId, useMemo, useRef, useState } from 'react';
import { cn } from '@/lib/cn';
import { searchZones, timeZones, zoneOffset } from './time';

/** How many matches the list shows at once; typing narrows it down. */
const SHOWN = 60;

export interface TimeZonePickerProps {
  value: string;
  onChange: (zone: string) => void;
  /** Zones to choose from; every zone the browser knows by default. */
  zones?: readonly string[];
}

/**
 * The visitor's time zone, shown, and changeable from a searchable list of IANA zones (the
 * WAI-ARIA combobox pattern: type to filter, arrows to move, Enter to choose, Escape to close).
 */
export function TimeZonePicker({ value, onChange, zones }: TimeZonePickerProps) {
  const inputId = useId();
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const changeRef = useRef<HTMLButtonElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);

  // Every zone the browser knows is a long list to read and sort: only once the list opens.
  const matches = useMemo(
    () => (open ? searchZones(query, zones ?? timeZones()) : []),
    [open, query, zones],
  );
  const shown = matches.slice(0, SHOWN);

  const close = () => {
    setOpen(false);
    setQuery('');
    // Back to the button that opened the list, once it is on screen again.
    requestAnimationFrame(() => changeRef.current?.focus());
  };

  const choose = (zone: string) => {
    onChange(zone);
    close();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        setActive((i) => Math.min(shown.length - 1, i + 1));
        return;
      case 'ArrowUp':
        event.preventDefault();
        setActive((i) => Math.max(0, i - 1));
        return;
      case 'Home':
        if (!event.ctrlKey) return;
        event.preventDefault();
        setActive(0);
        return;
      case 'Enter': {
        event.preventDefault();
        const zone = shown[active];
        if (zone) choose(zone);
        return;
      }
      case 'Escape':
        event.preventDefault();
        close();
        return;
    }
  };

  if (!open) {
    return (
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <Globe size={16} aria-hidden="true" className="text-term-cyan" />
        <p className="text-muted">
          Times are shown in <span className="font-mono text-fg">{value}</span>{' '}
          <span className="font-mono text-dim">{zoneOffset(value)}</span>
        </p>
        <button
          ref={changeRef}
          type="button"
          onClick={() => {
            setOpen(true);
            setActive(0);
            requestAnimationFrame(() => inputRef.current?.focus());
          }}
          className="min-h-11 rounded-md px-2 font-mono text-sm text-term-cyan underline underline-offset-4 hover:text-fg focus-visible:outline-2 focus-visible:outline-term-cyan"
        >
          Change time zone
        </button>
      </div>
    );
  }

  const activeId = shown[active] ? `${listId}-${active}` : undefined;
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={inputId} className="font-mono text-sm text-fg">
        Time zone
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        autoComplete="off"
        spellCheck={false}
        placeholder="Search a city or region, e.g. Paris"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        className="h-11 w-full rounded-md border border-ink-600 bg-ink-900 px-3 text-sm text-fg placeholder:text-dim focus-visible:border-term-cyan focus-visible:outline-2 focus-visible:outline-term-cyan"
      />
      <p className="text-xs text-dim" aria-live="polite">
        {matches.length === 0
          ? 'No time zone matches.'
          : `${matches.length} time zone${matches.length === 1 ? '' : 's'}${matches.length > SHOWN ? `, first ${SHOWN} shown` : ''}. Use the arrow keys and Enter, or Escape to keep ${value}.`}
      </p>
      <div
        id={listId}
        role="listbox"
        aria-label="Time zones"
        className="max-h-64 overflow-y-auto rounded-md border border-ink-700 bg-ink-900"
      >
        {shown.map((zone, i) => (
          // biome-ignore lint/a11y/useFocusableInteractive: the input keeps focus and points at the active option (aria-activedescendant)
          <div
            key={zone}
            id={`${listId}-${i}`}
            role="option"
            aria-selected={zone === value}
            // The input keeps focus: a pointer must not take it away before the click.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(zone)}
            onKeyDown={() => {}}
            ref={(el) => {
              if (i === active) el?.scrollIntoView?.({ block: 'nearest' });
            }}
            className={cn(
              'flex min-h-11 cursor-pointer items-center justify-between gap-3 px-3 text-sm',
              i === active ? 'bg-ink-800 text-fg' : 'text-muted',
              zone === value && 'font-semibold text-term-green',
            )}
          >
            <span className="font-mono">{zone}</span>
            <span className="font-mono text-xs text-dim">{zoneOffset(zone)}</span>
          </div>
        ))}
      </div>
      <button
        type="button"
        onClick={close}
        className="self-start min-h-11 rounded-md px-2 font-mono text-sm text-muted underline underline-offset-4 hover:text-fg focus-visible:outline-2 focus-visible:outline-term-cyan"
      >
        Keep {value}
      </button>
    </div>
  );
}
