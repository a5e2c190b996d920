import { Card } from '@/components/ui/card';
import { EmptyState, LoadError, LoadingBlock } from '@/components/ui/query-state';
import { errorMessage } from '@/lib/api';
import { useAssistantCounts } from './api';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Admin: which assistants members have connected, and how many members each. */
export function AssistantsAdmin() {
  const counts = useAssistantCounts();
  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby="assistants-admin-heading">
        <h2 id="assistants-admin-heading" className="text-xl font-semibold text-fg">
          Connected assistants
        </h2>
        <p className="mt-1 text-sm text-muted">
          MCP clients members have allowed to act for them, by how many members use each.
        </p>
        <div className="mt-4">
          {counts.isPending ? (
            <LoadingBlock label="Loading connected assistants…" rows={2} />
          ) : counts.isError ? (
            <LoadError
              message={`The assistants could not be loaded. ${errorMessage(counts.error)}`}
              onRetry={() => void counts.refetch()}
            />
          ) : counts.data.clients.length === 0 ? (
            <EmptyState title="No member has connected an assistant yet" />
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Connected assistants per client</caption>
                <thead className="font-mono text-xs text-dim">
                  <tr>
                    <th scope="col" className="py-2 pr-4 font-normal">
                      Client
                    </th>
                    <th scope="col" className="py-2 pr-4 font-normal">
                      Members
                    </th>
                    <th scope="col" className="py-2 font-normal">
                      Last used
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {counts.data.clients.map((c) => (
                    <tr key={c.client_id} className="border-t border-ink-800">
                      <th scope="row" className="py-2 pr-4 font-normal break-words text-fg">
                        {c.name}
                      </th>
                      <td className="py-2 pr-4 tabular-nums text-fg">{c.members}</td>
                      <td className="py-2 text-muted">
                        {c.last_used_at ? when.format(new Date(c.last_used_at)) : 'not yet'}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      </section>
    </Card>
  );
}
