import { Plus, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { ApiError, errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import { useUpdateBookingSettings } from '../api/admin';
import { type BookingSettings, type HourRange, WEEKDAYS, type Weekday } from '../api/types';
import { timeZones } from '../time';
import { nextRange } from './hours';

const input =
  'h-10 w-full rounded-md border border-ink-600 bg-ink-900 px-3 text-sm text-fg ' +
  'focus-visible:border-term-cyan focus-visible:outline-2 focus-visible:outline-term-cyan aria-[invalid=true]:border-term-red';

/** A time of a range: narrower padding on a phone, where "09:00 AM" and its clock must fit. */
const timeInput = input.replace('px-3', 'px-2 sm:px-3');

const NUMBERS: { key: NumberKey; label: string; hint: string }[] = [
  {
    key: 'slot_step_minutes',
    label: 'Slot step (minutes)',
    hint: 'Starts are offered this often, 5 to 240.',
  },
  {
    key: 'buffer_before_minutes',
    label: 'Buffer before (minutes)',
    hint: 'Free time kept before each call.',
  },
  {
    key: 'buffer_after_minutes',
    label: 'Buffer after (minutes)',
    hint: 'Free time kept after each call.',
  },
  { key: 'minimum_notice_minutes', label: 'Minimum notice (minutes)', hint: '720 is 12 hours.' },
  {
    key: 'window_days',
    label: 'Booking window (days)',
    hint: 'How far ahead people may book, 1 to 365.',
  },
  { key: 'max_per_day', label: 'Most bookings a day', hint: '0 for no limit.' },
  {
    key: 'cutoff_minutes',
    label: 'Change cut-off (minutes)',
    hint: 'Bookers may move or cancel online until this long before; 1440 is 24 hours.',
  },
];

type NumberKey =
  | 'slot_step_minutes'
  | 'buffer_before_minutes'
  | 'buffer_after_minutes'
  | 'minimum_notice_minutes'
  | 'window_days'
  | 'max_per_day'
  | 'cutoff_minutes';

/** The form keeps numbers as typed; they are sent as numbers. */
type Values = Omit<BookingSettings, NumberKey> & Record<NumberKey, string>;

function toValues(s: BookingSettings): Values {
  const v = { ...s } as unknown as Values;
  for (const { key } of NUMBERS) v[key] = String(s[key]);
  const weekly: BookingSettings['weekly_hours'] = {};
  for (const day of WEEKDAYS) weekly[day] = [...(s.weekly_hours[day] ?? [])];
  v.weekly_hours = weekly;
  v.overrides = s.overrides.map((o) => ({ date: o.date, hours: [...o.hours] }));
  return v;
}

function toSettings(v: Values): BookingSettings {
  const s = { ...v } as unknown as BookingSettings;
  for (const { key } of NUMBERS) {
    const n = Number(v[key].trim());
    // Not a number: sent as is (NaN becomes null), and the server names the field.
    s[key] = v[key].trim() === '' || Number.isNaN(n) ? (Number.NaN as number) : n;
  }
  return s;
}

/**
 * The owner's availability and who they are: zone, weekly hours (several ranges a day), date
 * overrides, step, buffers, notice, window, daily maximum, cut-off, name, address, room address.
 * The server checks every rule; a refused value is shown at its field.
 */
export function SettingsForm({ initial }: { initial: BookingSettings }) {
  const [values, setValues] = useState(() => toValues(initial));
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const zonesId = useId();
  const save = useUpdateBookingSettings({
    mutationConfig: {
      onSuccess: (body) => {
        setValues(toValues(body.settings));
        toast.success(
          'Booking settings saved',
          'New slots follow them at once; bookings already made keep their times.',
        );
      },
      onError: (err) => {
        if (err instanceof ApiError && err.field) {
          setError({ field: err.field, message: err.message });
          requestAnimationFrame(() =>
            formRef.current?.querySelector<HTMLElement>(`[data-field="${err.field}"]`)?.focus(),
          );
          return;
        }
        setError({ field: '', message: errorMessage(err) });
      },
    },
  });

  const errorFor = (field: string) => (error?.field === field ? error.message : undefined);
  const change = (next: Values) => {
    setValues(next);
    setError(null);
  };
  const setRanges = (day: Weekday, ranges: HourRange[]) =>
    change({ ...values, weekly_hours: { ...values.weekly_hours, [day]: ranges } });

  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => save.mutateAsync(toSettings(values)));

  // A field the form has no place for (an unexpected name): shown at the top.
  const shownAbove =
    error &&
    (error.field === '' || !formRef.current?.querySelector(`[data-field="${error.field}"]`));

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="flex flex-col gap-6">
      {shownAbove ? (
        <p role="alert" className="rounded-md border border-term-red/60 p-3 text-sm text-fg">
          {error.message}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Your time zone"
          hint="Hours below are read on this clock."
          error={errorFor('time_zone')}
          size="sm"
        >
          {(control) => (
            <>
              <input
                {...control}
                data-field="time_zone"
                list={zonesId}
                autoComplete="off"
                value={values.time_zone}
                onChange={(e) => change({ ...values, time_zone: e.target.value })}
                className={input}
              />
              <datalist id={zonesId}>
                {timeZones().map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
            </>
          )}
        </FormField>
      </div>

      <fieldset className="flex flex-col gap-3 rounded-md border border-ink-700 p-3 sm:p-4">
        <legend className="px-1 font-mono text-sm text-fg">Weekly hours</legend>
        {WEEKDAYS.map((day) => (
          <DayRanges
            key={day}
            label={day[0]?.toUpperCase() + day.slice(1)}
            field={`weekly_hours.${day}`}
            ranges={values.weekly_hours[day] ?? []}
            onChange={(r) => setRanges(day, r)}
            errorFor={errorFor}
            emptyText="Closed"
          />
        ))}
      </fieldset>

      <fieldset className="flex flex-col gap-3 rounded-md border border-ink-700 p-3 sm:p-4">
        <legend className="px-1 font-mono text-sm text-fg">Date overrides</legend>
        <p className="text-xs text-muted">
          Other hours on one date; a date without hours is a day off.
        </p>
        {values.overrides.map((o, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the index is the field's name
            key={i}
            className="flex flex-col gap-2 rounded-md border border-ink-700 p-3"
          >
            <div className="flex flex-wrap items-end gap-2">
              <FormField
                label={`Date ${i + 1}`}
                error={errorFor(`overrides[${i}].date`) ?? errorFor(`overrides[${i}]`)}
                size="sm"
              >
                {(control) => (
                  <input
                    {...control}
                    type="date"
                    data-field={`overrides[${i}].date`}
                    value={o.date}
                    onChange={(e) =>
                      change({
                        ...values,
                        overrides: values.overrides.map((x, j) =>
                          j === i ? { ...x, date: e.target.value } : x,
                        ),
                      })
                    }
                    className={cn(input, 'w-44')}
                  />
                )}
              </FormField>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove override ${i + 1}`}
                onClick={() =>
                  change({ ...values, overrides: values.overrides.filter((_, j) => j !== i) })
                }
              >
                <Trash2 size={14} aria-hidden="true" />
                Remove
              </Button>
            </div>
            <DayRanges
              label={`Hours on date ${i + 1}`}
              field={`overrides[${i}].hours`}
              ranges={o.hours}
              onChange={(hours) =>
                change({
                  ...values,
                  overrides: values.overrides.map((x, j) => (j === i ? { ...x, hours } : x)),
                })
              }
              errorFor={errorFor}
              emptyText="Day off"
            />
          </div>
        ))}
        <Button
          size="sm"
          variant="outline"
          className="self-start"
          onClick={() =>
            change({ ...values, overrides: [...values.overrides, { date: '', hours: [] }] })
          }
        >
          <Plus size={14} aria-hidden="true" />
          Add a date
        </Button>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {NUMBERS.map(({ key, label, hint }) => (
          <FormField key={key} label={label} hint={hint} error={errorFor(key)} size="sm">
            {(control) => (
              <input
                {...control}
                data-field={key}
                inputMode="numeric"
                value={values[key]}
                onChange={(e) => change({ ...values, [key]: e.target.value })}
                className={input}
              />
            )}
          </FormField>
        ))}
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          label="Your name (organizer of invitations)"
          error={errorFor('owner_name')}
          size="sm"
        >
          {(control) => (
            <input
              {...control}
              data-field="owner_name"
              autoComplete="name"
              value={values.owner_name}
              onChange={(e) => change({ ...values, owner_name: e.target.value })}
              className={input}
            />
          )}
        </FormField>
        <FormField
          label="Your e-mail (invitations and notices)"
          error={errorFor('owner_email')}
          size="sm"
        >
          {(control) => (
            <input
              {...control}
              data-field="owner_email"
              type="email"
              autoComplete="email"
              value={values.owner_email}
              onChange={(e) => change({ ...values, owner_email: e.target.value })}
              className={input}
            />
          )}
        </FormField>
        <div id="booking-room" className="sm:col-span-2">
          <FormField
            label="Room address"
            hint="Where each confirmed call is held: one fixed link (your Zoom or Meet room), or an address with {room}, which each booking fills with its own unguessable value (Jitsi Meet opens a room for any address). It goes in the invitation, the confirmation, the reminders and the booking's page from 15 minutes before the start; only the booker and you see it. Leave it empty to send the link yourself."
            error={errorFor('meeting_link')}
            size="sm"
          >
            {(control) => (
              <input
                {...control}
                data-field="meeting_link"
                type="text"
                inputMode="url"
                spellCheck={false}
                autoCapitalize="off"
                placeholder="https://meet.jit.si/ruv-{room}"
                value={values.meeting_link}
                onChange={(e) => change({ ...values, meeting_link: e.target.value })}
                className={input}
              />
            )}
          </FormField>
        </div>
        <div className="sm:col-span-2">
          <FormField
            label="No-show policy"
            hint="Shown on the booking pages, e.g. what happens to a paid call missed without notice. At most 1,000 characters; leave it empty to show nothing."
            error={errorFor('no_show_policy')}
            size="sm"
          >
            {(control) => (
              <textarea
                {...control}
                data-field="no_show_policy"
                rows={3}
                maxLength={1000}
                value={values.no_show_policy}
                onChange={(e) => change({ ...values, no_show_policy: e.target.value })}
                className={input}
              />
            )}
          </FormField>
        </div>
      </div>
      <Button type="submit" disabled={guard.pending} className="self-start">
        {guard.pending ? 'Saving…' : 'Save booking settings'}
      </Button>
    </form>
  );
}

/** One day's ranges ("09:00" to "12:00", "13:00" to "17:00"), added and removed in place. */
function DayRanges({
  label,
  field,
  ranges,
  onChange,
  errorFor,
  emptyText,
}: {
  label: string;
  /** `weekly_hours.monday` or `overrides[0].hours`: ranges are `${field}[i]`. */
  field: string;
  ranges: HourRange[];
  onChange: (ranges: HourRange[]) => void;
  errorFor: (field: string) => string | undefined;
  emptyText: string;
}) {
  const dayError = errorFor(field);
  const next = nextRange(ranges);
  return (
    <fieldset className="flex flex-col gap-2 sm:flex-row sm:items-start sm:gap-4">
      <legend className="float-left w-28 pt-2 font-mono text-sm text-fg sm:float-none">
        {label}
      </legend>
      <div className="flex flex-1 flex-col gap-2">
        {ranges.length === 0 ? <p className="pt-2 text-sm text-muted">{emptyText}</p> : null}
        {ranges.map((r, i) => {
          const path = `${field}[${i}]`;
          const err = errorFor(path) ?? errorFor(`${path}.start`) ?? errorFor(`${path}.end`);
          const errId = `${path}-error`;
          const set = (part: 'start' | 'end', value: string) =>
            onChange(ranges.map((x, j) => (j === i ? { ...x, [part]: value } : x)));
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a range is known by its place, as the server names it
            <div key={i} className="flex flex-col gap-1">
              <div
                // On a phone the two times take the whole row (the remove button goes below them):
                // beside it they were too narrow to show AM and PM ("09:00 to 05:00").
                className="grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-center gap-2 sm:flex sm:flex-wrap"
              >
                <input
                  type="time"
                  aria-label={`${label} range ${i + 1} start`}
                  data-field={path}
                  aria-invalid={err ? true : undefined}
                  aria-describedby={err ? errId : undefined}
                  value={r.start}
                  onChange={(e) => set('start', e.target.value)}
                  className={cn(timeInput, 'sm:w-32')}
                />
                <span className="text-sm text-muted">to</span>
                <input
                  type="time"
                  aria-label={`${label} range ${i + 1} end`}
                  aria-invalid={err ? true : undefined}
                  aria-describedby={err ? errId : undefined}
                  // The end of the day is 24:00 to the server and 00:00 to a time input.
                  value={r.end === '24:00' ? '00:00' : r.end}
                  onChange={(e) =>
                    set('end', e.target.value === '00:00' ? '24:00' : e.target.value)
                  }
                  className={cn(timeInput, 'sm:w-32')}
                />
                <Button
                  size="sm"
                  variant="ghost"
                  aria-label={`Remove ${label} range ${i + 1}`}
                  className="col-span-3 justify-self-end"
                  onClick={() => onChange(ranges.filter((_, j) => j !== i))}
                >
                  <Trash2 size={14} aria-hidden="true" />
                  <span className="sm:sr-only">Remove</span>
                </Button>
              </div>
              {err ? (
                <p id={errId} className="text-xs text-term-red">
                  {err}
                </p>
              ) : null}
            </div>
          );
        })}
        {dayError ? (
          <p className="text-xs text-term-red" data-field={field} tabIndex={-1}>
            {dayError}
          </p>
        ) : null}
        <Button
          size="sm"
          variant="ghost"
          className="self-start"
          aria-label={`Add hours to ${label}`}
          disabled={next === null}
          title={next === null ? 'This day is open until midnight' : undefined}
          onClick={() => (next ? onChange([...ranges, next]) : undefined)}
        >
          <Plus size={14} aria-hidden="true" />
          Add hours
        </Button>
      </div>
    </fieldset>
  );
}
