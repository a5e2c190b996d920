import { BellRing } from 'lucide-react';
import { type ChangeEvent, useId } from 'react';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api';
import type { Settings, SettingsInput } from '@/lib/api-types/notify';
import { detectTimeZone, timeZones } from '@/lib/time-zone';
import { toast } from '@/lib/toast';
import { useNotifications } from './api/get-notifications';
import { useUpdateNotifications } from './api/update-notifications';
import { LoadError, LoadingBlock } from './parts';

type Choice = 'session_reminders' | 'weekly_digest' | 'cohort_projects' | 'level_reached';

const CHOICES: ReadonlyArray<{ key: Choice; label: string; hint: string }> = [
  {
    key: 'session_reminders',
    label: 'Session reminders',
    hint: '24 hours and 1 hour before each live session you have not declined, with the calendar file and the join link.',
  },
  {
    key: 'weekly_digest',
    label: 'Weekly digest',
    hint: 'Only when you have been away for a week: the sessions coming up and what is new in the tribe.',
  },
  {
    key: 'cohort_projects',
    label: 'New projects in my cohort',
    hint: 'When someone in your cohort shares a project.',
  },
  {
    key: 'level_reached',
    label: 'Level reached',
    hint: 'A short congratulation when you reach a new Tribe Level.',
  },
];

const selectClass =
  'h-11 w-full rounded-md border border-ink-600 bg-ink-900 px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-term-cyan';

/**
 * Profile: which mail the member gets, and the time zone their reminders state times in. Each
 * change is saved at once. Until a zone is chosen the browser's is saved (useAdoptTimeZone, on
 * the first visit of the members area), so the first reminder reads in the member's own time.
 */
export function NotificationSettings() {
  const query = useNotifications();
  const save = useUpdateNotifications({
    mutationConfig: { onError: (error) => toast.error('Not saved', errorMessage(error)) },
  });
  const zoneId = useId();

  if (query.isPending) return <LoadingBlock label="Loading your notification settings…" rows={2} />;
  if (query.isError) {
    return (
      <LoadError
        message="Your notification settings could not be loaded."
        onRetry={() => void query.refetch()}
      />
    );
  }
  const settings: Settings = query.data;
  const zone = settings.time_zone || detectTimeZone();
  const zones = timeZones().includes(zone) ? timeZones() : [zone, ...timeZones()];

  const change = (input: SettingsInput, done: string) =>
    save.mutate(input, { onSuccess: () => toast.success(done) });

  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby="notifications-heading">
        <div className="flex items-center gap-2">
          <BellRing size={18} aria-hidden="true" className="text-term-green" />
          <h2 id="notifications-heading" className="text-xl font-semibold text-fg">
            E-mail notifications
          </h2>
        </div>
        <p className="mt-1 text-sm text-muted">
          Every one of these mails has a one-click unsubscribe link as well.
        </p>
        <fieldset className="mt-5 flex flex-col gap-4" aria-busy={save.isPending}>
          <legend className="sr-only">Mail you get</legend>
          {CHOICES.map((c) => (
            <div key={c.key} className="flex items-start gap-3">
              <input
                id={`notify-${c.key}`}
                type="checkbox"
                className="mt-1 size-5 shrink-0 accent-term-green"
                checked={settings[c.key]}
                aria-describedby={`notify-${c.key}-hint`}
                onChange={(e: ChangeEvent<HTMLInputElement>) =>
                  change(
                    { [c.key]: e.target.checked },
                    `${c.label} ${e.target.checked ? 'on' : 'off'}`,
                  )
                }
              />
              <div className="min-w-0">
                <label htmlFor={`notify-${c.key}`} className="font-medium text-fg">
                  {c.label}
                </label>
                <p id={`notify-${c.key}-hint`} className="text-sm text-muted">
                  {c.hint}
                </p>
              </div>
            </div>
          ))}
        </fieldset>
        <div className="mt-6 max-w-md">
          <label htmlFor={zoneId} className="font-mono text-xs text-dim">
            Time zone for times in mail
          </label>
          <select
            id={zoneId}
            className={`${selectClass} mt-1`}
            value={zone}
            aria-describedby={`${zoneId}-hint`}
            onChange={(e) => change({ time_zone: e.target.value }, 'Time zone saved')}
          >
            {zones.map((z) => (
              <option key={z} value={z}>
                {z.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
          <p id={`${zoneId}-hint`} className="mt-1 text-xs text-dim">
            Your browser says {detectTimeZone().replaceAll('_', ' ')}.
          </p>
        </div>
      </section>
    </Card>
  );
}
