import type { ReactNode } from 'react';

interface DialogButtonProps {
  children: ReactNode;
  className?: string;
}

/** Opens the Member Login modal (login and reset-password views). */
export function LoginDialogButton({ children, className }: DialogButtonProps) {
  return (
    <button type="button" className={className}>
      {children}
    </button>
  );
}

/** Opens the Join the Wait List modal. */
export function WaitlistDialogButton({ children, className }: DialogButtonProps) {
  return (
    <button type="button" className={className}>
      {children}
    </button>
  );
}
