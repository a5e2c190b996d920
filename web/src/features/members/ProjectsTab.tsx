import { EyeOff, Flame, FolderGit2, MessageSquare, Pencil, Plus, Trash2 } from 'lucide-react';
import { type ReactNode, type RefObject, useId, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/edit-confirm-dialog';
import { ExternalLink } from '@/components/ui/external-link';
import { ApiError, errorMessage } from '@/lib/api';
import type { Comment, Project } from '@/lib/api-types/community';
import { cn } from '@/lib/cn';
import { plural } from '@/lib/plural';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import { useAddComment } from './api/add-comment';
import { useCreateProject } from './api/create-project';
import { useDeleteComment } from './api/delete-comment';
import { useDeleteProject } from './api/delete-project';
import { useComments } from './api/get-comments';
import { useProjects } from './api/get-projects';
import { useSetReaction } from './api/set-reaction';
import { useUpdateProject } from './api/update-project';
import { formatLongDate } from './logic';
import {
  Avatar,
  EmptyState,
  LoadError,
  LoadingBlock,
  MemberDialog,
  TextAreaField,
  TextField,
} from './parts';
import {
  emptyProjectForm,
  isProjectField,
  PROJECT_LIMITS,
  type ProjectErrors,
  type ProjectFormValues,
  projectFormOf,
  projectInput,
  reactionLabel,
  safeHref,
  validateProject,
} from './projects-logic';
import { SubscribeButton } from './SubscriptionActions';

/**
 * The projects board: what members built, newest first. Subscribers and admins share, react and
 * comment; free members read it and are offered a subscription; the author edits and deletes;
 * admins hide with a reason.
 */
export function ProjectsTab({ isAdmin }: { isAdmin: boolean }) {
  const query = useProjects();
  const [sharing, setSharing] = useState(false);
  const canPost = query.data?.can_post ?? false;

  return (
    <section aria-labelledby="projects-heading" className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="projects-heading" className="text-xl font-semibold text-fg">
            Projects
          </h2>
          <p className="mt-1 text-sm text-muted">
            What the tribe builds. Share yours, give others a fire reaction and leave a comment.
          </p>
        </div>
        {canPost ? (
          <Button onClick={() => setSharing(true)}>
            <Plus size={16} aria-hidden="true" />
            Share a project
          </Button>
        ) : null}
      </div>

      {query.isSuccess && !canPost ? (
        <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted">
            Subscribers share their projects here, react and comment. Subscribe to show the tribe
            what you build.
          </p>
          <SubscribeButton label="Subscribe to Share" size="sm" />
        </Card>
      ) : null}

      {query.isPending ? (
        <LoadingBlock label="Loading the projects…" rows={3} />
      ) : query.isError ? (
        <LoadError
          message="The projects could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.projects.length === 0 ? (
        <EmptyState title="No projects yet">
          {canPost ? 'Be the first to share what you built.' : 'Members have not shared any yet.'}
        </EmptyState>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2" aria-label="Shared projects">
          {query.data.projects.map((p) => (
            <li key={p.id} className="min-w-0">
              <ProjectCard project={p} canPost={canPost} isAdmin={isAdmin} />
            </li>
          ))}
        </ul>
      )}

      {sharing ? (
        <ProjectFormDialog project={null} open={sharing} onOpenChange={setSharing} />
      ) : null}
    </section>
  );
}

/** One project: its author, links and tags, the 🔥, its comments, and what the caller may do. */
export function ProjectCard({
  project: p,
  canPost,
  isAdmin,
}: {
  project: Project;
  canPost: boolean;
  isAdmin: boolean;
}) {
  const titleId = useId();
  const commentsId = useId();
  const [showComments, setShowComments] = useState(false);
  const [editing, setEditing] = useState(false);
  const [hiding, setHiding] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const opener = useRef<HTMLElement | null>(null);
  // A dialog gives focus back to what opened it.
  const opens = (open: (value: boolean) => void) => () => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    open(true);
  };

  const react = useSetReaction({
    mutationConfig: { onError: (e) => toast.error('Error', errorMessage(e)) },
  });
  const show = useUpdateProject({
    mutationConfig: {
      onSuccess: () => toast.success('Project shown again'),
      onError: (e) => toast.error('Error', errorMessage(e)),
    },
  });
  const remove = useDeleteProject({
    mutationConfig: {
      onSuccess: () => {
        setConfirmDelete(false);
        toast.success('Project deleted');
      },
      onError: (e) => toast.error('Error', errorMessage(e)),
    },
  });

  const link = safeHref(p.link);
  const repo = safeHref(p.repo_url);
  const canReact = canPost && !p.mine && !p.hidden;

  return (
    <article
      aria-labelledby={titleId}
      className={cn(
        'flex h-full flex-col gap-3 rounded-lg border bg-ink-850/60 p-4 sm:p-5',
        p.hidden ? 'border-term-amber/50' : 'border-ink-700',
      )}
    >
      <div className="flex items-center gap-3">
        <Avatar name={p.author_name} url={p.author_avatar_url} size={36} />
        <div className="min-w-0 text-sm">
          <p className="truncate font-medium text-fg">{p.author_name || 'A member'}</p>
          <p className="text-xs text-dim">
            <time dateTime={p.created_at}>{formatLongDate(p.created_at)}</time>
          </p>
        </div>
        {p.hidden ? (
          <Badge tone="amber" className="ml-auto">
            Hidden
          </Badge>
        ) : null}
      </div>

      <h3 id={titleId} className="text-lg font-semibold break-words text-fg">
        {link ? (
          <ExternalLink href={link} className="hover:text-term-green hover:underline">
            {p.title}
          </ExternalLink>
        ) : (
          p.title
        )}
      </h3>
      <p className="text-sm break-words whitespace-pre-line text-muted">{p.description}</p>

      {p.tags.length > 0 || repo ? (
        <div className="flex flex-wrap items-center gap-2">
          {p.tags.map((tag) => (
            <Badge key={tag} tone="cyan">
              {tag}
            </Badge>
          ))}
          {repo ? (
            <ExternalLink
              href={repo}
              className="inline-flex items-center gap-1 text-sm text-term-cyan hover:underline"
            >
              <FolderGit2 size={14} aria-hidden="true" />
              Repository
            </ExternalLink>
          ) : null}
        </div>
      ) : null}

      {p.hidden ? (
        <p className="rounded-md border border-term-amber/40 bg-term-amber/10 p-3 text-sm text-fg">
          Hidden by an admin{p.hidden_reason ? `: ${p.hidden_reason}` : ''}. Only{' '}
          {p.mine ? 'you' : 'its author'} and the admins see it.
        </p>
      ) : null}

      <div className="mt-auto flex flex-wrap items-center gap-2 pt-1">
        {canReact ? (
          <Button
            variant="outline"
            size="sm"
            aria-pressed={p.reacted}
            aria-label={reactionLabel(p)}
            disabled={react.isPending}
            className={cn(p.reacted && 'border-term-amber/70 text-term-amber')}
            onClick={() => react.mutate({ id: p.id, on: !p.reacted })}
          >
            <FireCount count={p.reactions} lit={p.reacted} />
          </Button>
        ) : (
          <span
            className="inline-flex h-9 items-center px-2 font-mono text-sm text-muted"
            title="Fire reactions"
          >
            <FireCount count={p.reactions} lit={false} />
            <span className="sr-only">{plural(p.reactions, 'fire reaction')}</span>
          </span>
        )}
        {p.hidden && !isAdmin && !p.mine ? null : (
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={showComments}
            aria-controls={commentsId}
            onClick={() => setShowComments((v) => !v)}
          >
            <MessageSquare size={14} aria-hidden="true" />
            {plural(p.comments, 'comment')}
          </Button>
        )}
        <span className="ml-auto flex flex-wrap gap-1">
          {p.mine ? (
            <RowAction label={`Edit ${p.title}`} onClick={opens(setEditing)}>
              <Pencil size={14} aria-hidden="true" />
              Edit
            </RowAction>
          ) : null}
          {isAdmin && !p.hidden ? (
            <RowAction label={`Hide ${p.title}`} onClick={opens(setHiding)}>
              <EyeOff size={14} aria-hidden="true" />
              Hide
            </RowAction>
          ) : null}
          {isAdmin && p.hidden ? (
            <RowAction
              label={`Show ${p.title} again`}
              disabled={show.isPending}
              onClick={() => show.mutate({ id: p.id, patch: { hidden: false } })}
            >
              Show again
            </RowAction>
          ) : null}
          {p.mine || isAdmin ? (
            <RowAction
              label={`Delete ${p.title}`}
              className="hover:text-term-red"
              onClick={opens(setConfirmDelete)}
            >
              <Trash2 size={14} aria-hidden="true" />
              Delete
            </RowAction>
          ) : null}
        </span>
      </div>

      {showComments ? (
        <div id={commentsId}>
          <CommentsPanel project={p} canPost={canPost && !p.hidden} isAdmin={isAdmin} />
        </div>
      ) : null}

      {editing ? (
        <ProjectFormDialog
          project={p}
          open={editing}
          onOpenChange={setEditing}
          returnFocusTo={opener}
        />
      ) : null}
      {hiding ? (
        <HideDialog project={p} open={hiding} onOpenChange={setHiding} returnFocusTo={opener} />
      ) : null}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={`Delete ${p.title}?`}
        description="Its reactions and comments go with it. This cannot be undone."
        confirmLabel="Delete project"
        busy={remove.isPending}
        onConfirm={() => remove.mutateAsync(p.id)}
        returnFocusTo={opener}
      />
    </article>
  );
}

