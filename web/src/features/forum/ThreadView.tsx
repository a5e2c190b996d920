import { ArrowLeft, Bell, BellOff, BookPlus, CheckCircle2, EyeOff, Pin } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormProblem } from '@/components/ui/form-problem';
import { Markdown } from '@/components/ui/markdown';
import { Modal } from '@/components/ui/modal';
import { LoadError, LoadingBlock } from '@/components/ui/query-state';
import { CountedTextarea, TextField } from '@/components/ui/text-field';
import { ApiError, errorMessage } from '@/lib/api';
import type { Author, Reply, ThreadDetail } from '@/lib/api-types/forum';
import { Link, useNavigate } from '@/lib/router';
import { toast } from '@/lib/toast';
import {
  useAccept,
  useAddReply,
  useCreateDocument,
  useDeleteReply,
  useDeleteThread,
  useMentionNames,
  useModerate,
  useMute,
  useReport,
  useThread,
  useUpdateReply,
  useUpdateThread,
} from './api/community';
import {
  CATEGORY_LABELS,
  completeMention,
  documentFrom,
  LIMITS,
  mentionMatches,
  mentionQuery,
  when,
} from './logic';
import { PostActions } from './PostActions';

/** Members' posts: links marked as user content. */
const UGC = 'nofollow ugc noopener';

function Byline({ author, at, edited }: { author: Author; at: string; edited: string | null }) {
  return (
    <p className="flex flex-wrap gap-x-2 text-xs text-dim">
      <span className="text-muted">{author.full_name || 'A member'}</span>
      {author.level ? <span>· {author.level}</span> : null}
      <span>· {when(at)}</span>
      {edited ? <span>· edited</span> : null}
    </p>
  );
}

function HiddenNote({ reason }: { reason: string | null }) {
  return (
    <p className="rounded-md border border-term-amber/50 bg-term-amber/10 px-3 py-2 text-sm text-term-amber">
      Hidden by an admin{reason ? `: ${reason}` : ''}. Only you and the admins see it.
    </p>
  );
}

/** One thread with its replies: `/members/community/{id}`. */
export function ThreadView({ id, isAdmin }: { id: string; isAdmin: boolean }) {
  const query = useThread(id);
  return (
    <section aria-labelledby="thread-heading" className="flex flex-col gap-4">
      <Link
        to="/members"
        className="flex min-h-11 items-center gap-2 self-start text-sm text-term-cyan underline-offset-2 hover:underline"
      >
        <ArrowLeft size={16} aria-hidden="true" />
        All threads
      </Link>
      {query.isPending ? (
        <LoadingBlock label="Loading the thread…" rows={2} />
      ) : query.isError ? (
        <LoadError
          title="This thread cannot be shown"
          titleId="thread-heading"
          message={errorMessage(query.error)}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <Thread thread={query.data} isAdmin={isAdmin} />
      )}
    </section>
  );
}

