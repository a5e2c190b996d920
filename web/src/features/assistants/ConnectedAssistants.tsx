import { Bot } from 'lucide-react';
import { useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CodeBlock } from '@/components/ui/code-block';
import { ConfirmDialog } from '@/components/ui/edit-confirm-dialog';
import { EmptyState, LoadError, LoadingBlock } from '@/components/ui/query-state';
import { errorMessage } from '@/lib/api';
import type { Assistant } from '@/lib/api-types/oauth';
import { siteBaseUrl } from '@/lib/site-url';
import { toast } from '@/lib/toast';
import { useMyAssistants, useRevokeAssistant } from './api';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What each scope lets an assistant do, as the consent page says it. */
export const SCOPE_LABELS: Record<string, string> = {
  'tribe:read':
    "See your sessions and RSVPs, your bookings, your progress, and search the tribe's knowledge and threads.",
  'tribe:write':
    'RSVP to sessions, hold a booking for you to pay, and post questions in the community in your name.',
};

/**
 * Profile: the MCP clients (Claude, ChatGPT, VS Code…) the member has allowed to act for them, when
 * each last did, and a Revoke that ends its tokens at once; with the address to add to a client.
 */
export function ConnectedAssistants() {
  const list = useMyAssistants();
  const revoke = useRevokeAssistant();
  const [asking, setAsking] = useState<Assistant | null>(null);
  const opener = useRef<HTMLButtonElement | null>(null);
  const address = `${siteBaseUrl()}/mcp`;

  const confirm = () => {
    if (!asking) return;
    const { client_id, name } = asking;
    return revoke.mutateAsync(client_id).then(
      () => {
        setAsking(null);
        toast.success('Assistant disconnected', `${name} can no longer act for you.`);
      },
      (error: unknown) => toast.error('Not disconnected', errorMessage(error)),
    );
  };

  return (
    <Card className="p-4 sm:p-6">
      <section aria-labelledby="assistants-heading">
        <h2
          id="assistants-heading"
          className="flex items-center gap-2 text-xl font-semibold text-fg"
        >
          <Bot aria-hidden="true" className="size-5 text-term-cyan" />
          Connected assistants
        </h2>
        <p className="mt-1 text-sm text-muted">
          Ask your own AI assistant about your next session, RSVP, or search the tribe’s replays and
          threads. Add this address as a custom connector (MCP server) in Claude, ChatGPT or VS
          Code; it opens this site to ask for your permission.
        </p>
        <CodeBlock className="mt-3" code={address} title="MCP server address" />
        <div className="mt-5">
          {list.isPending ? (
            <LoadingBlock label="Loading your connected assistants…" rows={2} />
          ) : list.isError ? (
            <LoadError
              message={`Your connected assistants could not be loaded. ${errorMessage(list.error)}`}
              onRetry={() => void list.refetch()}
            />
          ) : list.data.assistants.length === 0 ? (
            <EmptyState title="No assistants connected">
              When you allow one, it shows here with what it may do and when it last did.
            </EmptyState>
          ) : (
            <ul className="flex flex-col gap-3" aria-label="Connected assistants">
              {list.data.assistants.map((a) => (
                <li
                  key={a.client_id}
                  className="flex flex-col gap-3 rounded-lg border border-ink-700 bg-ink-900/60 p-4 sm:flex-row sm:items-start sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="font-mono text-sm font-semibold break-words text-fg">{a.name}</p>
                    <ul
                      className="mt-1 list-disc pl-5 text-sm text-muted"
                      aria-label={`What ${a.name} may do`}
                    >
                      {a.scopes.map((s) => (
                        <li key={s}>{SCOPE_LABELS[s] ?? s}</li>
                      ))}
                    </ul>
                    <p className="mt-2 font-mono text-xs text-dim">
                      Connected {when.format(new Date(a.created_at))} ·{' '}
                      {a.last_used_at
                        ? `last used ${when.format(new Date(a.last_used_at))}`
                        : 'not used yet'}
                    </p>
                  </div>
                  <Button
                    variant="outline"
                    size="sm"
                    className="shrink-0"
                    aria-label={`Revoke ${a.name}`}
                    onClick={(event) => {
                      opener.current = event.currentTarget;
                      setAsking(a);
                    }}
                  >
                    Revoke
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      </section>
      <ConfirmDialog
        open={asking !== null}
        onOpenChange={(open) => {
          if (!open) setAsking(null);
        }}
        title={`Disconnect ${asking?.name ?? 'this assistant'}?`}
        description="Its access ends at once: every token it holds stops working. To use it again, connect it again from the assistant."
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onConfirm={confirm}
        returnFocusTo={opener}
      />
    </Card>
  );
}
