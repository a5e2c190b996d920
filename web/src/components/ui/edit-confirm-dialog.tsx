import { type ReactNode, type Ref, type RefObject, useRef, useState } from 'react';
import { sending, useSubmitGuard } from '@/lib/use-submit-guard';
import { Button } from './button';
import { Modal } from './modal';

/**
 * Which dialog of a list is open: the form for a new item (`add`) or for one item (`edit`), or
 * the question before deleting one (`delete`); null when none is.
 */
export type EditConfirmState<T> =
  | { kind: 'add' }
  | { kind: 'edit'; item: T }
  | { kind: 'delete'; item: T }
  | null;

/** The open dialog of a list and the ways to open and close it. */
export interface EditConfirmControl<T> {
  state: EditConfirmState<T>;
  add: () => void;
  edit: (item: T) => void;
  /** Opens the question before deleting `item`. */
  askDelete: (item: T) => void;
  close: () => void;
  /** Closes `opened` if it is still the open dialog (not one opened since). */
  closeIf: (opened: EditConfirmState<T>) => void;
  /** What had focus when the dialog opened (the button that opened it): it gets focus back. */
  opener: RefObject<HTMLElement | null>;
}

/** Keeps which of a list's dialogs is open, for `EditConfirmDialog`; none at first. */
export function useEditConfirm<T>(): EditConfirmControl<T> {
  const [state, setState] = useState<EditConfirmState<T>>(null);
  const opener = useRef<HTMLElement | null>(null);
  const open = (next: EditConfirmState<T>) => {
    // The dialogs open without a Radix trigger, which would otherwise be where focus returns.
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setState(next);
  };
  return {
    state,
    add: () => open({ kind: 'add' }),
    edit: (item) => open({ kind: 'edit', item }),
    askDelete: (item) => open({ kind: 'delete', item }),
    close: () => setState(null),
    closeIf: (opened) => setState((current) => (current === opened ? null : current)),
    opener,
  };
}

/** What the form dialog shows, for a new item or an existing one. */
export interface EditDialogContent {
  windowTitle: string;
  title: string;
  description?: ReactNode;
  /**
   * The form, usually an `EditForm` that sends through the `save` it was given; mounted anew at
   * each opening, so it starts from its item.
   */
  form: ReactNode;
}

/** What the question before a delete says. */
export interface ConfirmContent {
  title: string;
  description: ReactNode;
  confirmLabel: string;
}

export interface EditConfirmDialogProps<T, I> {
  /** From `useEditConfirm`; Cancel, the close button and Escape close the open dialog. */
  control: EditConfirmControl<T>;
  /**
   * The form dialog's content; `item` is null for a new item. `save` is what its form sends
   * through: it calls `onSave`, then closes the dialog when that is done.
   */
  edit: (item: T | null, save: (input: I) => Promise<void>) => EditDialogContent;
  /** Adds an item (`item` null) or changes one; refused (rejected), the form stays open. */
  onSave: (item: T | null, input: I) => Promise<unknown>;
  confirm: (item: T) => ConfirmContent;
  /**
   * Deletes the item. While it runs the delete button says so and cannot be pressed again; done,
   * the question closes; refused (rejected), it stays open and the caller says why.
   */
  onConfirm: (item: T) => Promise<unknown>;
}

/**
 * A list's add, edit and delete dialogs in one: the wide form dialog for adding or editing an
 * item, and the alert that asks before deleting one. Focus returns to what had it before, the
 * button that opened the dialog (a button removed meanwhile, like a deleted item's, cannot get it).
 */
export function EditConfirmDialog<T, I>({
  control: { state, close, closeIf, opener },
  edit,
  onSave,
  confirm,
  onConfirm,
}: EditConfirmDialogProps<T, I>) {
  // The question whose delete is under way, so a question asked meanwhile is not shown busy.
  const [deleting, setDeleting] = useState<EditConfirmState<T>>(null);
  const onOpenChange = (open: boolean) => {
    if (!open) close();
  };
  if (state?.kind === 'delete') {
    const asked = state;
    const remove = async () => {
      setDeleting(asked);
      try {
        await onConfirm(asked.item);
        closeIf(asked);
      } catch {
        // Refused: the question stays open to try again; the caller has said why.
      } finally {
        setDeleting((current) => (current === asked ? null : current));
      }
    };
    return (
      <ConfirmDialog
        open
        onOpenChange={onOpenChange}
        {...confirm(asked.item)}
        busy={deleting === asked}
        onConfirm={remove}
        returnFocusTo={opener}
      />
    );
  }
  if (state === null) return null;
  const opened = state;
  const item = opened.kind === 'edit' ? opened.item : null;
  const content = edit(item, async (input) => {
    await onSave(item, input);
    closeIf(opened);
  });
  return (
    <Modal
      open
      onOpenChange={onOpenChange}
      windowTitle={content.windowTitle}
      title={content.title}
      description={content.description}
      size="lg"
      className="max-w-2xl"
      returnFocusTo={opener}
    >
      {content.form}
    </Modal>
  );
}

export interface ConfirmDialogProps extends ConfirmContent {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  busy?: boolean;
  /** The action; when it returns its sending (a promise), a second press is ignored until it settles. */
  onConfirm: () => unknown;
  /** Gets focus back when the dialog closes. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/** Asks before something that cannot be undone; Escape and Cancel say no, a click outside does nothing. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  busy = false,
  onConfirm,
  returnFocusTo,
}: ConfirmDialogProps) {
  const guard = useSubmitGuard();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      role="alertdialog"
      size="lg"
      windowTitle="~ $ confirm"
      title={title}
      description={description}
      returnFocusTo={returnFocusTo}
    >
      <DialogActions onCancel={() => onOpenChange(false)}>
        <Button
          className="bg-term-red text-ink-950 shadow-none hover:bg-term-red/85"
          disabled={busy || guard.pending}
          onClick={() => guard.run(() => sending(onConfirm()))}
        >
          {busy || guard.pending ? 'Working…' : confirmLabel}
        </Button>
      </DialogActions>
    </Modal>
  );
}

export interface EditFormProps {
  ref?: Ref<HTMLFormElement>;
  /**
   * Checks the fields and sends them: returns nothing when a check failed (nothing was sent),
   * else the sending, during which the form is busy. It handles its own errors.
   */
  onSubmit: () => Promise<void> | undefined;
  onCancel: () => void;
  submitLabel: string;
  children: ReactNode;
}

/** A dialog's form: the fields, then Cancel and the submit button, which says Saving… while busy. */
export function EditForm({ ref, onSubmit, onCancel, submitLabel, children }: EditFormProps) {
  const guard = useSubmitGuard();
  return (
    <form ref={ref} noValidate onSubmit={guard.onSubmit(onSubmit)} className="flex flex-col gap-4">
      {children}
      <DialogActions onCancel={onCancel}>
        <Button type="submit" disabled={guard.pending}>
          {guard.pending ? 'Saving…' : submitLabel}
        </Button>
      </DialogActions>
    </form>
  );
}

/** Cancel and the dialog's action: side by side at the right, stacked with the action on top on phones. */
function DialogActions({ onCancel, children }: { onCancel: () => void; children: ReactNode }) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      <Button variant="outline" onClick={onCancel}>
        Cancel
      </Button>
      {children}
    </div>
  );
}
