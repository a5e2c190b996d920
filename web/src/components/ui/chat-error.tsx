import { RotateCcw } from 'lucide-react';
import { Button } from './button';

/** Why an answer failed, announced as an alert, with a Retry that asks again. */
export function ChatError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-term-red/40 bg-term-red/10 px-3 py-2 text-sm text-term-red"
    >
      <span className="min-w-0 break-words">{message}</span>
      <Button variant="outline" size="sm" onClick={onRetry}>
        <RotateCcw size={16} aria-hidden="true" />
        Retry
      </Button>
    </div>
  );
}
