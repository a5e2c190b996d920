import { Briefcase, MapPin, Search } from 'lucide-react';
import { useDeferredValue, useId, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { ExternalLink } from '@/components/ui/external-link';
import type { DirectoryEntry } from '@/lib/api-types/community';
import { plural } from '@/lib/plural';
import { useDirectory } from './api/get-directory';
import { Avatar, EmptyState, LoadError, LoadingBlock, TextField } from './parts';
import { safeHref } from './projects-logic';
import { SubscribeButton } from './SubscriptionActions';

/**
 * The member directory: members who chose to be listed, with what they do and build. For
 * subscribers and admins; free members are offered a subscription instead (the server refuses
 * them the list too).
 */
export function DirectoryTab({ canSee }: { canSee: boolean }) {
  if (!canSee) {
    return (
      <Card className="p-4 sm:p-6">
        <h2 className="text-xl font-semibold text-fg">Member directory</h2>
        <p className="mt-2 text-sm text-muted">
          Subscribers meet the other members here: who they are, what they work on and build, and
          which cohort they are in. Subscribe to find the people you want to build with.
        </p>
        <SubscribeButton label="Subscribe to meet the tribe" className="mt-4" />
      </Card>
    );
  }
  return <Directory />;
}

function Directory() {
  const [text, setText] = useState('');
  // Typing stays fluid; the list follows the last value the browser had time for.
  const q = useDeferredValue(text.trim());
  const query = useDirectory({ q });

  return (
    <section aria-labelledby="directory-heading" className="flex flex-col gap-5">
      <div>
        <h2 id="directory-heading" className="text-xl font-semibold text-fg">
          Member directory
        </h2>
        <p className="mt-1 text-sm text-muted">
          Members who chose to be listed. Add yourself in your Profile: “Show me in the member
          directory”.
        </p>
      </div>
      <search>
        <TextField
          type="search"
          name="q"
          label="Search the directory"
          placeholder="Name, job, company, city, cohort, project…"
          value={text}
          onChange={setText}
          maxLength={100}
          autoComplete="off"
          hint={
            <span className="inline-flex items-center gap-1">
              <Search size={12} aria-hidden="true" />
              Every word must match.
            </span>
          }
        />
      </search>
      <p role="status" aria-live="polite" className="font-mono text-xs text-dim">
        {query.isSuccess ? plural(query.data.length, 'member') : ''}
      </p>
      {query.isPending ? (
        <LoadingBlock label="Loading the directory…" rows={2} />
      ) : query.isError ? (
        <LoadError
          message="The directory could not be loaded."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <EmptyState title={q ? `Nobody matches “${q}”` : 'Nobody is listed yet'}>
          {q
            ? 'Try fewer or other words.'
            : 'Be the first: tick “Show me in the member directory” in your Profile.'}
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" aria-label="Members">
          {query.data.map((m) => (
            <li key={m.id} className="min-w-0">
              <MemberCard member={m} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function MemberCard({ member: m }: { member: DirectoryEntry }) {
  const nameId = useId();
  const work = [m.job_title, m.company].filter(Boolean).join(' · ');
  return (
    <article
      aria-labelledby={nameId}
      className="flex h-full flex-col gap-3 rounded-lg border border-ink-700 bg-ink-850/60 p-4 sm:p-5"
    >
      <div className="flex items-start gap-3">
        <Avatar name={m.full_name} url={m.avatar_url} size={56} />
        <div className="min-w-0 flex-1">
          <h3 id={nameId} className="text-lg font-semibold break-words text-fg">
            {m.full_name || 'A member'}
          </h3>
          {work ? (
            <p className="flex items-center gap-1 text-sm break-words text-muted">
              <Briefcase size={14} aria-hidden="true" className="shrink-0" />
              {work}
            </p>
          ) : null}
          {m.location ? (
            <p className="flex items-center gap-1 text-sm break-words text-muted">
              <MapPin size={14} aria-hidden="true" className="shrink-0" />
              {m.location}
            </p>
          ) : null}
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <Badge tone="green">
          <span className="sr-only">Level: </span>
          {m.level}
        </Badge>
        {m.cohort ? (
          <Badge tone="cyan">
            <span className="sr-only">Cohort: </span>
            {m.cohort}
          </Badge>
        ) : null}
      </div>
      {m.bio ? <p className="text-sm break-words whitespace-pre-line text-muted">{m.bio}</p> : null}
      {m.projects.length > 0 ? (
        <div>
          <h4 className="font-mono text-xs text-dim">Projects</h4>
          <ul className="mt-1 flex flex-col gap-1">
            {m.projects.map((p) => {
              const href = safeHref(p.link);
              return (
                <li key={p.id} className="text-sm break-words">
                  {href ? (
                    <ExternalLink href={href} className="text-term-cyan hover:underline">
                      {p.title}
                    </ExternalLink>
                  ) : (
                    p.title
                  )}
                </li>
              );
            })}
          </ul>
        </div>
      ) : null}
    </article>
  );
}
