import { RotateCcw } from 'lucide-react';
import type { ChatFailure } from '@/lib/use-chat';
import { Button } from './button';

const said: Record<ChatFailure, string> = {
  'no-answer': 'No answer this time.',
  'cut-short': 'The answer above stopped before it was complete.',
};

/**
 * A Retry for the answer that failed. Why it failed is the destructive toast's to say (spec:
 * members-area.md §8), so this row does not repeat the message in a second alert.
 */
export function ChatError({ failure, onRetry }: { failure: ChatFailure; onRetry: () => void }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-ink-700 bg-ink-900/60 px-3 py-2 text-sm text-muted">
      <span className="min-w-0 break-words">{said[failure]}</span>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCcw size={16} aria-hidden="true" />
        Retry
      </Button>
    </div>
  );
}
