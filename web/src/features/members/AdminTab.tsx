import { ClipboardCheck, Download, Pencil, Plus, Trash2, XCircle } from 'lucide-react';
import { type ReactNode, useRef, useState } from 'react';
import { Button, buttonClasses } from '@/components/ui/button';
import { EditConfirmDialog, EditForm, useEditConfirm } from '@/components/ui/edit-confirm-dialog';
import { FormField } from '@/components/ui/form-field';
import { ApiError, errorMessage } from '@/lib/api';
import type { SessionView as LiveSession, SessionInput } from '@/lib/api-types/community';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { toast } from '@/lib/toast';
import { AdminAtRisk } from './AdminAtRisk';
import { AdminAwards } from './AdminAwards';
import { AdminMembers } from './AdminMembers';
import { AttendanceDialog } from './AttendanceDialog';
import { useCreateLiveSession } from './api/create-live-session';
import { useDeleteLiveSession } from './api/delete-live-session';
import { useLiveSessions } from './api/get-live-sessions';
import { useWaitlist } from './api/get-waitlist';
import { type SessionStatus, useSetLiveSessionStatus } from './api/set-live-session-status';
import { useUpdateLiveSession } from './api/update-live-session';
import { WAITLIST_CSV_URL } from './api/urls';
import { DataTransfer } from './DataTransfer';
import { KnowledgeAdmin } from './KnowledgeAdmin';
import {
  browserTimeZone,
  formatLongDate,
  parseTags,
  type SessionField,
  sessionErrorField,
} from './logic';
import { EmptyState, LoadError, LoadingBlock, TextAreaField, TextField } from './parts';
import { SessionCard, useErrorToast } from './SessionsPanel';

const STATUSES: readonly SessionStatus[] = ['scheduled', 'live', 'completed', 'cancelled'];

/**
 * The Admin tab: members, live sessions with attendance, awards, sections other features bring
 * (composed by app/, such as booking), the wait list, CSV downloads and the members import, and
 * the knowledge base.
 */
export function AdminTab({ extra }: { extra?: ReactNode }) {
  return (
    <div className="flex flex-col gap-10">
      <AdminMembers />
      <AdminAtRisk />
      <AdminSessions />
      <AdminAwards />
      {extra}
      <Waitlist />
      <DataTransfer />
      <KnowledgeAdmin />
    </div>
  );
}

type FormValues = Omit<SessionInput, 'tags' | 'max_attendees'> & {
  tags: string;
  max_attendees: string;
};

function emptyForm(): FormValues {
  return {
    title: '',
    description: '',
    tags: '',
    session_date: '',
    session_time: '17:00',
    duration: '2 hours',
    timezone: browserTimeZone(),
    status: 'scheduled',
    max_attendees: '',
    zoom_meeting_id: '',
    zoom_password: '',
    zoom_join_url: '',
    meeting_link: '',
  };
}

function fromSession(s: LiveSession): FormValues {
  return {
    title: s.title,
    description: s.description,
    tags: s.tags.join(', '),
    session_date: s.session_date,
    session_time: s.session_time,
    duration: s.duration,
    timezone: s.timezone,
    status: (STATUSES as readonly string[]).includes(s.status)
      ? (s.status as SessionStatus)
      : 'scheduled',
    max_attendees: s.max_attendees === null ? '' : String(s.max_attendees),
    zoom_meeting_id: s.zoom_meeting_id ?? '',
    zoom_password: s.zoom_password ?? '',
    zoom_join_url: s.zoom_join_url ?? '',
    meeting_link: s.meeting_link ?? '',
  };
}

/** The form as the server expects it; a max attendees that is not a number goes as is, for the server to name. */
function toInput(v: FormValues): SessionInput | { error: string } {
  const raw = v.max_attendees.trim();
  let max: number | null = null;
  if (raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n))
      return { error: 'Max attendees must be a whole number from 1 to 10000.' };
    max = n;
  }
  return { ...v, tags: parseTags(v.tags), max_attendees: max };
}

