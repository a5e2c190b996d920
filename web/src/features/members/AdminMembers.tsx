/** The Admin tab's members list: who has (or had) a membership, and complimentary membership. */

import { Gift, UserCheck } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorMessage } from '@/lib/api';
import type { Member as AdminMember } from '@/lib/api-types/billing';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import { useAdminMembers } from './api/get-admin-members';
import { useRemoveComplimentary } from './api/remove-complimentary';
import { useSetComplimentary } from './api/set-complimentary';
import { formatLongDate } from './logic';
import { EmptyState, LoadError, LoadingBlock, MemberDialog, TextField } from './parts';
import { useErrorToast } from './SessionsPanel';

/** "March 3, 2027" from "2027-03-03", read as a calendar day (no time zone shift). */
function formatDay(day: string): string {
  return formatLongDate(`${day}T12:00:00Z`, 'UTC');
}

/** The status column: what the member's access is now. */
export function memberStatusText(m: AdminMember): string {
  if (m.complimentary && m.has_access) {
    return m.until ? `Complimentary through ${formatDay(m.until)}` : 'Complimentary, no end';
  }
  if (m.status === 'active' && m.cancel_at_period_end) return 'Cancels Soon';
  if (m.status === 'active') return 'Active Subscriber';
  if (m.status === 'free') return 'Free Member';
  return m.status;
}

export function AdminMembers() {
  const query = useAdminMembers();
  useErrorToast(query.error, 'Error loading members');
  const [granting, setGranting] = useState<AdminMember | null>(null);
  const members = query.data ?? [];
  const withAccess = members.filter((m) => m.has_access).length;

  return (
    <section aria-labelledby="members-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2
            id="members-heading"
            className="flex items-center gap-2 text-lg font-semibold text-fg"
          >
            <UserCheck size={18} aria-hidden="true" className="text-term-green" />
            Member list
          </h2>
          <p className="text-sm text-muted">
            Every account, with its membership. Make anyone complimentary: access without payment,
            counted toward the member cap.
            {query.data ? ` ${withAccess} with access now.` : ''}
          </p>
        </div>
      </div>
      {query.isPending ? (
        <LoadingBlock label="Loading members…" rows={2} />
      ) : query.isError ? (
        <LoadError message={errorMessage(query.error)} onRetry={() => void query.refetch()} />
      ) : members.length === 0 ? (
        <EmptyState title="No accounts yet">Members appear here when they sign up.</EmptyState>
      ) : (
        <ul className="flex flex-col gap-3">
          {members.map((m) => (
            <li key={m.user_id}>
              <MemberRow member={m} onGrant={() => setGranting(m)} />
            </li>
          ))}
        </ul>
      )}
      <CompDialog member={granting} onClose={() => setGranting(null)} />
    </section>
  );
}

function MemberRow({ member, onGrant }: { member: AdminMember; onGrant: () => void }) {
  const remove = useRemoveComplimentary({
    mutationConfig: {
      onSuccess: () => toast.success('Complimentary membership ended', member.email),
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });
  const comp = member.complimentary && member.has_access;
  const paying = !member.complimentary && member.has_access;
  return (
    <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-fg">
          <span className="break-words">{member.full_name || member.email}</span>
          {member.has_access ? <Badge tone="green">access</Badge> : <Badge>no access</Badge>}
        </p>
        <p className="break-all text-sm text-muted">{member.email}</p>
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs">
          <div className="flex gap-1">
            <dt className="text-dim">Status:</dt>
            <dd className="text-fg">{memberStatusText(member)}</dd>
          </div>
          <div className="flex gap-1">
            <dt className="text-dim">Joined:</dt>
            <dd className="text-fg">{formatLongDate(member.joined_at)}</dd>
          </div>
        </dl>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        {comp ? (
          <>
            <Button variant="outline" size="sm" onClick={onGrant}>
              Change end
            </Button>
            <Button
              variant="ghost"
              size="sm"
              disabled={remove.isPending}
              onClick={() => remove.mutate(member.user_id)}
              aria-label={`End complimentary: ${member.email}`}
            >
              {remove.isPending ? 'Ending…' : 'End complimentary'}
            </Button>
          </>
        ) : paying ? (
          <span className="text-xs text-dim">Pays through Stripe</span>
        ) : (
          <Button
            variant="outline"
            size="sm"
            onClick={onGrant}
            aria-label={`Make complimentary: ${member.email}`}
          >
            <Gift size={14} aria-hidden="true" />
            Make complimentary
          </Button>
        )}
      </div>
    </Card>
  );
}

/** Gives (or changes) complimentary membership, with an optional last day. */
function CompDialog({ member, onClose }: { member: AdminMember | null; onClose: () => void }) {
  const [until, setUntil] = useState('');
  const [error, setError] = useState<string | undefined>();
  const set = useSetComplimentary({
    mutationConfig: {
      onSuccess: (saved) => {
        toast.success('Complimentary membership saved', memberStatusText(saved));
        onClose();
      },
      onError: (err) => setError(errorMessage(err)),
    },
  });
  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    if (!member) return;
    setError(undefined);
    return set.mutateAsync({ userId: member.user_id, until: until === '' ? null : until });
  });
  return (
    <MemberDialog
      open={member !== null}
      onOpenChange={(open) => {
        if (!open) {
          setUntil('');
          setError(undefined);
          onClose();
        }
      }}
      windowTitle="~ $ tribe admin comp"
      title="Complimentary membership"
      description={
        member
          ? `${member.full_name || member.email} gets tribe access without paying. It counts toward the member cap.`
          : undefined
      }
    >
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="Last day (optional)"
          type="date"
          value={until}
          onChange={setUntil}
          error={error}
          hint="Leave empty for no end. Access lasts through the end of that day (UTC)."
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={guard.pending}>
            {guard.pending ? 'Saving…' : 'Save'}
          </Button>
        </div>
      </form>
    </MemberDialog>
  );
}