function Thread({ thread: t, isAdmin }: { thread: ThreadDetail; isAdmin: boolean }) {
  const [editing, setEditing] = useState(false);
  const [reporting, setReporting] = useState<{ thread_id?: string; reply_id?: string } | null>(
    null,
  );
  const [hiding, setHiding] = useState<{ kind: 'thread' | 'reply'; id: string } | null>(null);
  const [toDocument, setToDocument] = useState(false);
  const accepted = t.replies.find((r) => r.accepted);
  const mute = useMute();
  const moderate = useModerate();
  const del = useDeleteThread();
  const navigate = useNavigate();
  const fail = (error: unknown) => toast.error('Error', errorMessage(error));

  return (
    <>
      <Card className="flex flex-col gap-3 p-4 sm:p-6">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <Badge tone={t.category === 'announcement' ? 'amber' : 'cyan'}>
            {CATEGORY_LABELS[t.category] ?? t.category}
          </Badge>
          {t.pinned ? (
            <span className="flex items-center gap-1 text-term-amber">
              <Pin size={12} aria-hidden="true" />
              Pinned
            </span>
          ) : null}
        </div>
        <h2 id="thread-heading" className="break-words text-xl font-semibold text-fg">
          {t.title}
        </h2>
        <Byline author={t.author} at={t.created_at} edited={t.edited_at} />
        {t.hidden ? <HiddenNote reason={t.hidden_reason} /> : null}
        {editing ? (
          <EditThread thread={t} onDone={() => setEditing(false)} />
        ) : (
          <Markdown text={t.body} linkRel={UGC} className="text-sm text-muted" />
        )}
        <PostActions
          kind="thread"
          id={t.id}
          reactions={t.reactions}
          reacted={t.reacted}
          canReact={t.can_reply && !t.mine}
          mine={t.mine}
          canDelete={t.mine || isAdmin}
          onEdit={() => setEditing(true)}
          onReport={() => setReporting({ thread_id: t.id })}
          onDelete={() => {
            if (!window.confirm('Delete this thread and its replies?')) return;
            del.mutate(t.id, {
              onSuccess: () => navigate('/members'),
              onError: fail,
            });
          }}
          beside={
            <Button
              size="sm"
              variant="ghost"
              aria-pressed={t.muted}
              onClick={() =>
                mute.mutate({ id: t.id, input: { muted: !t.muted } }, { onError: fail })
              }
            >
              {t.muted ? (
                <BellOff size={16} aria-hidden="true" />
              ) : (
                <Bell size={16} aria-hidden="true" />
              )}
              {t.muted ? 'Muted' : 'Mute'}
            </Button>
          }
        >
          {isAdmin ? (
            <>
              <Button
                size="sm"
                variant="ghost"
                onClick={() =>
                  moderate.mutate(
                    { kind: 'thread', id: t.id, input: { pinned: !t.pinned } },
                    { onError: fail },
                  )
                }
              >
                <Pin size={16} aria-hidden="true" />
                {t.pinned ? 'Unpin' : 'Pin'}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                onClick={() =>
                  t.hidden
                    ? moderate.mutate(
                        { kind: 'thread', id: t.id, input: { hidden: false } },
                        { onError: fail },
                      )
                    : setHiding({ kind: 'thread', id: t.id })
                }
              >
                <EyeOff size={16} aria-hidden="true" />
                {t.hidden ? 'Show' : 'Hide'}
              </Button>
              {accepted ? (
                <Button size="sm" variant="ghost" onClick={() => setToDocument(true)}>
                  <BookPlus size={16} aria-hidden="true" />
                  Save to knowledge base
                </Button>
              ) : null}
            </>
          ) : null}
        </PostActions>
      </Card>
      {accepted && toDocument ? (
        <DocumentDialog initial={documentFrom(t, accepted)} onClose={() => setToDocument(false)} />
      ) : null}

      <h3 className="mt-2 text-lg font-semibold text-fg">
        {t.replies.length === 0 ? 'No replies yet' : `Replies (${t.replies.length})`}
      </h3>
      {t.replies.length > 0 ? (
        <ol aria-label="Replies" className="flex flex-col gap-3">
          {t.replies.map((r) => (
            <ReplyItem
              key={r.id}
              reply={r}
              thread={t}
              isAdmin={isAdmin}
              onReport={() => setReporting({ reply_id: r.id })}
              onHide={() => setHiding({ kind: 'reply', id: r.id })}
            />
          ))}
        </ol>
      ) : null}
      {t.can_reply ? <ReplyForm threadId={t.id} /> : null}

      <ReasonDialog
        open={reporting !== null}
        title="Report this post"
        label="What is wrong with it?"
        action="Send report"
        onClose={() => setReporting(null)}
        useSubmit={useReport}
        toInput={(reason) => ({ thread_id: '', reply_id: '', ...reporting, reason })}
        done="Thanks: the admins will look at it."
      />
      <ReasonDialog
        open={hiding !== null}
        title="Hide this post"
        label="Reason (the author reads it)"
        action="Hide"
        onClose={() => setHiding(null)}
        useSubmit={useModerate}
        toInput={(reason) => ({
          kind: hiding?.kind ?? 'thread',
          id: hiding?.id ?? '',
          input: { hidden: true, reason },
        })}
        done="Hidden."
      />
    </>
  );
}

