import { CheckCircle2, Flame, MessageSquare, Pin, Plus, Search } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { FormProblem } from '@/components/ui/form-problem';
import { EmptyState, LoadError, LoadingBlock } from '@/components/ui/query-state';
import { CountedTextarea, TextField } from '@/components/ui/text-field';
import { ApiError, errorMessage } from '@/lib/api';
import type { Thread } from '@/lib/api-types/forum';
import { Link, useLocation, useNavigate } from '@/lib/router';
import { useCreateThread, useThreads } from './api/community';
import { CATEGORY_LABELS, LIMITS, repliesLabel, threadIdOf, threadPath, when } from './logic';
import { ThreadView } from './ThreadView';

export interface CommunityTabProps {
  isAdmin: boolean;
  /** The members area's subscribe button, shown to free members. */
  subscribe?: ReactNode;
}

/**
 * The members area's Community tab: the thread list with its filters and search, the new-thread
 * form, and, on `/members/community/{id}`, one thread.
 */
export function CommunityTab({ isAdmin, subscribe }: CommunityTabProps) {
  const { pathname } = useLocation();
  const id = threadIdOf(pathname);
  if (id) return <ThreadView id={id} isAdmin={isAdmin} />;
  return <ThreadList subscribe={subscribe} />;
}

const FILTERS = ['', 'question', 'win', 'resource', 'general', 'announcement'] as const;

function ThreadList({ subscribe }: { subscribe?: ReactNode }) {
  const [category, setCategory] = useState('');
  const [unanswered, setUnanswered] = useState(false);
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [writing, setWriting] = useState(false);
  const query = useThreads({ category, q, unanswered });
  const first = query.data?.pages[0];
  const canPost = first?.can_post ?? false;
  const threads = query.data?.pages.flatMap((p) => p.threads) ?? [];
  const searchId = useId();

  const search = (e: FormEvent) => {
    e.preventDefault();
    setQ(typed);
  };

  return (
    <section aria-labelledby="community-heading" className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="community-heading" className="text-xl font-semibold text-fg">
            Community
          </h2>
          <p className="mt-1 text-sm text-muted">
            Ask, share wins and resources, and answer each other between the live calls.
          </p>
        </div>
        {canPost ? (
          <Button onClick={() => setWriting((w) => !w)} aria-expanded={writing}>
            <Plus size={16} aria-hidden="true" />
            New thread
          </Button>
        ) : null}
      </div>

      {query.isSuccess && !canPost ? (
        <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted">
            You see the tribe's announcements. Subscribe to read every thread, ask questions and
            answer others.
          </p>
          {subscribe}
        </Card>
      ) : null}

      {writing ? (
        <NewThread canAnnounce={first?.can_announce ?? false} onDone={() => setWriting(false)} />
      ) : null}

      {canPost ? (
        <div className="flex flex-col gap-3">
          <search>
            <form onSubmit={search} className="flex gap-2">
              <label htmlFor={searchId} className="sr-only">
                Search threads and replies
              </label>
              <input
                id={searchId}
                type="search"
                value={typed}
                maxLength={200}
                onChange={(e) => {
                  setTyped(e.target.value);
                  if (e.target.value === '') setQ('');
                }}
                placeholder="Search threads and replies"
                className="h-11 w-full min-w-0 rounded-md border border-ink-600 bg-ink-900 px-3 text-base text-fg placeholder:text-dim focus-visible:outline-2 focus-visible:outline-term-cyan sm:text-sm"
              />
              <Button type="submit" variant="outline" aria-label="Search">
                <Search size={16} aria-hidden="true" />
              </Button>
            </form>
          </search>
          <fieldset className="flex flex-wrap items-center gap-2">
            <legend className="sr-only">Filter threads</legend>
            {FILTERS.map((c) => (
              <Button
                key={c || 'all'}
                size="sm"
                variant={category === c ? 'primary' : 'ghost'}
                aria-pressed={category === c}
                onClick={() => setCategory(c)}
              >
                {c ? CATEGORY_LABELS[c] : 'All'}
              </Button>
            ))}
            <label className="ml-1 flex min-h-11 items-center gap-2 text-sm text-muted">
              <input
                type="checkbox"
                checked={unanswered}
                onChange={(e) => setUnanswered(e.target.checked)}
                className="size-4 accent-term-green"
              />
              Unanswered questions
            </label>
          </fieldset>
        </div>
      ) : null}

      {query.isPending ? (
        <LoadingBlock label="Loading threads…" />
      ) : query.isError ? (
        <LoadError
          message={`The threads could not be loaded: ${errorMessage(query.error)}`}
          onRetry={() => void query.refetch()}
        />
      ) : threads.length === 0 ? (
        <EmptyState
          title={
            q || category || unanswered
              ? 'No thread matches.'
              : canPost
                ? 'No threads yet.'
                : 'No announcements yet.'
          }
        >
          {q || category || unanswered
            ? 'Try other words or another filter.'
            : canPost
              ? 'Start the first one!'
              : null}
        </EmptyState>
      ) : (
        <ul aria-label="Threads" className="flex flex-col gap-3">
          {threads.map((t) => (
            <ThreadRow key={t.id} thread={t} />
          ))}
        </ul>
      )}
      {query.hasNextPage ? (
        <Button
          variant="outline"
          className="self-center"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : 'More threads'}
        </Button>
      ) : null}
    </section>
  );
}

