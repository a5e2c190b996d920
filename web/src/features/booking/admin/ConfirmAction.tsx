import type { RefObject } from 'react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { sending, useSubmitGuard } from '@/lib/use-submit-guard';

export interface ConfirmActionProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  busy: boolean;
  danger?: boolean;
  /** The action; when it returns its sending (a promise), a second press is ignored until it settles. */
  onConfirm: () => unknown;
  /** Gets focus when the dialog closes, for an action that removes the button that opened it. */
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/** Asks before an action on a booking that mails its booker and cannot be undone. */
export function ConfirmAction({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  busy,
  danger = false,
  onConfirm,
  returnFocusTo,
}: ConfirmActionProps) {
  const guard = useSubmitGuard();
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      role="alertdialog"
      windowTitle="~ $ booking --confirm"
      title={title}
      description={description}
      returnFocusTo={returnFocusTo}
    >
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Back
        </Button>
        <Button
          className={
            danger ? 'bg-term-red text-ink-950 shadow-none hover:bg-term-red/85' : undefined
          }
          disabled={busy || guard.pending}
          onClick={() => guard.run(() => sending(onConfirm()))}
        >
          {busy || guard.pending ? 'Working…' : confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
