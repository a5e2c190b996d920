import { type RefObject, useEffect, useState } from 'react';
import { Modal } from '@/components/ui/modal';
import { session } from '@/lib/session';
import { preloadToasts, toast } from '@/lib/toast';
import { ForgotPasswordForm, linkButton, SignInForm } from './forms';
import { loadPage, MODAL_REDIRECT_DELAY_MS } from './navigation';
import { MODAL_PASSWORD_MIN } from './validate';

export interface LoginDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}

type View = { name: 'login'; email: string } | { name: 'reset'; email: string };

/**
 * The Tribe page's Member Login modal, with a Reset Password view. Signing in loads the members
 * area as a full page once the welcome toast is up and has been seen for a moment: the toast
 * library starts loading when the dialog opens, and the page waits for it however slow it is.
 */
export function LoginDialog({ open, onOpenChange, returnFocusTo }: LoginDialogProps) {
  const [view, setView] = useState<View>({ name: 'login', email: '' });
  useEffect(() => {
    if (open) preloadToasts();
  }, [open]);

  const change = (next: boolean) => {
    if (!next) setView({ name: 'login', email: '' });
    onOpenChange(next);
  };

  if (view.name === 'reset') {
    return (
      <Modal
        open={open}
        onOpenChange={change}
        windowTitle="~/tribe $ passwd --reset"
        title="Reset Password"
        description="Enter your account's email and we will send you a link to set a new password."
        returnFocusTo={returnFocusTo}
      >
        <ForgotPasswordForm
          key="reset"
          initialEmail={view.email}
          onSent={(email) => {
            toast.success('Check your email', "We've sent you a password reset link.");
            setView({ name: 'login', email });
            return undefined;
          }}
          footer={
            <p className="text-center">
              <button
                type="button"
                className={linkButton}
                onClick={() => setView({ name: 'login', email: view.email })}
              >
                Back to login
              </button>
            </p>
          }
        />
      </Modal>
    );
  }

  return (
    <Modal
      open={open}
      onOpenChange={change}
      windowTitle="~/tribe $ login"
      title="Member Login"
      description="Sign in to reach the members area."
      returnFocusTo={returnFocusTo}
    >
      <SignInForm
        key={`login-${view.email}`}
        initialEmail={view.email}
        passwordMin={MODAL_PASSWORD_MIN}
        onForgotPassword={() => setView({ name: 'reset', email: '' })}
        onSignedIn={(user) => {
          session.signedIn(user);
          void toast.success('Welcome back!', 'Redirecting to members area...').then(() => {
            window.setTimeout(() => loadPage('/members'), MODAL_REDIRECT_DELAY_MS);
          });
          return 'keep-busy';
        }}
      />
    </Modal>
  );
}
