import { Check, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { ApiError, errorMessage } from '@/lib/api';
import type { Award } from '@/lib/api-types/levels';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import { useAcceptAward } from './api/accept-award';
import { useAdminMembers } from './api/get-admin-members';
import { useAwards } from './api/get-awards';
import { useGiveAward } from './api/give-award';
import { useRemoveAward } from './api/remove-award';
import { AWARD_KINDS, type AwardKind, awardKindLabel, formatLongDate } from './logic';
import { EmptyState, LoadError, LoadingBlock, TextAreaField } from './parts';
import { useErrorToast } from './SessionsPanel';

const selectClass =
  'h-11 w-full rounded-md border border-ink-600 bg-ink-900 px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-term-cyan aria-[invalid=true]:border-term-red';

/**
 * The Admin tab's awards: give a contribution, mentoring or workshop with a note, and accept or
 * decline what members suggested for themselves. Accepted awards count towards levels at once.
 */
export function AdminAwards() {
  const query = useAwards();
  useErrorToast(query.error, 'Error loading awards');
  const onError = (error: unknown) => toast.error('Error', errorMessage(error));
  const accept = useAcceptAward({
    mutationConfig: { onSuccess: () => toast.success('Award accepted'), onError },
  });
  const remove = useRemoveAward({ mutationConfig: { onError } });
  const awards = query.data ?? [];
  const waiting = awards.filter((a) => a.status === 'suggested');
  const given = awards.filter((a) => a.status !== 'suggested');

  return (
    <section aria-labelledby="awards-heading" className="flex flex-col gap-4">
      <div>
        <h2 id="awards-heading" className="text-xl font-semibold text-fg">
          Awards
        </h2>
        <p className="mt-1 text-sm text-muted">
          Contributions, mentoring and workshops count towards members' levels.
        </p>
      </div>

      <GiveAwardForm />

      {query.isPending ? (
        <LoadingBlock label="Loading awards…" rows={1} />
      ) : query.isError ? (
        <LoadError message="The awards could not be loaded." onRetry={() => void query.refetch()} />
      ) : (
        <>
          <div className="flex flex-col gap-2">
            <h3 className="font-mono text-sm text-fg">Suggestions waiting ({waiting.length})</h3>
            {waiting.length === 0 ? (
              <EmptyState title="No suggestions waiting" />
            ) : (
              <ul className="flex flex-col gap-2">
                {waiting.map((a) => (
                  <AwardItem key={a.id} award={a}>
                    <Button
                      size="sm"
                      disabled={accept.isPending}
                      onClick={() => accept.mutate(a.id)}
                      aria-label={`Accept ${awardKindLabel(a.kind)} of ${a.member_name}`}
                    >
                      <Check size={14} aria-hidden="true" />
                      Accept
                    </Button>
                    <Button
                      variant="outline"
                      size="sm"
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(a.id, {
                          onSuccess: () => toast.success('Suggestion declined'),
                        })
                      }
                      aria-label={`Decline ${awardKindLabel(a.kind)} of ${a.member_name}`}
                    >
                      <X size={14} aria-hidden="true" />
                      Decline
                    </Button>
                  </AwardItem>
                ))}
              </ul>
            )}
          </div>
          <div className="flex flex-col gap-2">
            <h3 className="font-mono text-sm text-fg">Given ({given.length})</h3>
            {given.length === 0 ? (
              <EmptyState title="No awards given yet" />
            ) : (
              <ul className="flex flex-col gap-2">
                {given.map((a) => (
                  <AwardItem key={a.id} award={a}>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="hover:text-term-red"
                      disabled={remove.isPending}
                      onClick={() =>
                        remove.mutate(a.id, { onSuccess: () => toast.success('Award withdrawn') })
                      }
                      aria-label={`Withdraw ${awardKindLabel(a.kind)} of ${a.member_name}`}
                    >
                      <Trash2 size={14} aria-hidden="true" />
                      Withdraw
                    </Button>
                  </AwardItem>
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}

function AwardItem({ award, children }: { award: Award; children: React.ReactNode }) {
  return (
    <li className="flex flex-col gap-2 rounded-md border border-ink-700 bg-ink-900 p-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 text-sm text-fg">
          <strong>{award.member_name || 'A member'}</strong>
          <Badge tone={award.status === 'suggested' ? 'amber' : 'green'}>
            {awardKindLabel(award.kind)}
          </Badge>
        </p>
        <p className="mt-1 text-sm break-words whitespace-pre-line text-muted">{award.note}</p>
        <p className="mt-1 text-xs text-dim">
          {award.status === 'suggested'
            ? `Suggested ${formatLongDate(award.created_at)}`
            : `${award.suggested ? 'Suggested, accepted' : 'Given'}${award.awarded_by ? ` by ${award.awarded_by}` : ''}${award.awarded_at ? ` on ${formatLongDate(award.awarded_at)}` : ''}`}
        </p>
      </div>
      <div className="flex shrink-0 gap-2">{children}</div>
    </li>
  );
}

type AwardField = 'user_id' | 'kind' | 'note';

function GiveAwardForm() {
  const members = useAdminMembers();
  const [userId, setUserId] = useState('');
  const [kind, setKind] = useState<AwardKind>('contribution');
  const [note, setNote] = useState('');
  const [errors, setErrors] = useState<Partial<Record<AwardField, string>>>({});
  const give = useGiveAward({
    mutationConfig: {
      onSuccess: (award) => {
        toast.success('Award given', `${awardKindLabel(award.kind)} for ${award.member_name}`);
        setNote('');
      },
    },
  });

  const guard = useSubmitGuard();
  const submit = guard.onSubmit(async () => {
    const missing: Partial<Record<AwardField, string>> = {};
    if (userId === '') missing.user_id = 'Choose the member to award.';
    if (note.trim() === '') missing.note = 'Please add a note saying what the award is for.';
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    try {
      await give.mutateAsync({ user_id: userId, kind, note });
    } catch (error) {
      const field = error instanceof ApiError ? error.field : undefined;
      if (field === 'user_id' || field === 'kind' || field === 'note') {
        setErrors({ [field]: errorMessage(error) });
      } else {
        toast.error('Error', errorMessage(error));
      }
    }
  });

  return (
    <form
      noValidate
      onSubmit={submit}
      aria-label="Give an award"
      className="grid gap-3 rounded-lg border border-ink-700 p-3 sm:grid-cols-2"
    >
      <FormField label="Member" size="sm" error={errors.user_id}>
        {(control) => (
          <select
            {...control}
            value={userId}
            onChange={(e) => {
              setUserId(e.target.value);
              setErrors((prev) => ({ ...prev, user_id: undefined }));
            }}
            className={selectClass}
          >
            <option value="">Choose a member…</option>
            {(members.data ?? []).map((m) => (
              <option key={m.user_id} value={m.user_id}>
                {m.full_name ? `${m.full_name} (${m.email})` : m.email}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField label="Kind" size="sm" error={errors.kind}>
        {(control) => (
          <select
            {...control}
            value={kind}
            onChange={(e) => setKind(e.target.value as AwardKind)}
            className={selectClass}
          >
            {AWARD_KINDS.map((k) => (
              <option key={k} value={k}>
                {awardKindLabel(k)}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <TextAreaField
        label="Note"
        rows={2}
        maxLength={500}
        value={note}
        onChange={(v) => {
          setNote(v);
          setErrors((prev) => ({ ...prev, note: undefined }));
        }}
        error={errors.note}
        wrapperClassName="sm:col-span-2"
        placeholder="What it is for: the guide they wrote, who they mentored…"
      />
      <div className="flex justify-end sm:col-span-2">
        <Button type="submit" size="sm" disabled={guard.pending}>
          {guard.pending ? 'Giving…' : 'Give award'}
        </Button>
      </div>
    </form>
  );
}
