import * as Dialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { type ReactNode, type RefObject, useRef } from 'react';
import { buttonClasses } from '@/components/ui/button';
import { cn } from '@/lib/cn';

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Shown in the terminal-style title bar. */
  windowTitle: string;
  title: ReactNode;
  description?: ReactNode;
  /**
   * Gets focus back when the modal closes; without it, what had focus when the modal opened (the
   * button that opened it) gets it back.
   */
  returnFocusTo?: RefObject<HTMLElement | null>;
  children: ReactNode;
  /** `alert` for confirmations: Escape still cancels, a click outside does not. */
  role?: 'dialog' | 'alertdialog';
  /** `lg` for forms with many fields (the members area's dialogs). */
  size?: 'md' | 'lg';
  className?: string;
}

/** A centred modal drawn as a terminal window; focus is trapped inside while it is open. */
export function Modal({
  open,
  onOpenChange,
  windowTitle,
  title,
  description,
  returnFocusTo,
  children,
  role = 'dialog',
  size = 'md',
  className,
}: ModalProps) {
  // Radix returns focus only to a Dialog.Trigger, and these modals open from plain buttons.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[70] bg-ink-950/80 backdrop-blur-sm motion-safe:animate-fade-up" />
        <Dialog.Content
          role={role}
          // Without a description, say so explicitly (Radix links one otherwise).
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={() => {
            // Runs before focus moves into the modal: what has it now opened the modal.
            opener.current =
              document.activeElement instanceof HTMLElement &&
              document.activeElement !== document.body
                ? document.activeElement
                : null;
          }}
          onCloseAutoFocus={(event) => {
            const target = returnFocusTo?.current ?? opener.current;
            if (target?.isConnected) {
              event.preventDefault();
              target.focus();
            }
          }}
          onPointerDownOutside={(event) => {
            if (role === 'alertdialog') event.preventDefault();
          }}
          className={cn(
            'fixed top-1/2 left-1/2 z-[70] flex max-h-[calc(100dvh-2rem)] w-[calc(100%-1.5rem)] -translate-x-1/2 -translate-y-1/2 flex-col',
            size === 'lg' ? 'max-w-lg' : 'max-w-md',
            'overflow-hidden rounded-xl border border-ink-700 bg-ink-950 shadow-[0_30px_80px_-40px_rgb(34_211_238/0.45)] focus:outline-none',
            className,
          )}
        >
          <div className="flex shrink-0 items-center gap-2 border-b border-ink-800 bg-ink-850 py-1.5 pr-1.5 pl-4">
            <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-term-red/80" />
            <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-term-amber/80" />
            <span aria-hidden="true" className="h-2.5 w-2.5 rounded-full bg-term-green/80" />
            <span aria-hidden="true" className="ml-2 flex-1 truncate font-mono text-xs text-dim">
              {windowTitle}
            </span>
            <Dialog.Close
              className={cn(buttonClasses('ghost', 'sm'), 'w-9 px-0')}
              aria-label="Close"
            >
              <X size={18} aria-hidden="true" />
            </Dialog.Close>
          </div>
          <div className="overflow-y-auto overscroll-contain p-5 sm:p-6">
            <Dialog.Title className="text-xl font-semibold text-fg">{title}</Dialog.Title>
            {description ? (
              <Dialog.Description className="mt-2 text-sm text-muted">
                {description}
              </Dialog.Description>
            ) : null}
            <div className="mt-5">{children}</div>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
