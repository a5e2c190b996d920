import { Flag } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { EmptyState, LoadError, LoadingBlock } from '@/components/ui/query-state';
import { errorMessage } from '@/lib/api';
import { Link } from '@/lib/router';
import { toast } from '@/lib/toast';
import { useReports, useResolveReport } from './api/community';
import { when } from './logic';

/** The Admin tab's section of members' reports of community posts, oldest first. */
export function CommunityReports() {
  const query = useReports();
  const resolve = useResolveReport();
  const reports = query.data?.reports ?? [];
  return (
    <section aria-labelledby="community-reports-heading" className="flex flex-col gap-3">
      <h3
        id="community-reports-heading"
        className="flex items-center gap-2 text-lg font-semibold text-fg"
      >
        <Flag size={18} aria-hidden="true" className="text-term-amber" />
        Community reports
      </h3>
      {query.isPending ? (
        <LoadingBlock label="Loading reports…" rows={2} />
      ) : query.isError ? (
        <LoadError
          message={`The reports could not be loaded: ${errorMessage(query.error)}`}
          onRetry={() => void query.refetch()}
        />
      ) : reports.length === 0 ? (
        <EmptyState title="No open reports." />
      ) : (
        <ul className="flex flex-col gap-3">
          {reports.map((r) => (
            <li key={r.id}>
              <Card className="flex flex-col gap-2 p-4 text-sm">
                <p className="text-fg">
                  <Link to={r.link} className="font-semibold underline underline-offset-2">
                    {r.thread_title}
                  </Link>
                  {r.reply_id ? ' (a reply)' : ''}
                  {r.hidden ? ' · hidden' : ''}
                </p>
                <p className="break-words text-muted">“{r.excerpt}”</p>
                <p className="text-xs text-dim">
                  {r.reporter_name || 'A member'} · {when(r.created_at)}: {r.reason}
                </p>
                <Button
                  size="sm"
                  variant="outline"
                  className="self-start"
                  disabled={resolve.isPending}
                  onClick={() =>
                    resolve.mutate(r.id, { onError: (e) => toast.error('Error', errorMessage(e)) })
                  }
                >
                  Resolve
                </Button>
              </Card>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
