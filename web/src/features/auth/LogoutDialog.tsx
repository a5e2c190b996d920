import { type RefObject, useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Modal } from '@/components/ui/modal';
import { ApiError } from '@/lib/api';
import { signOut } from '@/lib/auth-api';
import { useLocation, useNavigate } from '@/lib/router';
import { session } from '@/lib/session';
import { toast } from '@/lib/toast';

export interface LogoutDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}

/**
 * Asks before signing out. Confirming ends this browser's session, tells the other tabs, shows
 * a toast and goes to the home page.
 */
export function LogoutDialog({ open, onOpenChange, returnFocusTo }: LogoutDialogProps) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [busy, setBusy] = useState(false);
  // The store learns of the sign-out only once the home page is showing: a members-only page
  // still on screen would otherwise react to it by sending the visitor to /auth.
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    if (!leaving || pathname !== '/') return;
    setLeaving(false);
    session.signedOut();
  }, [leaving, pathname]);

  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    session.setLeaving(true);
    try {
      await signOut('local');
    } catch (error) {
      // An expired session is as good as signed out; anything else is a failure to report.
      if (!(error instanceof ApiError && error.status === 401)) {
        setBusy(false);
        session.setLeaving(false);
        toast.error('Error', 'Failed to log out. Please try again.');
        return;
      }
    }
    toast.success('Logged out', 'You have been successfully logged out.');
    setBusy(false);
    onOpenChange(false);
    setLeaving(true);
    if (pathname !== '/') navigate('/');
  };

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      role="alertdialog"
      windowTitle="~ $ logout"
      title={
        <span className="font-mono">
          <span aria-hidden="true" className="text-term-green">
            ${' '}
          </span>
          logout
        </span>
      }
      description="Are you sure you want to log out?"
      returnFocusTo={returnFocusTo}
    >
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={() => onOpenChange(false)}>
          Cancel
        </Button>
        <Button
          variant="primary"
          aria-disabled={busy || undefined}
          onClick={() => void confirm()}
          className={busy ? 'cursor-wait opacity-70' : undefined}
        >
          {busy ? 'Logging out...' : 'Logout'}
        </Button>
      </div>
    </Modal>
  );
}