function ThreadRow({ thread: t }: { thread: Thread }) {
  return (
    <li>
      <Card className="flex flex-col gap-2 p-4">
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
          {t.accepted_reply_id ? (
            <span className="flex items-center gap-1 text-term-green">
              <CheckCircle2 size={12} aria-hidden="true" />
              Answered
            </span>
          ) : null}
          {t.hidden ? <Badge tone="neutral">Hidden</Badge> : null}
        </div>
        <h3 className="text-base font-semibold text-fg">
          <Link
            to={threadPath(t.id)}
            className="break-words underline-offset-2 hover:text-term-cyan hover:underline"
          >
            {t.title}
          </Link>
        </h3>
        {t.excerpt ? (
          <p className="line-clamp-2 break-words text-sm text-muted">{t.excerpt}</p>
        ) : null}
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-dim">
          <span>
            {t.author.full_name || 'A member'}
            {t.author.level ? ` · ${t.author.level}` : ''}
          </span>
          <span>{when(t.last_activity_at)}</span>
          <span className="flex items-center gap-1">
            <MessageSquare size={12} aria-hidden="true" />
            {repliesLabel(t.reply_count)}
          </span>
          <span className="flex items-center gap-1">
            <Flame size={12} aria-hidden="true" />
            {t.reactions}
            <span className="sr-only"> fire reactions</span>
          </span>
        </p>
      </Card>
    </li>
  );
}

function NewThread({ canAnnounce, onDone }: { canAnnounce: boolean; onDone: () => void }) {
  const [category, setCategory] = useState('question');
  const [title, setTitle] = useState('');
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState<{ field?: string | undefined; message: string } | null>(
    null,
  );
  const create = useCreateThread();
  const sending = useRef(false);
  const navigate = useNavigate();
  const categoryId = useId();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    // Enter in the title submits too, even while the button is disabled, and a second press can
    // come before React re-renders: the ref lets one post through until it is answered.
    if (sending.current) return;
    // The server's rules, checked first so an empty field is named without a round trip.
    const missing = !title.trim() ? 'title' : !body.trim() ? 'body' : null;
    if (missing) {
      setProblem({
        field: missing,
        message: `${missing === 'title' ? 'Title' : 'Body'} is required.`,
      });
      return;
    }
    setProblem(null);
    sending.current = true;
    create.mutate(
      { category, title, body },
      {
        onSettled: () => {
          sending.current = false;
        },
        onSuccess: (t) => {
          onDone();
          navigate(threadPath(t.id));
        },
        onError: (error) =>
          setProblem({
            field: error instanceof ApiError ? error.field : undefined,
            message: errorMessage(error),
          }),
      },
    );
  };
  const fieldError = (f: string) => (problem?.field === f ? problem.message : undefined);

  return (
    <Card className="p-4">
      <form onSubmit={submit} className="flex flex-col gap-4" aria-label="New thread" noValidate>
        <div className="flex flex-col gap-1">
          <label htmlFor={categoryId} className="text-sm font-medium text-fg">
            Category
          </label>
          <select
            id={categoryId}
            name="category"
            value={category}
            onChange={(e) => setCategory(e.target.value)}
            className="h-11 rounded-md border border-ink-600 bg-ink-900 px-3 text-base text-fg sm:text-sm"
          >
            {Object.entries(CATEGORY_LABELS)
              .filter(([c]) => c !== 'announcement' || canAnnounce)
              .map(([c, label]) => (
                <option key={c} value={c}>
                  {label}
                </option>
              ))}
          </select>
        </div>
        <TextField
          label="Title"
          name="title"
          value={title}
          onValueChange={setTitle}
          maxLength={LIMITS.title}
          required
          error={fieldError('title')}
        />
        <CountedTextarea
          label="Body"
          name="body"
          value={body}
          onValueChange={setBody}
          max={LIMITS.body}
          rows={6}
          required
          hint="Markdown: **bold**, *italic*, `code`, lists and links. Mention members with @Name."
          error={fieldError('body')}
        />
        {problem && !problem.field ? <FormProblem message={problem.message} /> : null}
        {problem?.field === 'category' ? <FormProblem message={problem.message} /> : null}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Posting…' : 'Post thread'}
          </Button>
          <Button variant="ghost" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}
