import { Sparkles, Square } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ChatError } from '@/components/ui/chat-error';
import { ChatTranscript } from '@/components/ui/chat-transcript';
import { FormField } from '@/components/ui/form-field';
import { ToolProgress } from '@/components/ui/tool-progress';
import { pageConfig } from '@/lib/page-config';
import { useChat } from '@/lib/use-chat';

/**
 * The goal planner, shared by the /goal page and Home's goal dialog (`/?goal=true`). Built in, it
 * asks the site's AI for a step-by-step plan (POST /api/ai/chat with purpose "goal"): milestones,
 * resources from the knowledge base and the coaching session that fits. When the operator set
 * TRIBE_GOAL_WIDGET_URL, the server says so in #tribe-config and the external widget script is
 * loaded into a container instead, with {@link GOAL_WIDGET_CONFIG} as its configuration.
 */

/** The goal the planner starts with. */
export const DEFAULT_GOAL =
  'Research quantum computing: understand the basics, where it stands today, and how it could change AI in the next five years.';

/** The configuration an external goal widget reads from `window.goalWidgetConfig`. */
export const GOAL_WIDGET_CONFIG = {
  title: 'Plan your goal',
  defaultGoal: DEFAULT_GOAL,
  aiEnabled: true,
  model: 'gemini-2.5-flash',
} as const;

/** The id of the element an external widget renders into. */
export const GOAL_WIDGET_CONTAINER_ID = 'goal-widget';

declare global {
  interface Window {
    goalWidgetConfig?: typeof GOAL_WIDGET_CONFIG & { container: string };
  }
}

export interface GoalPlannerProps {
  /** Tighter layout for the dialog. */
  compact?: boolean;
}

/** The built-in planner, or the operator's external widget when one is configured. */
export function GoalPlanner({ compact = false }: GoalPlannerProps) {
  // Read once: the page settings never change while the page is open.
  const [widgetURL] = useState(() => pageConfig().goal_widget_url);
  return widgetURL ? <GoalWidget url={widgetURL} /> : <BuiltInPlanner compact={compact} />;
}

type WidgetState = 'loading' | 'ready' | 'failed';

/** Loads the external widget script once, into its container. */
function GoalWidget({ url }: { url: string }) {
  const [state, setState] = useState<WidgetState>('loading');
  useEffect(() => {
    window.goalWidgetConfig = { ...GOAL_WIDGET_CONFIG, container: `#${GOAL_WIDGET_CONTAINER_ID}` };
    const script = document.createElement('script');
    script.src = url;
    script.async = true;
    script.dataset.goalWidget = '';
    script.onload = () => setState('ready');
    script.onerror = () => setState('failed');
    document.body.appendChild(script);
    return () => script.remove();
  }, [url]);
  return (
    <div className="flex flex-col gap-3">
      <div
        id={GOAL_WIDGET_CONTAINER_ID}
        data-testid="goal-widget-mount"
        className="min-h-24 rounded-md border border-ink-700"
      />
      {state === 'loading' ? (
        <p role="status" className="font-mono text-sm text-dim">
          Loading the goal planner…
        </p>
      ) : null}
      {state === 'failed' ? (
        <p role="alert" className="text-sm text-term-red">
          The goal planner could not be loaded. Try again later, or book a session to plan your goal
          together.
        </p>
      ) : null}
    </div>
  );
}

function BuiltInPlanner({ compact }: { compact: boolean }) {
  const chat = useChat({ purpose: 'goal' });
  const [goal, setGoal] = useState(DEFAULT_GOAL);
  const [goalError, setGoalError] = useState<string | undefined>();
  const headingId = useId();
  const answer = chat.entries.filter((e) => e.role === 'assistant');

  const plan = () => {
    if (goal.trim() === '') {
      setGoalError('Please enter a goal');
      return;
    }
    setGoalError(undefined);
    // Each plan stands alone: a new goal starts a new conversation.
    chat.clear();
    chat.send(goal);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    plan();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    if (!chat.streaming) plan();
  };

  return (
    <div className="flex min-w-0 flex-col gap-4">
      <form onSubmit={onSubmit} className="flex flex-col gap-3">
        <FormField
          label="Your goal"
          error={goalError}
          hint="What do you want to achieve? Enter plans it; Shift+Enter adds a new line."
          size={compact ? 'sm' : 'md'}
        >
          {(control) => (
            <textarea
              {...control}
              rows={compact ? 3 : 4}
              value={goal}
              onChange={(event) => {
                setGoal(event.target.value);
                if (goalError) setGoalError(undefined);
              }}
              onKeyDown={onKeyDown}
              className="w-full resize-y rounded-md border border-ink-600 bg-ink-900 px-3 py-2 text-sm text-fg placeholder:text-dim focus-visible:border-term-cyan focus-visible:outline-none"
            />
          )}
        </FormField>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" disabled={chat.streaming || goal.trim() === ''}>
            <Sparkles size={14} aria-hidden="true" />
            {answer.length > 0 && !chat.streaming ? 'Plan again' : 'Plan my goal'}
          </Button>
          {chat.streaming ? (
            <Button variant="outline" size="sm" onClick={chat.stop}>
              <Square size={14} aria-hidden="true" />
              Stop
            </Button>
          ) : null}
        </div>
      </form>

      {chat.entries.length > 0 ? (
        <section aria-labelledby={headingId} className="flex min-w-0 flex-col gap-3">
          <h2 id={headingId} className="font-mono text-sm font-semibold text-fg">
            Your plan
          </h2>
          <ToolProgress tools={chat.tools} streaming={chat.streaming} />
          <ChatTranscript
            label="Your plan"
            entries={answer}
            streaming={chat.streaming}
            // On its own page the plan grows with the page; in the dialog it scrolls inside.
            className={compact ? 'max-h-[45vh]' : undefined}
            empty={chat.streaming ? 'Planning…' : 'No plan yet.'}
          />
          {chat.failure && !chat.streaming ? (
            <ChatError failure={chat.failure} onRetry={chat.retry} />
          ) : null}
        </section>
      ) : null}
    </div>
  );
}
