import {
  CalendarPlus,
  Check,
  Clock,
  Globe,
  KeyRound,
  Lock,
  PlayCircle,
  Users,
  Video,
  X,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api';
import type { SessionView as LiveSession } from '@/lib/api-types/community';
import { cn } from '@/lib/cn';
import { Link } from '@/lib/router';
import { toast } from '@/lib/toast';
import { useLiveSessions } from './api/get-live-sessions';
import { useSetRSVP } from './api/set-rsvp';
import { sessionCalendarUrl, sessionJoinUrl } from './api/urls';
import { goingText, rsvpOpen, sessionWhen, splitSessions } from './logic';
import { EmptyState, LoadError, LoadingBlock } from './parts';
import { SubscribeButton } from './SubscriptionActions';

/** Shows a toast once per failure of a query, with the server's own message. */
export function useErrorToast(error: unknown, title: string): void {
  useEffect(() => {
    if (error) toast.error(title, errorMessage(error));
  }, [error, title]);
}

const stateTone: Record<string, 'green' | 'cyan' | 'amber' | 'neutral'> = {
  live: 'green',
  scheduled: 'cyan',
  cancelled: 'amber',
  completed: 'neutral',
  ended: 'neutral',
};

/**
 * "Going" / "Can't make it" for a session: two toggle buttons that say which is chosen
 * (`aria-pressed`), in a group named after the session.
 */
function RSVPControl({ session }: { session: LiveSession }) {
  const rsvp = useSetRSVP({
    mutationConfig: { onError: (error) => toast.error('Error', errorMessage(error)) },
  });
  const chosen = rsvp.isPending ? rsvp.variables.going : session.my_rsvp;
  const options = [
    { going: true, label: 'Going', Icon: Check },
    { going: false, label: "Can't make it", Icon: X },
  ] as const;
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">Will you be at {session.title}?</legend>
      {options.map(({ going, label, Icon }) => {
        const pressed = chosen === going;
        return (
          <button
            key={label}
            type="button"
            aria-pressed={pressed}
            disabled={rsvp.isPending}
            onClick={() => {
              if (!pressed) rsvp.mutate({ sessionId: session.id, going });
            }}
            className={cn(
              buttonClasses('outline', 'sm'),
              pressed &&
                (going
                  ? 'border-term-green bg-term-green/15 text-term-green'
                  : 'border-term-amber bg-term-amber/10 text-term-amber'),
            )}
          >
            <Icon size={14} aria-hidden="true" />
            {label}
          </button>
        );
      })}
    </fieldset>
  );
}

