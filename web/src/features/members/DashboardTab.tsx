import type { UseQueryResult } from '@tanstack/react-query';
import { Award, CalendarCheck, ChevronRight, CreditCard, ShieldCheck, Users } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import type { MembersOverview } from '@/lib/api-types/web';
import { cn } from '@/lib/cn';
import { Link } from '@/lib/router';
import { toast } from '@/lib/toast';
import { useProgress } from './api/get-progress';
import { useMarkLevelSeen } from './api/mark-level-seen';
import { CalendarFeedPanel } from './CalendarFeedPanel';
import { LevelDialog } from './LevelDialog';
import { memberBadge, type StatusBadge, spotsText } from './logic';
import { Skeleton } from './parts';
import { SessionsPanel } from './SessionsPanel';
import { ManageButton, SubscribeButton } from './SubscriptionActions';

const statusColor: Record<StatusBadge['tone'], string> = {
  green: 'text-term-green',
  amber: 'text-term-amber',
  cyan: 'text-term-cyan',
  neutral: 'text-fg',
};

function StatCard({
  label,
  icon,
  children,
  className,
}: {
  label: string;
  icon: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <Card className={cn('flex flex-col gap-2 p-4', className)}>
      <p className="flex items-center gap-2 font-mono text-xs text-dim">
        {icon}
        {label}
      </p>
      {children}
    </Card>
  );
}

export interface DashboardTabProps {
  overview: UseQueryResult<MembersOverview>;
  isSubscriber: boolean;
  /** Admins have a subscriber's access without one (the server's rule). */
  isAdmin: boolean;
  /** Re-syncs the subscription with Stripe and reads it again. */
  onRefresh: () => Promise<unknown>;
}

function subscriptionText(
  data: MembersOverview | undefined,
  isSubscriber: boolean,
  isAdmin: boolean,
): string {
  if (isAdmin && !isSubscriber) {
    return 'You are an admin: live sessions with their meeting details, the group chat, the Admin tab and the agent test page are open to you without a subscription.';
  }
  if (data?.subscription?.complimentary && isSubscriber) {
    return 'You are a complimentary member: live sessions, the group chat and everything else are yours, with nothing to pay.';
  }
  if (isSubscriber) {
    return 'Your tribe membership is active: live sessions, the group chat and everything else are yours. Manage opens the billing portal (card, invoices, cancel) in a new tab.';
  }
  if (data && !data.tribe.payments_enabled) {
    return 'You are a free member. Online payment is not set up yet: join the wait list and we will tell you when you can subscribe.';
  }
  if (data?.tribe.at_capacity) {
    return 'You are a free member. The tribe is full right now: join the wait list and you will hear first when a spot opens.';
  }
  return 'You are a free member. Subscribe for $250 a month to join the live sessions and the group chat.';
}

/**
 * Congratulates the member once for a level they reached since their last visit: the server says
 * which (`reached`) until it is told the member has seen it. Mail for it comes with the
 * notification settings.
 */
function useLevelCongratulation(reached: string | undefined): void {
  const seen = useMarkLevelSeen();
  const { mutate } = seen;
  useEffect(() => {
    if (!reached) return;
    toast.success(`You reached ${reached}!`, 'Open your Tribe Level to see what comes next.');
    mutate(reached);
  }, [reached, mutate]);
}

export function DashboardTab({ overview, isSubscriber, isAdmin, onRefresh }: DashboardTabProps) {
  const [levelsOpen, setLevelsOpen] = useState(false);
  const progress = useProgress();
  useLevelCongratulation(progress.data?.reached);
  const data = overview.data;
  const badge = data ? memberBadge(data) : null;
  const complimentary = data?.subscription?.complimentary === true;

  return (
    <div className="flex flex-col gap-8">
      <section aria-label="Your membership" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Status" icon={<ShieldCheck size={14} aria-hidden="true" />}>
          {badge ? (
            <>
              <p className={cn('text-2xl font-bold', statusColor[badge.tone])}>{badge.label}</p>
              {badge.detail ? <p className="text-xs text-muted">{badge.detail}</p> : null}
            </>
          ) : (
            <Skeleton className="h-7 w-32" />
          )}
        </StatCard>

        <StatCard label="Tribe Members" icon={<Users size={14} aria-hidden="true" />}>
          {data ? (
            <>
              <p className="text-2xl font-bold text-fg">
                {data.tribe.active_members} / {data.tribe.capacity}
              </p>
              <p className="text-xs text-muted">{spotsText(data.tribe)}</p>
            </>
          ) : (
            <Skeleton className="h-8 w-24" />
          )}
        </StatCard>

        <StatCard
          label="Tribe Level"
          icon={<Award size={14} aria-hidden="true" />}
          className="transition-colors hover:border-term-cyan/60"
        >
          <button
            type="button"
            onClick={() => setLevelsOpen(true)}
            aria-haspopup="dialog"
            className="flex items-center justify-between gap-2 rounded-md text-left text-2xl font-bold text-term-cyan focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-term-cyan"
          >
            {progress.data ? (
              progress.data.level
            ) : (
              <span
                aria-hidden="true"
                className="inline-block h-8 w-32 rounded-md bg-ink-800 motion-safe:animate-pulse"
              />
            )}
            <ChevronRight size={20} aria-hidden="true" />
          </button>
          <p className="text-xs text-muted">
            {progress.data?.next
              ? `Next: ${progress.data.next.level}`
              : progress.data
                ? 'The highest level'
                : 'See how to level up'}
          </p>
        </StatCard>

        <StatCard label="Sessions Attended" icon={<CalendarCheck size={14} aria-hidden="true" />}>
          {progress.data ? (
            <p className="text-2xl font-bold text-fg">{progress.data.attended}</p>
          ) : (
            <Skeleton className="h-8 w-12" />
          )}
          <p className="text-xs text-muted">Counted when you join through the site</p>
        </StatCard>
      </section>

      <Card className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 className="flex items-center gap-2 text-lg font-semibold text-fg">
            <CreditCard size={18} aria-hidden="true" className="text-term-green" />
            Subscription
          </h2>
          <p className="mt-1 text-sm text-muted">{subscriptionText(data, isSubscriber, isAdmin)}</p>
        </div>
        {isAdmin && !isSubscriber ? (
          <Link to="/agent-test" className={buttonClasses('outline')}>
            Agent test page
          </Link>
        ) : isSubscriber ? (
          complimentary ? null : (
            <ManageButton onRefresh={onRefresh} />
          )
        ) : data && (!data.tribe.payments_enabled || data.tribe.at_capacity) ? (
          <Link to="/tribe" className={buttonClasses('primary')}>
            Join the wait list
          </Link>
        ) : (
          <SubscribeButton label="Upgrade" />
        )}
      </Card>

      <SessionsPanel />
      <CalendarFeedPanel />

      <LevelDialog
        open={levelsOpen}
        onOpenChange={setLevelsOpen}
        progress={progress.data}
        canSuggest={isSubscriber || data?.is_admin === true}
      />
    </div>
  );
}
