import {
  type FormEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { buttonClasses } from '@/components/ui/button';
import { ApiError, errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { session } from '@/lib/session';
import { toast } from '@/lib/toast';

export interface SubmitButtonProps {
  busy: boolean;
  label: string;
  busyLabel: string;
  className?: string;
}

/**
 * The form's submit button. While a request runs it shows the busy label and ignores clicks; it
 * stays focusable (aria-disabled rather than disabled) so keyboard focus is not lost.
 */
export function SubmitButton({ busy, label, busyLabel, className }: SubmitButtonProps) {
  return (
    <button
      type="submit"
      aria-disabled={busy || undefined}
      className={buttonClasses(
        'primary',
        'md',
        cn('w-full', busy && 'cursor-wait opacity-70', className),
      )}
    >
      {busy ? busyLabel : label}
    </button>
  );
}

/** A message for the whole form (the server's answer), announced when it appears. */
export function FormError({ message }: { message: string | null }) {
  return (
    <div role="alert" className="empty:hidden">
      {message ? (
        <p className="rounded-md border border-term-red/50 bg-term-red/10 px-3 py-2 text-sm text-term-red">
          {message}
        </p>
      ) : null}
    </div>
  );
}

export interface Action {
  busy: boolean;
  error: string | null;
  /** The form field the server's error is about, when it named one. */
  errorField: string | null;
  /**
   * Runs `work` unless a run is under way. A thrown error is shown in the form and as an 'Error'
   * toast with the server's message; a 401 also tells the session store. `work` may return
   * `'keep-busy'` when it is navigating away, so the button stays busy until the page changes.
   * When `work` succeeds, the error and its toast go: they no longer apply.
   */
  run: (work: () => Promise<undefined | 'keep-busy'>) => Promise<void>;
  /** Takes the error and its toast away (the field it was about now looks right). */
  clearError: () => void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; field: string | null } | null>(null);
  const running = useRef(false);
  const mounted = useRef(true);
  // One toast per form: a second failure replaces the first instead of stacking under it.
  const toastId = `form-error-${useId()}`;
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    async (work: () => Promise<undefined | 'keep-busy'>) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      setError(null);
      let keep = false;
      try {
        keep = (await work()) === 'keep-busy';
        toast.dismiss(toastId);
      } catch (caught) {
        session.reportError(caught);
        const message = errorMessage(caught);
        void toast.error('Error', message, { id: toastId });
        const field = caught instanceof ApiError ? (caught.field ?? null) : null;
        if (mounted.current) setError({ message, field });
      } finally {
        if (!keep) {
          running.current = false;
          if (mounted.current) setBusy(false);
        }
      }
    },
    [toastId],
  );

  const clearError = useCallback(() => {
    toast.dismiss(toastId);
    setError(null);
  }, [toastId]);
  return {
    busy,
    error: error?.message ?? null,
    errorField: error?.field ?? null,
    run,
    clearError,
  };
}

/** Focuses the first field named in `errors` (in form order), so keyboard users land on it. */
export function focusFirstInvalid(form: HTMLFormElement | null, names: readonly string[]): void {
  if (!form) return;
  for (const name of names) {
    const input = form.elements.namedItem(name);
    if (input instanceof HTMLInputElement) {
      input.focus();
      return;
    }
  }
}

/** A form that leaves validation to the app (visible messages instead of browser bubbles). */
export function Form({
  onSubmit,
  children,
  label,
  formRef,
}: {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
  label: string;
  formRef?: Ref<HTMLFormElement>;
}) {
  return (
    <form
      ref={formRef}
      noValidate
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event);
      }}
      className="flex flex-col gap-4"
    >
      {children}
    </form>
  );
}
