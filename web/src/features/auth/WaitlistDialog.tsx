import type { RefObject } from 'react';
import { Modal } from '@/components/ui/modal';
import { toast } from '@/lib/toast';
import { WaitlistForm } from './forms';

/** Why a visitor joins the wait list: the tribe is full, or online payment is not set up yet. */
export type WaitlistReason = 'full' | 'payments-off';

export interface WaitlistDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
  /** Says why; without one the dialog makes no claim about seats. */
  reason?: WaitlistReason | undefined;
}

/** The dialog's first line: only says the tribe is full when it is. */
export function waitlistDescription(reason?: WaitlistReason): string {
  if (reason === 'full') {
    return 'The tribe is at capacity right now. Leave your name and email and you will be first to know when a spot opens.';
  }
  if (reason === 'payments-off') {
    return 'Online payment is not set up yet. Leave your name and email and you will be first to know when you can join.';
  }
  return 'Leave your name and email and you will be first to know when a new cohort opens.';
}

const nextSteps = [
  'A confirmation email, so you know you are on the list.',
  'A notification as soon as spots open up.',
  'Priority access: people on the list hear first.',
] as const;

/** The Tribe page's Join the Wait List modal. */
export function WaitlistDialog({ open, onOpenChange, returnFocusTo, reason }: WaitlistDialogProps) {
  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      windowTitle="~/tribe $ waitlist --join"
      title="Join the Wait List"
      description={waitlistDescription(reason)}
      returnFocusTo={returnFocusTo}
    >
      <div className="mb-5 rounded-md border border-ink-700 bg-ink-900 p-4">
        <p className="font-mono text-xs tracking-wide text-term-green uppercase">
          What happens next
        </p>
        <ul className="mt-2 flex flex-col gap-1.5 text-sm text-muted">
          {nextSteps.map((step) => (
            <li key={step} className="flex gap-2">
              <span aria-hidden="true" className="text-term-green">
                &gt;
              </span>
              {step}
            </li>
          ))}
        </ul>
      </div>
      <WaitlistForm
        onJoined={(answer) => {
          if (answer.status === 'already') {
            toast.success("You're already on the list", answer.message);
          } else {
            toast.success("You're on the list!", "We'll notify you when spots open up.");
          }
          onOpenChange(false);
          return undefined;
        }}
      />
    </Modal>
  );
}
