import { ExternalLink, Pencil, Plus, Trash2, UserMinus } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/edit-confirm-dialog';
import { SocialIcon } from '@/components/ui/social-icon';
import { errorMessage } from '@/lib/api';
import type { Cohort, CohortInput } from '@/lib/api-types/community';
import { plural } from '@/lib/plural';
import { toast } from '@/lib/toast';
import { useCreateCohort } from './api/create-cohort';
import { useDeleteCohort } from './api/delete-cohort';
import { useCohorts } from './api/get-cohorts';
import { useJoinCohort } from './api/join-cohort';
import { useLeaveCohort } from './api/leave-cohort';
import { useUpdateCohort } from './api/update-cohort';
import { CohortFormDialog, CohortIconView } from './CohortForm';
import { Avatar, EmptyState, LoadError, LoadingBlock } from './parts';
import { useErrorToast } from './SessionsPanel';

/** My Cohort: the member's own cohort card, or the list of cohorts to join or create. */
export function CohortTab() {
  const query = useCohorts();
  useErrorToast(query.error, 'Error loading cohorts');
  const [createOpen, setCreateOpen] = useState(false);

  const createCohort = useCreateCohort({
    mutationConfig: {
      onSuccess: () => {
        toast.success('Cohort created!');
        setCreateOpen(false);
      },
    },
  });
  const create = async (input: CohortInput) => {
    await createCohort.mutateAsync(input);
  };

  if (query.isPending) return <LoadingBlock label="Loading cohorts…" rows={2} />;
  if (query.isError) {
    return (
      <LoadError message="The cohorts could not be loaded." onRetry={() => void query.refetch()} />
    );
  }

  const { cohorts, my_cohort_id } = query.data;
  const mine = my_cohort_id ? cohorts.find((c) => c.id === my_cohort_id) : undefined;

  if (mine) return <MyCohortCard cohort={mine} />;

  return (
    <section aria-labelledby="cohorts-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="cohorts-heading" className="text-xl font-semibold text-fg">
            Available cohorts
          </h2>
          <p className="mt-1 text-sm text-muted">
            Join a small group of builders, or start your own. You can be in one cohort at a time.
          </p>
        </div>
        <Button onClick={() => setCreateOpen(true)} aria-haspopup="dialog">
          <Plus size={16} aria-hidden="true" />
          Create Cohort
        </Button>
      </div>

      {cohorts.length === 0 ? (
        <EmptyState title="No cohorts yet">
          Be the first: create a cohort and invite others to join.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2">
          {cohorts.map((cohort) => (
            <li key={cohort.id}>
              <CohortListItem cohort={cohort} />
            </li>
          ))}
        </ul>
      )}

      <CohortFormDialog open={createOpen} onOpenChange={setCreateOpen} onSubmit={create} />
    </section>
  );
}