/** The "🔥" and its count, drawn as an icon so it shows on systems without an emoji font. */
function FireCount({ count, lit }: { count: number; lit: boolean }) {
  return (
    <span aria-hidden="true" className="inline-flex items-center gap-1">
      <Flame size={16} className={cn('text-term-amber', lit && 'fill-term-amber')} />
      {count}
    </span>
  );
}

/** A project's comments, oldest first, and the form to add one. */
function CommentsPanel({
  project,
  canPost,
  isAdmin,
}: {
  project: Project;
  canPost: boolean;
  isAdmin: boolean;
}) {
  const query = useComments({ projectId: project.id });
  const state = useSession();
  const me = state.status === 'signed-in' ? state.user.id : '';
  const [removing, setRemoving] = useState<Comment | null>(null);
  const opener = useRef<HTMLElement | null>(null);
  const remove = useDeleteComment({
    mutationConfig: {
      onSuccess: () => {
        setRemoving(null);
        toast.success('Comment deleted');
      },
      onError: (e) => {
        setRemoving(null);
        toast.error('Comment not deleted', errorMessage(e));
      },
    },
  });
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | undefined>();
  const add = useAddComment({
    mutationConfig: {
      onSuccess: () => {
        setBody('');
        setError(undefined);
      },
      onError: (e) => {
        if (e instanceof ApiError && e.field === 'body') setError(e.message);
        else toast.error('Error', errorMessage(e));
      },
    },
  });
  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    const text = body.trim();
    if (text === '') {
      setError('Comment is required.');
      return;
    }
    if ([...text].length > PROJECT_LIMITS.comment) {
      setError(`Comment must be at most ${PROJECT_LIMITS.comment} characters.`);
      return;
    }
    return add.mutateAsync({ projectId: project.id, body: text });
  });

  return (
    <section
      aria-label={`Comments on ${project.title}`}
      className="flex flex-col gap-3 border-t border-ink-700 pt-3"
    >
      {query.isPending ? (
        <LoadingBlock label="Loading the comments…" rows={1} />
      ) : query.isError ? (
        <LoadError
          message="The comments could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <p className="text-sm text-dim">No comments yet.</p>
      ) : (
        <ol className="flex flex-col gap-3">
          {query.data.map((c) => (
            <li key={c.id} className="flex gap-2">
              <Avatar name={c.author_name} url={c.author_avatar_url} size={28} />
              <div className="min-w-0 flex-1 rounded-md bg-ink-900 px-3 py-2">
                <p className="text-xs text-dim">
                  <span className="font-medium text-fg">{c.author_name || 'A member'}</span> ·{' '}
                  <time dateTime={c.created_at}>{formatLongDate(c.created_at)}</time>
                </p>
                <p className="mt-1 text-sm break-words whitespace-pre-line text-fg">{c.body}</p>
              </div>
              {isAdmin || c.author_id === me ? (
                <RowAction
                  label={`Delete the comment of ${c.author_name || 'a member'} from ${formatLongDate(c.created_at)}`}
                  className="self-start hover:text-term-red"
                  onClick={() => {
                    opener.current =
                      document.activeElement instanceof HTMLElement ? document.activeElement : null;
                    setRemoving(c);
                  }}
                >
                  <Trash2 size={14} aria-hidden="true" />
                </RowAction>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {canPost ? (
        <form noValidate onSubmit={submit} className="flex flex-col gap-2">
          <TextAreaField
            name="body"
            label="Add a comment"
            rows={2}
            value={body}
            onChange={(v) => {
              setBody(v);
              if (error) setError(undefined);
            }}
            error={error}
            maxLength={PROJECT_LIMITS.comment}
          />
          <Button type="submit" size="sm" className="self-end" disabled={guard.pending}>
            {guard.pending ? 'Sending…' : 'Comment'}
          </Button>
        </form>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title="Delete this comment?"
        description={
          removing && removing.author_id !== me
            ? `${removing.author_name || 'The member'}'s comment is removed for everyone. The project stays.`
            : 'Your comment is removed for everyone. This cannot be undone.'
        }
        confirmLabel="Delete comment"
        busy={remove.isPending}
        onConfirm={() =>
          removing
            ? remove.mutateAsync({ projectId: project.id, commentId: removing.id })
            : undefined
        }
        returnFocusTo={opener}
      />
    </section>
  );
}

const formFields: ReadonlyArray<{
  key: Exclude<keyof ProjectFormValues, 'description'>;
  label: string;
  max: number;
  hint?: string;
  type?: string;
}> = [
  { key: 'title', label: 'Title', max: PROJECT_LIMITS.title },
  {
    key: 'link',
    label: 'Link',
    max: PROJECT_LIMITS.link,
    type: 'url',
    hint: 'Where to see it: a demo, a page, a post (http:// or https://).',
  },
  {
    key: 'repo_url',
    label: 'Repository link (optional)',
    max: PROJECT_LIMITS.link,
    type: 'url',
  },
  {
    key: 'tags',
    label: 'Tags (optional)',
    max: 200,
    hint: `Up to ${PROJECT_LIMITS.tags}, separated by commas: agents, memory, go.`,
  },
];

/** Shares a new project (`project` null) or edits the author's own. */
function ProjectFormDialog({
  project,
  open,
  onOpenChange,
  returnFocusTo,
}: {
  project: Project | null;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const [values, setValues] = useState<ProjectFormValues>(() =>
    project ? projectFormOf(project) : emptyProjectForm(),
  );
  const [errors, setErrors] = useState<ProjectErrors>({});
  const formRef = useRef<HTMLFormElement>(null);

  const failed = (e: Error) => {
    if (e instanceof ApiError && isProjectField(e.field)) {
      setErrors({ [e.field]: e.message });
      formRef.current?.querySelector<HTMLElement>(`[name="${e.field}"]`)?.focus();
    } else {
      toast.error('Error', errorMessage(e));
    }
  };
  const create = useCreateProject({
    mutationConfig: {
      onSuccess: () => {
        toast.success('Project shared', 'The tribe sees it now.');
        onOpenChange(false);
      },
      onError: failed,
    },
  });
  const update = useUpdateProject({
    mutationConfig: {
      onSuccess: () => {
        toast.success('Project updated');
        onOpenChange(false);
      },
      onError: failed,
    },
  });
  const guard = useSubmitGuard();
  const busy = guard.pending;

  const change = (key: keyof ProjectFormValues) => (value: string) => {
    setValues((prev) => ({ ...prev, [key]: value }));
    setErrors((prev) => (prev[key] ? { ...prev, [key]: undefined } : prev));
  };

  const submit = guard.onSubmit(() => {
    const found = validateProject(values);
    const first = Object.keys(found)[0];
    if (first) {
      setErrors(found);
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    const input = projectInput(values);
    return project
      ? update.mutateAsync({ id: project.id, patch: input })
      : create.mutateAsync(input);
  });

  return (
    <MemberDialog
      open={open}
      onOpenChange={onOpenChange}
      windowTitle={project ? '~ $ project --edit' : '~ $ project --share'}
      title={project ? 'Edit project' : 'Share a project'}
      description={
        project ? undefined : 'Show the tribe what you built. Every member of the tribe sees it.'
      }
      returnFocusTo={returnFocusTo}
    >
      <form ref={formRef} noValidate onSubmit={submit} className="flex flex-col gap-4">
        {formFields.slice(0, 2).map((f) => (
          <TextField
            key={f.key}
            name={f.key}
            label={f.label}
            value={values[f.key]}
            onChange={change(f.key)}
            error={errors[f.key]}
            maxLength={f.max}
            hint={f.hint}
            type={f.type ?? 'text'}
            required
          />
        ))}
        <TextAreaField
          name="description"
          label="Short description"
          rows={3}
          value={values.description}
          onChange={change('description')}
          error={errors.description}
          maxLength={PROJECT_LIMITS.description}
          required
        />
        {formFields.slice(2).map((f) => (
          <TextField
            key={f.key}
            name={f.key}
            label={f.label}
            value={values[f.key]}
            onChange={change(f.key)}
            error={errors[f.key]}
            maxLength={f.max}
            hint={f.hint}
            type={f.type ?? 'text'}
          />
        ))}
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Saving…' : project ? 'Save project' : 'Share project'}
          </Button>
        </div>
      </form>
    </MemberDialog>
  );
}

/** An admin hides a project, saying why; its author reads the reason. */
function HideDialog({
  project,
  open,
  onOpenChange,
  returnFocusTo,
}: {
  project: Project;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const hide = useUpdateProject({
    mutationConfig: {
      onSuccess: () => {
        toast.success('Project hidden', 'Only its author and the admins see it now.');
        onOpenChange(false);
      },
      onError: (e) => {
        if (e instanceof ApiError && e.field === 'hidden_reason') setError(e.message);
        else toast.error('Error', errorMessage(e));
      },
    },
  });
  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    if (reason.trim() === '') {
      setError('Reason is required.');
      return;
    }
    return hide.mutateAsync({
      id: project.id,
      patch: { hidden: true, hidden_reason: reason.trim() },
    });
  });
  return (
    <MemberDialog
      open={open}
      onOpenChange={onOpenChange}
      windowTitle="~ $ project --hide"
      title={`Hide ${project.title}?`}
      description="Other members stop seeing it; it no longer counts towards its author's level. The author sees your reason."
      returnFocusTo={returnFocusTo}
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextAreaField
          name="hidden_reason"
          label="Reason"
          rows={3}
          value={reason}
          onChange={(v) => {
            setReason(v);
            if (error) setError(undefined);
          }}
          error={error}
          maxLength={PROJECT_LIMITS.reason}
          required
        />
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" disabled={guard.pending}>
            {guard.pending ? 'Hiding…' : 'Hide project'}
          </Button>
        </div>
      </form>
    </MemberDialog>
  );
}

/** One of a project card's own actions: a small ghost button named for its project. */
function RowAction({
  label,
  onClick,
  disabled,
  className,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label={label}
      disabled={disabled}
      className={className}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}