function ReplyItem({
  reply: r,
  thread: t,
  isAdmin,
  onReport,
  onHide,
}: {
  reply: Reply;
  thread: ThreadDetail;
  isAdmin: boolean;
  onReport: () => void;
  onHide: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [body, setBody] = useState(r.body);
  const accept = useAccept();
  const update = useUpdateReply();
  const del = useDeleteReply();
  const moderate = useModerate();
  const fail = (error: unknown) => toast.error('Error', errorMessage(error));

  return (
    <li id={`reply-${r.id}`} className="scroll-mt-24">
      <Card className={r.accepted ? 'border-term-green/70 p-4' : 'p-4'}>
        <div className="flex flex-col gap-2">
          {r.accepted ? (
            <p className="flex items-center gap-1 text-xs font-semibold text-term-green">
              <CheckCircle2 size={14} aria-hidden="true" />
              Accepted answer
            </p>
          ) : null}
          <Byline author={r.author} at={r.created_at} edited={r.edited_at} />
          {r.hidden ? <HiddenNote reason={r.hidden_reason} /> : null}
          {editing ? (
            <form
              className="flex flex-col gap-3"
              onSubmit={(e) => {
                e.preventDefault();
                update.mutate(
                  { id: r.id, input: { body } },
                  { onSuccess: () => setEditing(false), onError: fail },
                );
              }}
            >
              <CountedTextarea
                label="Your reply"
                name="body"
                value={body}
                onValueChange={setBody}
                max={LIMITS.reply}
              />
              <div className="flex gap-2">
                <Button type="submit" size="sm" disabled={update.isPending}>
                  Save
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
                  Cancel
                </Button>
              </div>
            </form>
          ) : (
            <Markdown text={r.body} linkRel={UGC} className="text-sm text-muted" />
          )}
          <PostActions
            kind="reply"
            id={r.id}
            reactions={r.reactions}
            reacted={r.reacted}
            canReact={t.can_reply && !r.mine && !r.hidden}
            mine={r.mine}
            canDelete={r.mine || isAdmin}
            onEdit={() => setEditing(true)}
            onReport={onReport}
            onDelete={() => {
              if (window.confirm('Delete this reply?')) del.mutate(r.id, { onError: fail });
            }}
            beside={
              t.can_accept && !r.hidden ? (
                <Button
                  size="sm"
                  variant="ghost"
                  aria-pressed={r.accepted}
                  onClick={() =>
                    accept.mutate(
                      { id: t.id, input: { reply_id: r.accepted ? null : r.id } },
                      { onError: fail },
                    )
                  }
                >
                  <CheckCircle2 size={16} aria-hidden="true" />
                  {r.accepted ? 'Unaccept' : 'Accept answer'}
                </Button>
              ) : null
            }
          >
            {isAdmin ? (
              <Button
                size="sm"
                variant="ghost"
                onClick={() =>
                  r.hidden
                    ? moderate.mutate(
                        { kind: 'reply', id: r.id, input: { hidden: false } },
                        { onError: fail },
                      )
                    : onHide()
                }
              >
                <EyeOff size={16} aria-hidden="true" />
                {r.hidden ? 'Show' : 'Hide'}
              </Button>
            ) : null}
          </PostActions>
        </div>
      </Card>
    </li>
  );
}

/** The reply form, with a mention picker over the directory's names. */
function ReplyForm({ threadId }: { threadId: string }) {
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useAddReply();
  const names = useMentionNames(true);
  const partial = mentionQuery(body);
  const matches = partial === null ? [] : mentionMatches(names.data ?? [], partial);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    add.mutate(
      { threadId, input: { body } },
      {
        onSuccess: () => setBody(''),
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <Card className="p-4">
      <form onSubmit={submit} className="flex flex-col gap-3" aria-label="Reply" noValidate>
        <CountedTextarea
          label="Your reply"
          name="body"
          value={body}
          onValueChange={setBody}
          max={LIMITS.reply}
          rows={4}
          hint="Type @ to mention a member."
          error={problem ?? undefined}
        />
        {matches.length > 0 ? (
          <ul aria-label="Mention a member" className="flex flex-wrap gap-2">
            {matches.map((name) => (
              <li key={name}>
                <Button
                  size="sm"
                  variant="outline"
                  onClick={() => setBody(completeMention(body, name))}
                >
                  @{name}
                </Button>
              </li>
            ))}
          </ul>
        ) : null}
        <Button type="submit" className="self-start" disabled={add.isPending}>
          {add.isPending ? 'Posting…' : 'Post reply'}
        </Button>
      </form>
    </Card>
  );
}

function EditThread({ thread: t, onDone }: { thread: ThreadDetail; onDone: () => void }) {
  const [title, setTitle] = useState(t.title);
  const [body, setBody] = useState(t.body);
  const [problem, setProblem] = useState<{ field?: string | undefined; message: string } | null>(
    null,
  );
  const update = useUpdateThread();
  const err = (f: string) => (problem?.field === f ? problem.message : undefined);
  return (
    <form
      className="flex flex-col gap-3"
      aria-label="Edit thread"
      onSubmit={(e) => {
        e.preventDefault();
        update.mutate(
          { id: t.id, patch: { title, body } },
          {
            onSuccess: onDone,
            onError: (error) =>
              setProblem({
                field: error instanceof ApiError ? error.field : undefined,
                message: errorMessage(error),
              }),
          },
        );
      }}
    >
      <TextField
        label="Title"
        name="title"
        value={title}
        onValueChange={setTitle}
        error={err('title')}
      />
      <CountedTextarea
        label="Body"
        name="body"
        value={body}
        onValueChange={setBody}
        max={LIMITS.body}
        rows={6}
        error={err('body')}
      />
      {problem && !problem.field ? <FormProblem message={problem.message} /> : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={update.isPending}>
          Save
        </Button>
        <Button size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** A dialog asking for a reason (a report, an admin's hiding), then sending it. */
function ReasonDialog<I>({
  open,
  title,
  label,
  action,
  onClose,
  useSubmit,
  toInput,
  done,
}: {
  open: boolean;
  title: string;
  label: string;
  action: string;
  onClose: () => void;
  useSubmit: () => {
    mutate: (input: I, o: { onSuccess: () => void; onError: (e: unknown) => void }) => void;
    isPending: boolean;
  };
  toInput: (reason: string) => I;
  done: string;
}) {
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = useSubmit();
  return (
    <Modal
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setReason('');
          setProblem(null);
          onClose();
        }
      }}
      windowTitle="community"
      title={title}
    >
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          submit.mutate(toInput(reason), {
            onSuccess: () => {
              toast.success(done, '');
              setReason('');
              onClose();
            },
            onError: (error) => setProblem(errorMessage(error)),
          });
        }}
      >
        <CountedTextarea
          label={label}
          name="reason"
          value={reason}
          onValueChange={setReason}
          max={LIMITS.reason}
          rows={3}
          error={problem ?? undefined}
        />
        <Button type="submit" className="self-start" disabled={submit.isPending}>
          {action}
        </Button>
      </form>
    </Modal>
  );
}

/** An admin's dialog turning an answered thread into a knowledge-base document, edited first. */
function DocumentDialog({
  initial,
  onClose,
}: {
  initial: { title: string; content: string };
  onClose: () => void;
}) {
  const [title, setTitle] = useState(initial.title);
  const [content, setContent] = useState(initial.content);
  const [problem, setProblem] = useState<{ field?: string | undefined; message: string } | null>(
    null,
  );
  const create = useCreateDocument();
  const err = (f: string) => (problem?.field === f ? problem.message : undefined);
  return (
    <Modal
      open
      onOpenChange={(o) => {
        if (!o) onClose();
      }}
      windowTitle="knowledge-base"
      title="Save to the knowledge base"
      description="Edit the question and its answer into a document the console and the AI can answer from."
      size="lg"
    >
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(
            { title, content, category: 'community', tags: ['community'] },
            {
              onSuccess: () => {
                toast.success('Saved', 'The document is in the knowledge base.');
                onClose();
              },
              onError: (error) =>
                setProblem({
                  field: error instanceof ApiError ? error.field : undefined,
                  message: errorMessage(error),
                }),
            },
          );
        }}
      >
        <TextField
          label="Title"
          name="title"
          value={title}
          onValueChange={setTitle}
          error={err('title')}
        />
        <CountedTextarea
          label="Content"
          name="content"
          value={content}
          onValueChange={setContent}
          max={100_000}
          rows={10}
          error={err('content')}
        />
        {problem && !problem.field ? <FormProblem message={problem.message} /> : null}
        <Button type="submit" className="self-start" disabled={create.isPending}>
          {create.isPending ? 'Saving…' : 'Save document'}
        </Button>
      </form>
    </Modal>
  );
}
