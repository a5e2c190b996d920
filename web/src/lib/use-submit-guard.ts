import { type FormEvent, useCallback, useRef, useState } from 'react';

/** A form's send: the sending under way, or nothing when nothing was sent (a check failed). */
export type Send = () => Promise<unknown> | undefined;

/** What `useSubmitGuard` gives a form: whether its send is under way, and the guarded send. */
export interface SubmitGuard {
  /** True from the start of a send until it settles: the submit button is disabled meanwhile. */
  pending: boolean;
  /**
   * Starts `send` unless a send of this form is still under way; a second press is ignored.
   * `send` returns nothing when it sent nothing (a check failed), so the form is not busy.
   * A rejected send is swallowed here: the mutation's own `onError` has said why.
   * Returns whether `send` ran.
   */
  run: (send: Send) => boolean;
  /** A form's `onSubmit`: stops the page load, then `run`s `send`. */
  onSubmit: (send: Send) => (event: FormEvent) => void;
}

/**
 * Guards a form that writes against a second press (a double click, Enter pressed twice). The
 * guard is a ref, set in the same event as the first press: a mutation's `isPending` changes only
 * at the next render, and both clicks of a double click arrive before it, which made two rows.
 */
export function useSubmitGuard(): SubmitGuard {
  const running = useRef(false);
  const [pending, setPending] = useState(false);
  const run = useCallback((send: Send) => {
    if (running.current) return false;
    running.current = true;
    let sending: Promise<unknown> | undefined;
    try {
      sending = send();
    } catch (err) {
      running.current = false;
      throw err;
    }
    if (!sending) {
      running.current = false;
      return true;
    }
    setPending(true);
    const done = () => {
      running.current = false;
      setPending(false);
    };
    sending.then(done, done);
    return true;
  }, []);
  const onSubmit = useCallback(
    (send: Send) => (event: FormEvent) => {
      event.preventDefault();
      run(send);
    },
    [run],
  );
  return { pending, run, onSubmit };
}

/** What an action returned, as a guard's send: its promise, or nothing when it returned none. */
export function sending(result: unknown): Promise<unknown> | undefined {
  return result instanceof Promise ? result : undefined;
}