function CohortListItem({ cohort }: { cohort: Cohort }) {
  const join = useJoinCohort({
    mutationConfig: {
      onSuccess: () => toast.success('Joined cohort!'),
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });
  return (
    <Card className="flex h-full flex-col gap-3 p-4">
      <div className="flex items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-md border border-term-green/40 bg-term-green/10 text-term-green">
          <CohortIconView icon={cohort.icon} />
        </span>
        <div className="min-w-0 flex-1">
          <h3 className="font-semibold break-words text-fg">{cohort.name}</h3>
          <p className="font-mono text-xs text-dim">
            {cohort.member_count} / {plural(cohort.max_members, 'member')}
          </p>
        </div>
      </div>
      {cohort.description ? (
        <p className="line-clamp-3 text-sm text-muted">{cohort.description}</p>
      ) : null}
      <CohortLinks cohort={cohort} />
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-1">
        <MemberFaces cohort={cohort} />
        <div className="flex flex-wrap gap-2">
          {cohort.is_creator ? <CreatorActions cohort={cohort} /> : null}
          <Button
            size="sm"
            variant={cohort.is_full ? 'outline' : 'primary'}
            disabled={cohort.is_full || join.isPending}
            onClick={() => join.mutate(cohort.id)}
            aria-label={cohort.is_full ? `${cohort.name} is full` : `Join ${cohort.name}`}
          >
            {cohort.is_full ? 'Full' : join.isPending ? 'Joining…' : 'Join'}
          </Button>
        </div>
      </div>
    </Card>
  );
}

function MemberFaces({ cohort }: { cohort: Cohort }) {
  return (
    <ul className="flex -space-x-2" aria-label="Members">
      {cohort.members.slice(0, 5).map((m) => (
        <li key={m.user_id} title={m.full_name}>
          <Avatar name={m.full_name} url={m.avatar_url} size={28} className="ring-2 ring-ink-850" />
          <span className="sr-only">{m.full_name}</span>
        </li>
      ))}
    </ul>
  );
}

function CohortLinks({ cohort }: { cohort: Pick<Cohort, 'github_url' | 'homepage_url' | 'name'> }) {
  if (!cohort.github_url && !cohort.homepage_url) return null;
  const linkClass =
    'inline-flex min-h-9 items-center gap-1.5 rounded text-sm text-term-cyan underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-term-cyan';
  return (
    <div className="flex flex-wrap gap-x-4 gap-y-1">
      {cohort.github_url ? (
        <a
          href={cohort.github_url}
          target="_blank"
          rel="noopener noreferrer"
          className={linkClass}
          aria-label={`GitHub of ${cohort.name} (opens in a new tab)`}
        >
          <SocialIcon kind="github" width={14} height={14} aria-hidden="true" />
          GitHub
        </a>
      ) : null}
      {cohort.homepage_url ? (
        <a
          href={cohort.homepage_url}
          target="_blank"
          rel="noopener noreferrer"
          className={linkClass}
          aria-label={`Homepage of ${cohort.name} (opens in a new tab)`}
        >
          <ExternalLink size={14} aria-hidden="true" />
          Homepage
        </a>
      ) : null}
    </div>
  );
}

function MyCohortCard({ cohort }: { cohort: Cohort }) {
  const leave = useLeaveCohort({
    mutationConfig: {
      onSuccess: () => toast.success('Left cohort'),
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });
  return (
    <Card className="flex flex-col gap-5 p-4 sm:p-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <span className="flex h-12 w-12 shrink-0 items-center justify-center rounded-lg border border-term-green/40 bg-term-green/10 text-term-green">
            <CohortIconView icon={cohort.icon} size={24} />
          </span>
          <div className="min-w-0">
            <p className="font-mono text-xs text-dim">Your cohort</p>
            <h2 className="text-2xl font-semibold break-words text-fg">{cohort.name}</h2>
            <p className="mt-1 flex flex-wrap items-center gap-2 font-mono text-xs text-muted">
              {cohort.member_count} / {plural(cohort.max_members, 'member')}
              {cohort.is_creator ? <Badge tone="cyan">creator</Badge> : null}
              {cohort.is_full ? <Badge tone="amber">full</Badge> : null}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {cohort.is_creator ? <CreatorActions cohort={cohort} /> : null}
          {cohort.is_member ? (
            <Button
              variant="ghost"
              size="sm"
              disabled={leave.isPending}
              onClick={() => leave.mutate(cohort.id)}
            >
              <UserMinus size={14} aria-hidden="true" />
              {leave.isPending ? 'Leaving…' : 'Leave'}
            </Button>
          ) : null}
        </div>
      </div>

      {cohort.description ? (
        <p className="text-sm whitespace-pre-line text-muted">{cohort.description}</p>
      ) : (
        <p className="text-sm text-dim">No description yet.</p>
      )}
      <CohortLinks cohort={cohort} />

      <div>
        <h3 className="font-mono text-xs text-dim">Members</h3>
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {cohort.members.map((m) => (
            <li
              key={m.user_id}
              className="flex items-center gap-3 rounded-md border border-ink-700 bg-ink-900 p-2"
            >
              <Avatar name={m.full_name} url={m.avatar_url} size={36} />
              <span className="min-w-0 truncate text-sm text-fg">{m.full_name || 'Member'}</span>
              {m.user_id === cohort.created_by ? <Badge className="ml-auto">creator</Badge> : null}
            </li>
          ))}
        </ul>
      </div>
    </Card>
  );
}

/** Edit and Delete for the cohort's creator, who keeps them even after leaving the cohort. */
function CreatorActions({ cohort }: { cohort: Cohort }) {
  const [editOpen, setEditOpen] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const remove = useDeleteCohort({
    mutationConfig: {
      onSuccess: () => {
        toast.success('Cohort deleted');
        setConfirmDelete(false);
      },
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });

  const update = useUpdateCohort({
    mutationConfig: {
      onSuccess: () => {
        toast.success('Cohort updated!');
        setEditOpen(false);
      },
    },
  });
  const save = async (input: CohortInput) => {
    await update.mutateAsync({ cohortId: cohort.id, data: input });
  };

  return (
    <>
      <Button variant="outline" size="sm" onClick={() => setEditOpen(true)} aria-haspopup="dialog">
        <Pencil size={14} aria-hidden="true" />
        Edit
      </Button>
      <Button
        variant="outline"
        size="sm"
        onClick={() => setConfirmDelete(true)}
        aria-haspopup="dialog"
        className="hover:border-term-red/70 hover:text-term-red"
      >
        <Trash2 size={14} aria-hidden="true" />
        Delete
      </Button>
      <CohortFormDialog
        open={editOpen}
        onOpenChange={setEditOpen}
        cohort={cohort}
        onSubmit={save}
      />
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete ${cohort.name}?`}
        description="All members will be removed from this cohort. This cannot be undone."
        confirmLabel="Delete cohort"
        busy={remove.isPending}
        onConfirm={() => remove.mutateAsync(cohort.id)}
      />
    </>
  );
}
