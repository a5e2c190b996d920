import { Database, Eraser, Home, Lightbulb, Send, ShieldAlert, Square } from 'lucide-react';
import { type KeyboardEvent, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ChatError } from '@/components/ui/chat-error';
import { ChatTranscript } from '@/components/ui/chat-transcript';
import { FormField } from '@/components/ui/form-field';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { ToolProgress } from '@/components/ui/tool-progress';
import { errorMessage } from '@/lib/api';
import { seedKnowledgeBase } from '@/lib/kb';
import { plural } from '@/lib/plural';
import { useNavigate } from '@/lib/router';
import { useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useChat } from '@/lib/use-chat';

/** The toast a non-admin gets (spec §8). */
export const ACCESS_DENIED_TOAST = 'This page is only accessible to admin-domain users.';

/** Questions that exercise the knowledge base and the tools. */
export const EXAMPLE_PROMPTS = [
  'What coaching sessions do you offer, and what do they cost?',
  'How does the tribe work, and how many spots are left?',
  'Search the knowledge base for agentic engineering.',
  'Which open-source projects has rUv built?',
] as const;

/**
 * The AI agent test page: admins try the site's agent against the knowledge base and watch its
 * tools run. Who is an admin is the server's decision (the session's is_admin); everyone else sees
 * Access Denied. The chat endpoint is public anyway, and seeding is refused by the server to
 * anyone but an admin.
 */
export function AgentTestPage() {
  const state = useSession();
  if (state.status === 'unknown') {
    return (
      <Page title="Agent test">
        <p role="status" className="font-mono text-sm text-muted">
          <span className="text-term-green">$</span> checking access…
        </p>
      </Page>
    );
  }
  if (state.status === 'signed-out' || !state.user.is_admin) return <AccessDenied />;
  return <Workbench />;
}

function AccessDenied() {
  const navigate = useNavigate();
  useEffect(() => {
    // The id keeps a second mount (React's development double effects) from stacking toasts.
    void toast.error(ACCESS_DENIED_TOAST, undefined, { id: 'agent-access-denied' });
  }, []);
  return (
    // The document title stays the page's own (app/seo.ts), whoever visits it.
    <Page title="Agent test">
      <Card className="mx-auto flex max-w-lg flex-col items-center gap-4 py-10 text-center">
        <ShieldAlert size={40} aria-hidden="true" className="text-term-red" />
        <h1 className="text-2xl font-bold text-fg">Access Denied</h1>
        <p className="text-sm text-muted">
          The agent test page is for the site's administrators. Sign in with an admin account to use
          it.
        </p>
        <Button onClick={() => navigate('/')}>
          <Home size={16} aria-hidden="true" />
          Return Home
        </Button>
      </Card>
    </Page>
  );
}

function Workbench() {
  const chat = useChat();
  const [prompt, setPrompt] = useState('');
  const [promptError, setPromptError] = useState<string | undefined>();
  const [seeding, setSeeding] = useState(false);

  const submit = () => {
    if (prompt.trim() === '') {
      setPromptError('Please enter a prompt');
      return;
    }
    if (chat.send(prompt)) {
      setPrompt('');
      setPromptError(undefined);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter (and Enter while an input method composes) adds a line.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!chat.streaming) submit();
  };

  const seed = async () => {
    setSeeding(true);
    try {
      const result = await seedKnowledgeBase();
      void toast.success(
        'Knowledge base seeded',
        `Seeded ${plural(result.count, 'document')} to knowledge base`,
      );
    } catch (error) {
      void toast.error('Seeding failed', errorMessage(error) || 'Failed to seed knowledge base');
    } finally {
      setSeeding(false);
    }
  };

  return (
    <Page title="Agent test">
      <PageHeader
        command="agent --test"
        title="Agent test"
        lead="Try the site's AI agent against the knowledge base and watch the tools it runs. Only administrators see this page."
      />

      <div className="mt-10 grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <section aria-labelledby="conversation-heading" className="flex min-w-0 flex-col gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="conversation-heading" className="font-mono text-lg font-semibold text-fg">
              Conversation
            </h2>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                size="sm"
                onClick={chat.clear}
                disabled={chat.entries.length === 0 && !chat.streaming}
              >
                <Eraser size={16} aria-hidden="true" />
                Clear History
              </Button>
              <Button variant="outline" size="sm" onClick={() => void seed()} disabled={seeding}>
                <Database size={16} aria-hidden="true" />
                {seeding ? 'Seeding…' : 'Seed KB'}
              </Button>
            </div>
          </div>

          <ChatTranscript
            label="Conversation"
            entries={chat.entries}
            streaming={chat.streaming}
            className="min-h-[400px] max-h-[600px]"
            empty="No messages yet. Pick an example prompt or type your own below."
          />

          {chat.failure && !chat.streaming ? (
            <ChatError failure={chat.failure} onRetry={chat.retry} />
          ) : null}

          <form
            className="flex flex-col gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          >
            <FormField
              label="Prompt"
              size="sm"
              error={promptError}
              hint="Enter sends; Shift+Enter adds a new line."
            >
              {(control) => (
                <textarea
                  {...control}
                  rows={3}
                  value={prompt}
                  onChange={(event) => {
                    setPrompt(event.target.value);
                    if (promptError) setPromptError(undefined);
                  }}
                  onKeyDown={onKeyDown}
                  placeholder="Ask the agent something…"
                  className="w-full resize-y rounded-md border border-ink-600 bg-ink-900 px-3 py-2 font-mono text-sm text-fg placeholder:text-dim focus-visible:border-term-cyan focus-visible:outline-none"
                />
              )}
            </FormField>
            <div className="flex justify-end gap-2">
              {chat.streaming ? (
                <Button variant="outline" size="sm" onClick={chat.stop}>
                  <Square size={14} aria-hidden="true" />
                  Stop
                </Button>
              ) : null}
              <Button type="submit" size="sm" disabled={chat.streaming || prompt.trim() === ''}>
                <Send size={14} aria-hidden="true" />
                Send
              </Button>
            </div>
          </form>
        </section>

        <aside className="flex min-w-0 flex-col gap-6">
          <section aria-labelledby="examples-heading">
            <h2
              id="examples-heading"
              className="flex items-center gap-2 font-mono text-sm font-semibold text-fg"
            >
              <Lightbulb size={16} aria-hidden="true" className="text-term-amber" />
              Example prompts
            </h2>
            <ul className="mt-3 flex flex-col gap-2">
              {EXAMPLE_PROMPTS.map((example) => (
                <li key={example}>
                  <button
                    type="button"
                    disabled={chat.streaming}
                    onClick={() => {
                      setPromptError(undefined);
                      chat.send(example);
                    }}
                    className="w-full rounded-md border border-ink-700 bg-ink-850/60 px-3 py-2 text-left text-sm text-muted transition-colors hover:border-term-green/60 hover:text-fg focus-visible:outline-2 focus-visible:outline-term-cyan disabled:opacity-50"
                  >
                    {example}
                  </button>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="tools-heading">
            <h2 id="tools-heading" className="font-mono text-sm font-semibold text-fg">
              Tool progress
            </h2>
            <div aria-live="polite" className="mt-3">
              <ToolProgress
                tools={chat.tools}
                streaming={chat.streaming}
                emptyText="No tool calls yet. They appear here while the agent answers."
              />
            </div>
          </section>
        </aside>
      </div>
    </Page>
  );
}
