import * as Dialog from '@radix-ui/react-dialog';
import { CalendarClock, X } from 'lucide-react';
import { GoalPlanner } from '@/components/goal-planner';
import { buttonClasses } from '@/components/ui/button';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';

export interface GoalDialogProps {
  onClose: () => void;
}

/**
 * The goal-planning dialog Home opens for `/?goal=true`: the same planner as /goal (the built-in
 * one, or the operator's external widget when TRIBE_GOAL_WIDGET_URL is set).
 */
export function GoalDialog({ onClose }: GoalDialogProps) {
  return (
    <Dialog.Root
      defaultOpen
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-ink-950/80 backdrop-blur-sm" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-h-[calc(100dvh-2rem)] max-w-xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl border border-ink-700 bg-ink-850 p-6 shadow-2xl focus-visible:outline-none">
          <Dialog.Title className="font-mono text-lg font-semibold text-fg">
            <span className="text-term-green">$</span> goal --plan
          </Dialog.Title>
          <Dialog.Description className="mt-3 text-sm text-muted">
            Describe a goal and get a step-by-step plan, with resources and the coaching session
            that fits.
          </Dialog.Description>
          <div className="mt-4">
            <GoalPlanner compact />
          </div>
          <Link
            to="/booking"
            onClick={scrollToTopSmooth}
            className={buttonClasses('outline', 'md', 'mt-5 w-full sm:w-auto')}
          >
            <CalendarClock size={16} aria-hidden="true" />
            Book a session
          </Link>
          <Dialog.Close
            aria-label="Close"
            className="absolute top-4 right-4 rounded-md p-1 text-muted hover:text-fg"
          >
            <X size={18} aria-hidden="true" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