/** One session as members see it. `admin` adds nothing here; the Admin tab wraps it. */
export function SessionCard({
  session,
  children,
}: {
  session: LiveSession;
  children?: React.ReactNode;
}) {
  const when = sessionWhen(session);
  const cancelled = session.status === 'cancelled';
  const joinUrl = session.zoom_join_url || session.meeting_link || '';
  const canRSVP = !session.locked && session.upcoming && rsvpOpen(session);
  return (
    <Card className={cn('flex flex-col gap-3 p-4 sm:p-5', cancelled && 'opacity-80')}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className={cn('text-lg font-semibold text-fg', cancelled && 'line-through')}>
          {session.title}
        </h3>
        {/* The state, not the stored status: a session that is over never reads "scheduled". */}
        <Badge tone={stateTone[session.state] ?? 'neutral'}>{session.state}</Badge>
      </div>
      {session.description ? (
        <p className="text-sm whitespace-pre-line text-muted">{session.description}</p>
      ) : null}
      {session.tags.length > 0 ? (
        <ul className="flex flex-wrap gap-1.5" aria-label="Tags">
          {session.tags.map((tag) => (
            <li key={tag}>
              <Badge>{tag}</Badge>
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div className="flex gap-2">
          <dt className="sr-only">Date</dt>
          <dd className="text-fg">{when.date}</dd>
        </div>
        <div className="flex items-center gap-2">
          <dt className="sr-only">Time</dt>
          <dd className="flex items-center gap-1.5 text-fg">
            <Clock size={14} aria-hidden="true" className="text-dim" />
            {when.time} {when.zoneShort} · {session.duration}
          </dd>
        </div>
        <div className="flex items-center gap-2">
          <dt className="sr-only">Time zone</dt>
          <dd className="flex items-center gap-1.5 text-muted">
            <Globe size={14} aria-hidden="true" className="text-dim" />
            {session.timezone}
          </dd>
        </div>
        {when.viewer ? (
          <div className="flex gap-2">
            <dt className="text-muted">Your time:</dt>
            <dd className="text-fg">{when.viewer}</dd>
          </div>
        ) : null}
        {!cancelled ? (
          <div className="flex items-center gap-2">
            <dt className="sr-only">Going</dt>
            <dd className="flex items-center gap-1.5 text-muted">
              <Users size={14} aria-hidden="true" className="text-dim" />
              {session.upcoming
                ? goingText(session.going_count)
                : `${session.going_count} said they would go`}
            </dd>
          </div>
        ) : null}
      </dl>

      {session.upcoming && !cancelled ? (
        session.locked ? (
          <div className="flex flex-col gap-2 rounded-md border border-ink-700 bg-ink-900 p-3 sm:flex-row sm:items-center sm:justify-between">
            <p className="flex items-center gap-2 text-sm text-muted">
              <Lock size={14} aria-hidden="true" />
              Meeting details are for subscribers.
            </p>
            <SubscribeButton size="sm" />
          </div>
        ) : (
          <div className="flex flex-col gap-3 rounded-md border border-term-green/30 bg-term-green/5 p-3 sm:flex-row sm:items-center sm:justify-between">
            {session.zoom_meeting_id || session.zoom_password ? (
              <dl className="grid gap-1 text-sm">
                {session.zoom_meeting_id ? (
                  <div className="flex gap-2">
                    <dt className="text-muted">Meeting ID:</dt>
                    <dd className="font-mono text-fg">{session.zoom_meeting_id}</dd>
                  </div>
                ) : null}
                {session.zoom_password ? (
                  <div className="flex items-center gap-2">
                    <dt className="flex items-center gap-1 text-muted">
                      <KeyRound size={12} aria-hidden="true" />
                      Password:
                    </dt>
                    <dd className="font-mono text-fg">{session.zoom_password}</dd>
                  </div>
                ) : null}
              </dl>
            ) : !joinUrl ? (
              // A paragraph, not a list item: a list may only hold terms and their details.
              <p className="text-sm text-muted">
                The meeting link will appear here before the session.
              </p>
            ) : null}
            <div className="flex flex-wrap items-center gap-2">
              {canRSVP ? <RSVPControl session={session} /> : null}
              {joinUrl ? (
                // Through the site, which counts the member present from 15 minutes before the start.
                <a
                  href={sessionJoinUrl(session.id)}
                  target="_blank"
                  rel="noopener noreferrer"
                  className={buttonClasses('primary', 'sm')}
                >
                  <Video size={16} aria-hidden="true" />
                  Join Session
                </a>
              ) : null}
            </div>
          </div>
        )
      ) : null}

      <div className="flex flex-wrap items-center gap-2">
        {session.replay_id && !session.upcoming ? (
          <Link
            to={`/members/library/${encodeURIComponent(session.replay_id)}`}
            className={buttonClasses('primary', 'sm')}
            aria-label={`Watch the replay of ${session.title}`}
          >
            <PlayCircle size={16} aria-hidden="true" />
            Watch the replay
          </Link>
        ) : null}
        {!cancelled ? (
          <a
            href={sessionCalendarUrl(session.id)}
            download
            className={buttonClasses('ghost', 'sm', 'px-2')}
          >
            <CalendarPlus size={16} aria-hidden="true" />
            Add to calendar
          </a>
        ) : null}
        {children}
      </div>
    </Card>
  );
}

/** The Dashboard's session list with the Upcoming / Archive toggle. */
export function SessionsPanel() {
  const query = useLiveSessions();
  useErrorToast(query.error, 'Error loading sessions');
  const [view, setView] = useState<'upcoming' | 'archive'>('upcoming');
  const split = query.data ? splitSessions(query.data.sessions) : null;
  const list = split ? split[view] : [];

  return (
    <section aria-labelledby="sessions-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="sessions-heading" className="text-xl font-semibold text-fg">
          Live sessions
        </h2>
        <fieldset className="flex gap-1 rounded-md border border-ink-700 p-1">
          <legend className="sr-only">Which sessions</legend>
          {(['upcoming', 'archive'] as const).map((key) => (
            <button
              key={key}
              type="button"
              aria-pressed={view === key}
              onClick={() => setView(key)}
              className={cn(
                'min-h-9 rounded px-3 font-mono text-sm text-muted transition-colors hover:text-fg',
                'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-term-cyan',
                view === key && 'bg-ink-800 text-term-green',
              )}
            >
              {key === 'upcoming' ? 'Upcoming' : 'Archive'} ({split ? split[key].length : '…'})
            </button>
          ))}
        </fieldset>
      </div>

      {query.isPending ? (
        <LoadingBlock label="Loading sessions…" rows={2} />
      ) : query.isError ? (
        <LoadError
          message="The sessions could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : list.length === 0 ? (
        <EmptyState
          title={view === 'upcoming' ? 'No upcoming sessions yet' : 'No past sessions yet'}
        >
          {view === 'upcoming'
            ? 'New live sessions are announced here; they run every other week for two hours.'
            : 'Sessions that have ended are listed here.'}
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-4">
          {list.map((session) => (
            <li key={session.id}>
              <SessionCard session={session} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
