import { CheckCircle2, Lock, Plus, Search } from 'lucide-react';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState, LoadError, LoadingBlock } from '@/components/ui/query-state';
import { errorMessage } from '@/lib/api';
import type { Item } from '@/lib/api-types/library';
import { Link, useLocation, useSearchParams } from '@/lib/router';
import { useLibrary, useSessionChoices } from './api/library';
import { ItemView } from './ItemView';
import { NewItem } from './LibraryAdmin';
import { durationLabel, itemIdOf, itemPath, KIND_LABELS, KINDS, lockText, percent } from './logic';

export interface LibraryTabProps {
  isAdmin: boolean;
  /** The members area's subscribe button, shown to free members. */
  subscribe?: ReactNode;
  /** The members area's way to the level dialog, shown beside locks that ask for a level. */
  levels?: ReactNode;
}

/**
 * The members area's Library tab: recordings, materials, lessons and links with their filters and
 * search, and, on `/members/library/{id}`, one item.
 */
export function LibraryTab({ isAdmin, subscribe, levels }: LibraryTabProps) {
  const { pathname } = useLocation();
  const id = itemIdOf(pathname);
  if (id) return <ItemView id={id} isAdmin={isAdmin} subscribe={subscribe} levels={levels} />;
  return <LibraryList isAdmin={isAdmin} subscribe={subscribe} levels={levels} />;
}

const selectClass =
  'h-11 min-w-0 rounded-md border border-ink-600 bg-ink-900 px-3 text-base text-fg focus-visible:outline-2 focus-visible:outline-term-cyan sm:text-sm';

