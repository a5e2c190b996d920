import { Mail } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import type { AtRiskMember } from '@/lib/api-types/notify';
import { plural } from '@/lib/plural';
import { useAtRisk } from './api/get-at-risk';
import { reasonLabel, writeToThem } from './at-risk';
import { formatLongDate } from './logic';
import { EmptyState, LoadError, LoadingBlock } from './parts';
import { useErrorToast } from './SessionsPanel';

/**
 * The Admin tab's at-risk list: members who missed their last sessions, have not been seen for a
 * while, or whose payment failed, longest away first, each with a prepared mail to write to them.
 */
export function AdminAtRisk() {
  const query = useAtRisk();
  useErrorToast(query.error, 'Error loading the at-risk list');

  return (
    <section aria-labelledby="at-risk-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="at-risk-heading" className="text-xl font-semibold text-fg">
          At risk
        </h2>
        <p className="mt-1 text-sm text-muted">
          Members who may be drifting away. A short personal note now does more than a survey after
          they cancel.
        </p>
      </div>
      {query.isPending ? (
        <LoadingBlock label="Loading members at risk…" rows={2} />
      ) : query.isError ? (
        <LoadError
          message="The at-risk list could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.members.length === 0 ? (
        <EmptyState title="Nobody at risk">
          Every member came to a recent session, was here in the last{' '}
          {plural(query.data.not_seen_days, 'day', 'days')} and is paid up.
        </EmptyState>
      ) : (
        <>
          <p className="text-sm text-muted" role="status">
            {plural(query.data.members.length, 'member', 'members')} at risk
          </p>
          <ul className="flex flex-col gap-2">
            {query.data.members.map((m) => (
              <AtRiskItem
                key={m.user_id}
                member={m}
                notSeenDays={query.data.not_seen_days}
                missed={query.data.missed_sessions}
              />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function AtRiskItem({
  member: m,
  notSeenDays,
  missed,
}: {
  member: AtRiskMember;
  notSeenDays: number;
  missed: number;
}) {
  const name = m.full_name || m.email;
  return (
    <li className="flex flex-col gap-3 rounded-md border border-ink-700 bg-ink-900 p-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm text-fg">
          <strong className="break-words">{name}</strong>
          {m.reasons.map((r) => (
            <Badge key={r} tone={r === 'payment_failed' ? 'amber' : 'cyan'}>
              {reasonLabel(r, notSeenDays, missed)}
            </Badge>
          ))}
        </p>
        <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
          <dt className="text-dim">Last activity</dt>
          <dd className="text-muted">
            {m.last_activity_at ? formatLongDate(m.last_activity_at) : 'None recorded'}
          </dd>
          <dt className="text-dim">Level</dt>
          <dd className="text-muted">{m.level}</dd>
          <dt className="text-dim">Cohort</dt>
          <dd className="break-words text-muted">{m.cohort ?? 'None'}</dd>
          <dt className="text-dim">E-mail</dt>
          <dd className="break-all text-muted">{m.email}</dd>
        </dl>
      </div>
      <a
        href={writeToThem(m)}
        className={buttonClasses('outline', 'sm', 'shrink-0 self-start')}
        // The visible words start the accessible name, which adds whom.
        aria-label={`Write to them: ${name}`}
      >
        <Mail size={14} aria-hidden="true" />
        Write to them
      </a>
    </li>
  );
}
