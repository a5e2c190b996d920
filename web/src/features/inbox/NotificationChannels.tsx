import { Smartphone } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api';
import type { Channels } from '@/lib/api-types/inbox';
import { toast } from '@/lib/toast';
import { usePreferences, useSaveChannels } from './api';
import { currentSubscription, pushPermission, turnOffPush, turnOnPush } from './push-device';

/** The kinds a member chooses a channel for, in the order they are shown. */
export const KINDS: ReadonlyArray<{ kind: string; label: string; mail: boolean }> = [
  { kind: 'mention', label: 'Mentions of me', mail: true },
  { kind: 'reply', label: 'Replies to my threads and threads I replied in', mail: true },
  { kind: 'accepted', label: 'My answer accepted', mail: true },
  { kind: 'reaction', label: 'Reactions to my posts', mail: true },
  { kind: 'announcement', label: 'Announcements', mail: true },
  { kind: 'level', label: 'Level reached', mail: false },
  { kind: 'reminder', label: 'Session reminders', mail: false },
  { kind: 'replay', label: 'Replay published', mail: true },
];

const CHANNEL_LABELS: Record<string, string> = {
  app: 'In the app only',
  push: 'In the app and on my devices',
  mail: 'In the app and by e-mail',
};

const selectClass =
  'h-11 w-full rounded-md border border-ink-600 bg-ink-900 px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-term-cyan';

/** Profile: where each kind of notification reaches the member, and push on this device. */
export function NotificationChannels() {
  const prefs = usePreferences();
  const save = useSaveChannels();

  const change = (kind: string, channel: string, label: string) =>
    save.mutate({ [kind]: channel } satisfies Channels, {
      onSuccess: () =>
        toast.success(`${label}: ${CHANNEL_LABELS[channel]?.toLowerCase() ?? channel}`),
      onError: (error) => toast.error('Not saved', errorMessage(error)),
    });

  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby="channels-heading">
        <h2 id="channels-heading" className="text-xl font-semibold text-fg">
          Notifications in the app
        </h2>
        <p className="mt-1 text-sm text-muted">
          Everything shows under the bell. Choose what also reaches your devices or your inbox.
        </p>
        <PushOnThisDevice />
        {prefs.isPending ? (
          <p role="status" className="mt-5 text-sm text-muted">
            Loading your choices…
          </p>
        ) : prefs.isError ? (
          <div role="alert" className="mt-5 text-sm text-term-amber">
            <p>Your choices could not be loaded.</p>
            <Button
              variant="outline"
              size="sm"
              className="mt-2"
              onClick={() => void prefs.refetch()}
            >
              Try again
            </Button>
          </div>
        ) : (
          <div className="mt-5 grid gap-4 sm:grid-cols-2" aria-busy={save.isPending}>
            {KINDS.map(({ kind, label, mail }) => (
              <div key={kind}>
                <label htmlFor={`channel-${kind}`} className="font-mono text-xs text-dim">
                  {label}
                </label>
                <select
                  id={`channel-${kind}`}
                  className={`${selectClass} mt-1`}
                  value={prefs.data.channels[kind] ?? 'app'}
                  onChange={(e) => change(kind, e.target.value, label)}
                >
                  <option value="app">{CHANNEL_LABELS.app}</option>
                  <option value="push">{CHANNEL_LABELS.push}</option>
                  {mail ? <option value="mail">{CHANNEL_LABELS.mail}</option> : null}
                </select>
              </div>
            ))}
          </div>
        )}
        <p className="mt-4 text-xs text-dim">
          Level and session reminder mail are the e-mail settings above. Devices get a notification
          only while you have no tab of the members area open.
        </p>
      </section>
    </Card>
  );
}

const wrappingButton =
  'inline-flex min-h-11 max-w-full items-center justify-center rounded-md bg-term-green px-4 py-2 text-left font-mono text-sm font-medium text-ink-950 transition-colors hover:bg-term-green-strong disabled:pointer-events-none disabled:opacity-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-term-cyan';

type DeviceState = 'checking' | 'unsupported' | 'blocked' | 'off' | 'on';

/** "Turn on notifications on this device": the browser's prompt only after the press. */
function PushOnThisDevice() {
  const [state, setState] = useState<DeviceState>('checking');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    const permission = pushPermission();
    if (permission === 'unsupported') {
      setState('unsupported');
      return;
    }
    if (permission === 'denied') {
      setState('blocked');
      return;
    }
    currentSubscription()
      .then((sub) => {
        if (live) setState(sub && permission === 'granted' ? 'on' : 'off');
      })
      .catch(() => {
        if (live) setState('off');
      });
    return () => {
      live = false;
    };
  }, []);

  const turnOn = async () => {
    setBusy(true);
    try {
      const result = await turnOnPush();
      setState(result === 'on' ? 'on' : 'blocked');
      if (result === 'on') toast.success('Notifications are on for this device');
    } catch (error) {
      toast.error('Could not turn notifications on', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const turnOff = async () => {
    setBusy(true);
    try {
      await turnOffPush();
      setState('off');
      toast.success('Notifications are off for this device');
    } catch (error) {
      toast.error('Could not turn notifications off', errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="mt-5 flex flex-wrap items-center gap-3 rounded-md border border-ink-700 p-3">
      <Smartphone size={18} aria-hidden="true" className="text-term-cyan" />
      <p className="min-w-0 flex-1 text-sm text-muted" aria-live="polite">
        {state === 'checking'
          ? 'Checking this device…'
          : state === 'unsupported'
            ? 'This browser cannot show notifications from the site. On iPhone, add the site to your Home Screen first.'
            : state === 'blocked'
              ? 'Notifications are blocked for this site in your browser settings.'
              : state === 'on'
                ? 'Notifications are on for this device.'
                : 'Get notifications on this device even when the site is closed.'}
      </p>
      {state === 'off' ? (
        // Its label is long for a phone: this button may wrap, which the shared one never does.
        <button
          type="button"
          className={wrappingButton}
          disabled={busy}
          onClick={() => void turnOn()}
        >
          {busy ? 'Turning on…' : 'Turn on notifications on this device'}
        </button>
      ) : state === 'on' ? (
        <Button variant="outline" size="sm" disabled={busy} onClick={() => void turnOff()}>
          {busy ? 'Turning off…' : 'Turn off on this device'}
        </Button>
      ) : null}
    </div>
  );
}
