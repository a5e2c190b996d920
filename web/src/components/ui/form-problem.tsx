import { AlertTriangle } from 'lucide-react';
import { useEffect, useRef } from 'react';

/**
 * Why a form was not sent, above the form: announced as an alert and given focus each time the
 * message changes, so a keyboard or screen-reader user lands on it rather than on a dead button.
 */
export function FormProblem({ message }: { message: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      className="flex gap-3 rounded-md border border-term-amber/60 bg-term-amber/10 p-4 text-sm text-fg focus:outline-none"
    >
      <AlertTriangle size={18} aria-hidden="true" className="mt-0.5 shrink-0 text-term-amber" />
      <p>{message}</p>
    </div>
  );
}