function LibraryList({ isAdmin, subscribe, levels }: LibraryTabProps) {
  const [kind, setKind] = useState('');
  const [tag, setTag] = useState('');
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [creating, setCreating] = useState(false);
  // The session filter is in the address (?session=), so a session's items can be linked to.
  const [params, setParams] = useSearchParams();
  const session = params.get('session') ?? '';
  const query = useLibrary({ kind, tag, session, q });
  const items = query.data ?? [];
  const searchId = useId();
  const tagId = useId();
  const sessionSelectId = useId();
  const [knownTags, setKnownTags] = useState<string[]>([]);
  const seen = [...new Set([...knownTags, ...items.flatMap((i) => i.tags)])].sort((a, b) =>
    a.localeCompare(b),
  );
  if (seen.length !== knownTags.length) setKnownTags(seen);
  // The sessions any item shown so far belongs to: the filter offers those, as it does tags.
  const [knownSessions, setKnownSessions] = useState<string[]>([]);
  const sessionIds = [
    ...new Set([
      ...knownSessions,
      ...(session ? [session] : []),
      ...items.flatMap((i) => (i.session_id ? [i.session_id] : [])),
    ]),
  ];
  if (sessionIds.length !== knownSessions.length) setKnownSessions(sessionIds);
  const choices = useSessionChoices(sessionIds.length > 0);
  const sessionOptions = (choices.data ?? [])
    .filter((s) => sessionIds.includes(s.id))
    .sort((a, b) => b.starts_at.localeCompare(a.starts_at));
  const setSession = (id: string) => setParams(id ? { session: id } : {}, { replace: true });
  const membershipLocked = items.some((i) => i.lock_reason === 'membership');
  const levelLocked = items.some((i) => i.lock_reason === 'level');
  const filtered = kind !== '' || tag !== '' || session !== '' || q !== '';

  const search = (e: FormEvent) => {
    e.preventDefault();
    setQ(typed);
  };

  return (
    <section aria-labelledby="library-heading" className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="library-heading" className="text-xl font-semibold text-fg">
            Library
          </h2>
          <p className="mt-1 text-sm text-muted">
            Replays of the live sessions, their transcripts, materials and short lessons.
          </p>
        </div>
        {isAdmin ? (
          <Button onClick={() => setCreating((c) => !c)} aria-expanded={creating}>
            <Plus size={16} aria-hidden="true" />
            New item
          </Button>
        ) : null}
      </div>

      {membershipLocked ? (
        <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted">
            You see what the library holds. Subscribe to watch the replays, read the transcripts and
            download the materials.
          </p>
          {subscribe}
        </Card>
      ) : null}

      {levelLocked && levels ? (
        <Card className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted">
            Some items open as you rise through the Tribe Levels.
          </p>
          {levels}
        </Card>
      ) : null}

      {creating ? <NewItem onDone={() => setCreating(false)} /> : null}

      <div className="flex flex-col gap-3">
        <search>
          <form onSubmit={search} className="flex gap-2">
            <label htmlFor={searchId} className="sr-only">
              Search the library
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
              placeholder="Search the library"
              className="h-11 w-full min-w-0 rounded-md border border-ink-600 bg-ink-900 px-3 text-base text-fg placeholder:text-dim focus-visible:outline-2 focus-visible:outline-term-cyan sm:text-sm"
            />
            <Button type="submit" variant="outline" aria-label="Search">
              <Search size={16} aria-hidden="true" />
            </Button>
          </form>
        </search>
        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
          <fieldset className="flex flex-wrap items-center gap-2">
            <legend className="sr-only">Kind</legend>
            {['', ...KINDS].map((k) => (
              <Button
                key={k || 'all'}
                size="sm"
                variant={kind === k ? 'primary' : 'ghost'}
                aria-pressed={kind === k}
                onClick={() => setKind(k)}
              >
                {k ? `${KIND_LABELS[k]}s` : 'All'}
              </Button>
            ))}
          </fieldset>
          {sessionOptions.length > 0 ? (
            <div className="flex min-w-0 items-center gap-2 sm:ml-auto">
              <label htmlFor={sessionSelectId} className="text-sm text-muted">
                Session
              </label>
              <select
                id={sessionSelectId}
                value={session}
                onChange={(e) => setSession(e.target.value)}
                className={`${selectClass} flex-1 sm:max-w-72`}
              >
                <option value="">All sessions</option>
                {sessionOptions.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.session_date} · {s.title}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {seen.length > 0 ? (
            <div
              className={`flex items-center gap-2 ${sessionOptions.length > 0 ? '' : 'sm:ml-auto'}`}
            >
              <label htmlFor={tagId} className="text-sm text-muted">
                Tag
              </label>
              <select
                id={tagId}
                value={tag}
                onChange={(e) => setTag(e.target.value)}
                className={selectClass}
              >
                <option value="">All tags</option>
                {seen.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
        </div>
      </div>

      {query.isPending ? (
        <LoadingBlock label="Loading the library…" />
      ) : query.isError ? (
        <LoadError
          message={`The library could not be loaded: ${errorMessage(query.error)}`}
          onRetry={() => void query.refetch()}
        />
      ) : items.length === 0 ? (
        <EmptyState title={filtered ? 'Nothing matches.' : 'No replays yet'}>
          {filtered
            ? 'Try other words or another filter.'
            : 'Recordings of the live sessions appear here once they are published.'}
        </EmptyState>
      ) : (
        <ul aria-label="Library items" className="grid gap-3 sm:grid-cols-2">
          {items.map((item) => (
            <ItemCard key={item.id} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ItemCard({ item }: { item: Item }) {
  const duration = durationLabel(item.duration_s);
  const done = percent(item);
  return (
    <li>
      <Card className="flex h-full flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <Badge tone={item.kind === 'recording' ? 'cyan' : 'neutral'}>
            {KIND_LABELS[item.kind] ?? item.kind}
          </Badge>
          {duration ? <span className="text-dim">{duration}</span> : null}
          {item.has_transcript ? <span className="text-dim">Transcript</span> : null}
          {item.published_at === null ? <Badge tone="amber">Draft</Badge> : null}
        </div>
        <h3 className="text-base font-semibold text-fg">
          <Link
            to={itemPath(item.id)}
            className="break-words underline-offset-2 hover:text-term-cyan hover:underline"
          >
            {item.title}
          </Link>
        </h3>
        {item.description ? (
          <p className="line-clamp-2 break-words text-sm text-muted">{item.description}</p>
        ) : null}
        {item.tags.length > 0 ? (
          <p className="flex flex-wrap gap-1 text-xs text-dim">
            {item.tags.map((t) => (
              <span key={t}>#{t}</span>
            ))}
          </p>
        ) : null}
        <div className="mt-auto pt-1 text-xs">
          {item.locked ? (
            <p className="flex items-center gap-1 text-term-amber">
              <Lock size={12} aria-hidden="true" />
              {lockText(item)}
            </p>
          ) : item.progress.completed ? (
            <p className="flex items-center gap-1 text-term-green">
              <CheckCircle2 size={12} aria-hidden="true" />
              Completed
            </p>
          ) : done > 0 ? (
            <div className="flex items-center gap-2 text-dim">
              <div
                role="progressbar"
                aria-label={`Progress in ${item.title}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={done}
                className="h-1.5 flex-1 overflow-hidden rounded-full bg-ink-700"
              >
                <div className="h-full bg-term-green" style={{ width: `${done}%` }} />
              </div>
              <span>{done} %</span>
            </div>
          ) : null}
        </div>
      </Card>
    </li>
  );
}