function AdminSessions() {
  const query = useLiveSessions();
  useErrorToast(query.error, 'Error loading sessions');
  const dialog = useEditConfirm<LiveSession>();
  const [attendance, setAttendance] = useState<LiveSession | null>(null);

  const cancel = useSetLiveSessionStatus({
    mutationConfig: {
      onSuccess: () => toast.success('Session cancelled'),
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });
  const remove = useDeleteLiveSession({
    mutationConfig: {
      onSuccess: () => toast.success('Session deleted'),
      onError: (error) => toast.error('Error', errorMessage(error)),
    },
  });
  const create = useCreateLiveSession({
    mutationConfig: { onSuccess: () => toast.success('Session created') },
  });
  const update = useUpdateLiveSession({
    mutationConfig: { onSuccess: () => toast.success('Session updated') },
  });

  const sessions = query.data ? [...query.data.sessions].reverse() : [];

  return (
    <section aria-labelledby="admin-sessions-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="admin-sessions-heading" className="text-xl font-semibold text-fg">
            Manage live sessions
          </h2>
          <p className="mt-1 text-sm text-muted">Newest first. Members see changes at once.</p>
        </div>
        <Button onClick={dialog.add} aria-haspopup="dialog">
          <Plus size={16} aria-hidden="true" />
          New session
        </Button>
      </div>

      {query.isPending ? (
        <LoadingBlock label="Loading sessions…" rows={2} />
      ) : query.isError ? (
        <LoadError
          message="The sessions could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : sessions.length === 0 ? (
        <EmptyState title="No sessions yet">
          Create the first live session for the tribe.
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-4">
          {sessions.map((s) => (
            <li key={s.id}>
              <SessionCard session={s}>
                <Button
                  variant="outline"
                  size="sm"
                  onClick={() => dialog.edit(s)}
                  aria-haspopup="dialog"
                >
                  <Pencil size={14} aria-hidden="true" />
                  Edit
                </Button>
                {s.status !== 'cancelled' ? (
                  <Button
                    variant="outline"
                    size="sm"
                    onClick={() => setAttendance(s)}
                    aria-haspopup="dialog"
                  >
                    <ClipboardCheck size={14} aria-hidden="true" />
                    Attendance
                  </Button>
                ) : null}
                {/* A session that is over can only be completed: the server refuses to cancel it. */}
                {s.status !== 'cancelled' && s.upcoming ? (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={cancel.isPending}
                    onClick={() => cancel.mutate({ sessionId: s.id, status: 'cancelled' })}
                  >
                    <XCircle size={14} aria-hidden="true" />
                    Cancel session
                  </Button>
                ) : null}
                <Button
                  variant="ghost"
                  size="sm"
                  className="hover:text-term-red"
                  onClick={() => dialog.askDelete(s)}
                  aria-haspopup="dialog"
                >
                  <Trash2 size={14} aria-hidden="true" />
                  Delete
                </Button>
              </SessionCard>
            </li>
          ))}
        </ul>
      )}

      <AttendanceDialog
        session={attendance}
        onOpenChange={(open) => {
          if (!open) setAttendance(null);
        }}
      />

      <EditConfirmDialog<LiveSession, SessionInput>
        control={dialog}
        edit={(session, save) => ({
          windowTitle: session ? '~ $ session --edit' : '~ $ session --new',
          title: session ? 'Edit session' : 'New session',
          description: "Date and time are read in the session's own time zone.",
          form: (
            <SessionForm
              initial={session ? fromSession(session) : emptyForm()}
              onCancel={dialog.close}
              onSubmit={save}
            />
          ),
        })}
        onSave={(session, input) =>
          session
            ? update.mutateAsync({ sessionId: session.id, data: input })
            : create.mutateAsync(input)
        }
        confirm={(session) => ({
          title: `Delete ${session.title}?`,
          description:
            'The session disappears for every member, including from calendar feeds. This cannot be undone. To keep it visible as called off, cancel it instead.',
          confirmLabel: 'Delete session',
        })}
        onConfirm={(session) => remove.mutateAsync(session.id)}
      />
    </section>
  );
}

function SessionForm({
  initial,
  onCancel,
  onSubmit,
}: {
  initial: FormValues;
  onCancel: () => void;
  onSubmit: (input: SessionInput) => Promise<void>;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<SessionField, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);

  const change = (key: keyof FormValues) => (value: string) => {
    setValues((prev) => ({ ...prev, [key]: value }));
    setErrors((prev) => (prev[key] ? { ...prev, [key]: undefined } : prev));
  };

  const showError = (field: SessionField, message: string) => {
    setErrors({ [field]: message });
    formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
  };

  const send = async (input: SessionInput) => {
    try {
      await onSubmit(input);
    } catch (error) {
      const field = error instanceof ApiError ? sessionErrorField(error.message) : null;
      if (field && error instanceof Error) showError(field, error.message);
      else toast.error('Error', errorMessage(error));
    }
  };

  const submit = () => {
    if (values.title.trim() === '') {
      showError('title', 'Please enter a title');
      return;
    }
    const input = toInput(values);
    if ('error' in input) {
      showError('max_attendees', input.error);
      return;
    }
    return send(input);
  };

  const text = (
    key: Exclude<keyof FormValues, 'description' | 'status'>,
    label: string,
    extra: Partial<Parameters<typeof TextField>[0]> = {},
  ) => (
    <TextField
      name={key}
      label={label}
      value={values[key]}
      onChange={change(key)}
      error={errors[key]}
      {...extra}
    />
  );

  return (
    <EditForm ref={formRef} onSubmit={submit} onCancel={onCancel} submitLabel="Save session">
      {text('title', 'Title', { maxLength: 200, required: true })}
      <TextAreaField
        name="description"
        label="Description (optional)"
        rows={3}
        value={values.description}
        onChange={change('description')}
        error={errors.description}
        maxLength={5000}
      />
      {text('tags', 'Tags (comma separated)', { placeholder: 'agents, memory' })}
      <div className="grid gap-4 sm:grid-cols-3">
        {text('session_date', 'Date', { type: 'date', required: true })}
        {text('session_time', 'Start time', { type: 'time', required: true })}
        {text('duration', 'Duration', {
          placeholder: '2 hours',
          hint: "e.g. '2 hours', '45 minutes'",
        })}
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        {text('timezone', 'Time zone', { placeholder: 'America/New_York', autoComplete: 'off' })}
        <FormField label="Status" error={errors.status} size="sm">
          {(control) => (
            <select
              {...control}
              name="status"
              value={values.status}
              onChange={(e) => change('status')(e.target.value)}
              className="h-11 rounded-md border border-ink-600 bg-ink-900 px-3 text-sm text-fg focus-visible:outline-2 focus-visible:outline-term-cyan"
            >
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </FormField>
        {text('max_attendees', 'Max attendees', { inputMode: 'numeric', placeholder: 'unlimited' })}
      </div>
      <fieldset className="grid gap-4 rounded-md border border-ink-700 p-3 sm:grid-cols-2">
        <legend className="px-1 font-mono text-xs text-dim">
          Meeting details (subscribers and admins only)
        </legend>
        {text('zoom_meeting_id', 'Meeting ID', { maxLength: 100, autoComplete: 'off' })}
        {text('zoom_password', 'Meeting password', { maxLength: 100, autoComplete: 'off' })}
        {text('zoom_join_url', 'Join URL', { type: 'url', placeholder: 'https://zoom.us/j/…' })}
        {text('meeting_link', 'Other meeting link', { type: 'url', placeholder: 'https://…' })}
      </fieldset>
    </EditForm>
  );
}

function Waitlist() {
  const query = useWaitlist();
  useErrorToast(query.error, 'Error loading the wait list');
  const entries = query.data ?? [];
  return (
    <section aria-labelledby="waitlist-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="waitlist-heading" className="text-xl font-semibold text-fg">
            Wait list
          </h2>
          <p className="mt-1 text-sm text-muted">
            {query.data
              ? `${plural(entries.length, 'person', 'people')}, newest first.`
              : 'Newest first.'}
          </p>
        </div>
        <a href={WAITLIST_CSV_URL} download className={buttonClasses('outline', 'sm')}>
          <Download size={14} aria-hidden="true" />
          Export CSV
        </a>
      </div>
      {query.isPending ? (
        <LoadingBlock label="Loading the wait list…" rows={1} />
      ) : query.isError ? (
        <LoadError
          message="The wait list could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : entries.length === 0 ? (
        <EmptyState title="Nobody on the wait list yet" />
      ) : (
        <>
          {/* Phones: one card per person, so the date is never off-screen behind a scroll. */}
          <ul aria-label="Wait list" className="flex flex-col gap-2 sm:hidden">
            {entries.map((e) => (
              <li key={e.id} className="rounded-lg border border-ink-700 bg-ink-850/40 px-3 py-2">
                <p className="font-medium break-words text-fg">{e.full_name}</p>
                <p className="text-sm break-all text-muted">{e.email}</p>
                <p className="mt-1 text-xs text-dim">
                  Joined <span className="text-muted">{formatLongDate(e.created_at)}</span>
                </p>
              </li>
            ))}
          </ul>
          {/* Wider screens: a table that fits without scrolling (long addresses break). */}
          <div className="hidden rounded-lg border border-ink-700 sm:block">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Wait list</caption>
              <thead className="bg-ink-850 font-mono text-xs text-dim">
                <tr>
                  <th scope="col" className="px-3 py-2 font-normal">
                    Name
                  </th>
                  <th scope="col" className="px-3 py-2 font-normal">
                    E-mail
                  </th>
                  <th scope="col" className="px-3 py-2 font-normal">
                    Joined
                  </th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e, i) => (
                  <tr
                    key={e.id}
                    className={cn('border-t border-ink-700', i % 2 === 1 && 'bg-ink-850/40')}
                  >
                    <td className="px-3 py-2 break-words text-fg">{e.full_name}</td>
                    <td className="px-3 py-2 break-all text-muted">{e.email}</td>
                    <td className="px-3 py-2 whitespace-nowrap text-muted">
                      {formatLongDate(e.created_at)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
