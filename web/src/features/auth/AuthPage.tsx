import * as Tabs from '@radix-ui/react-tabs';
import { useEffect, useRef, useState } from 'react';
import { Card } from '@/components/ui/card';
import { Modal } from '@/components/ui/modal';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { TerminalWindow } from '@/components/ui/terminal-window';
import { signOut } from '@/lib/auth-api';
import { cn } from '@/lib/cn';
import { Link, useNavigate, useSearchParams } from '@/lib/router';
import { session, useSession } from '@/lib/session';
import { toast } from '@/lib/toast';
import { useHydrated } from '@/lib/use-hydrated';
import { ForgotPasswordForm, linkButton, NewPasswordForm, SignInForm, SignUpForm } from './forms';
import { afterSignInPath, isServerPage, loadPage } from './navigation';

const NO_PARAMS = new URLSearchParams();

/** What the members area has; each line names something that exists there. */
const memberAreas: ReadonlyArray<readonly [string, string]> = [
  ['cohorts/', 'small groups of up to five builders: create one or join'],
  ['sessions/', 'bi-weekly two-hour live sessions, in your time zone and calendar'],
  ['chat/', 'the members’ group chat between sessions'],
  ['profile/', 'your details and avatar'],
];

/** Why a confirmation link failed, by the code the server puts in `confirm_error`. */
export function confirmErrorMessage(code: string): string {
  switch (code) {
    case 'expired':
      return 'This confirmation link has expired. Sign in and ask for a new one from the members area.';
    case 'used':
      return 'This confirmation link has already been used. Your address may already be confirmed: sign in to check.';
    case 'failed':
      return 'We could not confirm your address just now. Please open the link again in a moment.';
    case 'signin':
      return 'Sign in first, then open the link in the e-mail again: a confirmation link only works in a browser signed in to the account it confirms.';
    default:
      return 'This confirmation link is not valid. Sign in and ask for a new one from the members area.';
  }
}

const tabClass = cn(
  'flex-1 rounded-md px-3 py-2 font-mono text-sm text-muted transition-colors',
  'hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-term-cyan',
  'data-[state=active]:bg-ink-800 data-[state=active]:text-term-green',
);

/**
 * /auth: sign in, sign up, forgot password, and the target of mailed reset links
 * (`?reset=true&token=…`). A visitor who already has a session goes on to /members (keeping the
 * other query parameters, dropping `return`), except with `logged_out=true`, which signs this
 * browser out and stays.
 *
 * The page is prerendered without a query string, so everything that reads it waits until
 * hydration is over (useHydrated) and the first client render matches the HTML.
 */
export function AuthPage() {
  const hydrated = useHydrated();
  const [searchParams] = useSearchParams();
  const params = hydrated ? searchParams : NO_PARAMS;
  const reset = params.get('reset') === 'true';
  const token = params.get('token') ?? '';
  const loggedOut = params.get('logged_out') === 'true';
  const confirmError = params.get('confirm_error');
  const returnTo = afterSignInPath(params);

  const state = useSession();
  const navigate = useNavigate();
  const [forgotOpen, setForgotOpen] = useState(false);
  const forgotButton = useRef<HTMLButtonElement | null>(null);

  // Decide once, when the session is first known: a member is sent on, unless signing out.
  const decided = useRef(false);
  useEffect(() => {
    if (!hydrated || decided.current || state.status === 'unknown') return;
    decided.current = true;
    if (state.status !== 'signed-in') return;
    if (loggedOut) {
      signOut('local')
        .catch(() => {})
        .finally(() => session.signedOut());
      return;
    }
    // Someone following a reset link means to set a password, session or not.
    if (reset && token) return;
    // An assistant's consent page sent them to sign in: they are, so back to it.
    if (isServerPage(returnTo)) {
      loadPage(returnTo);
      return;
    }
    const kept = new URLSearchParams(searchParams);
    kept.delete('return');
    const query = kept.toString();
    navigate(`/members${query ? `?${query}` : ''}`, { replace: true });
  }, [hydrated, state.status, loggedOut, reset, token, searchParams, navigate, returnTo]);

  const openForgot = () => {
    forgotButton.current =
      document.activeElement instanceof HTMLButtonElement ? document.activeElement : null;
    setForgotOpen(true);
  };

  return (
    <Page title="Member Login">
      <PageHeader
        command={reset ? 'passwd --reset' : 'login'}
        title="Welcome to the Tribe"
        lead={
          reset
            ? 'Choose a new password for your account.'
            : 'Sign in to the members area, or create an account to get started.'
        }
      />

      <div className="mt-10 grid items-start gap-8 lg:grid-cols-[minmax(0,28rem)_minmax(0,1fr)] lg:gap-12">
        <div className="flex flex-col gap-4">
          {confirmError !== null ? (
            <p
              role="alert"
              className="rounded-md border border-term-amber/50 bg-term-amber/10 px-4 py-3 text-sm text-term-amber"
            >
              {confirmErrorMessage(confirmError)}
            </p>
          ) : null}
          {loggedOut ? (
            <p
              role="status"
              className="rounded-md border border-ink-700 bg-ink-850 px-4 py-3 text-sm text-muted"
            >
              You have been logged out.
            </p>
          ) : null}

          <Card className="p-5 sm:p-6">
            {reset ? (
              <section aria-labelledby="reset-heading">
                <h2 id="reset-heading" className="text-xl font-semibold text-fg">
                  Set a new password
                </h2>
                {token ? (
                  <div className="mt-5">
                    <NewPasswordForm
                      token={token}
                      onReset={(user) => {
                        session.signedIn(user);
                        toast.success(
                          'Password updated',
                          'Your new password is set. Redirecting to members area...',
                        );
                        navigate('/members', { replace: true });
                        return 'keep-busy';
                      }}
                    />
                  </div>
                ) : (
                  <div className="mt-3 flex flex-col items-start gap-4">
                    <p className="text-sm text-muted">
                      This reset link is incomplete. Open the link from the email again, or ask for
                      a new one.
                    </p>
                    <button type="button" className={linkButton} onClick={openForgot}>
                      Send a new reset link
                    </button>
                  </div>
                )}
                <p className="mt-5 border-t border-ink-800 pt-4 text-center text-sm text-muted">
                  Remembered it?{' '}
                  <Link to="/auth" replace className={linkButton}>
                    Back to sign in
                  </Link>
                </p>
              </section>
            ) : (
              <Tabs.Root defaultValue="signin">
                <Tabs.List
                  aria-label="Sign in or sign up"
                  className="flex gap-1 rounded-lg border border-ink-700 bg-ink-900 p-1"
                >
                  <Tabs.Trigger value="signin" className={tabClass}>
                    Sign In
                  </Tabs.Trigger>
                  <Tabs.Trigger value="signup" className={tabClass}>
                    Sign Up
                  </Tabs.Trigger>
                </Tabs.List>
                <Tabs.Content value="signin" className="mt-6 focus-visible:outline-none">
                  <SignInForm
                    onForgotPassword={openForgot}
                    onSignedIn={(user) => {
                      session.signedIn(user);
                      toast.success('Welcome back!', 'You have successfully logged in.');
                      if (isServerPage(returnTo)) loadPage(returnTo);
                      else navigate(returnTo);
                      return 'keep-busy';
                    }}
                  />
                </Tabs.Content>
                <Tabs.Content value="signup" className="mt-6 focus-visible:outline-none">
                  <SignUpForm
                    onSignedUp={(user) => {
                      session.signedIn(user);
                      toast.success(
                        'Account created!',
                        'You have successfully signed up. Redirecting to members area...',
                      );
                      // A new member an assistant sent here goes back to its consent page.
                      if (isServerPage(returnTo)) loadPage(returnTo);
                      else navigate('/members');
                      return 'keep-busy';
                    }}
                  />
                </Tabs.Content>
              </Tabs.Root>
            )}
          </Card>
        </div>

        <TerminalWindow title="~/tribe/members" className="hidden lg:block">
          <p>
            <span className="text-term-green">$</span> ls ~/tribe/members
          </p>
          <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5">
            {memberAreas.map(([name, text]) => (
              <div key={name} className="contents">
                <dt className="text-term-cyan">{name}</dt>
                <dd className="text-muted">{text}</dd>
              </div>
            ))}
          </dl>
          <p className="mt-5">
            <span className="text-term-green">$</span> ask
          </p>
          <p className="mt-1.5 text-muted">
            Questions first? The console on the{' '}
            <Link to="/" className="text-term-cyan underline underline-offset-4 hover:text-fg">
              home page
            </Link>{' '}
            answers them, no account needed.
          </p>
        </TerminalWindow>
      </div>

      <Modal
        open={forgotOpen}
        onOpenChange={setForgotOpen}
        windowTitle="~ $ passwd --forgot"
        title="Forgot password?"
        description="Enter your account's email and we will send you a link to set a new password."
        returnFocusTo={forgotButton}
      >
        <ForgotPasswordForm
          onSent={() => {
            toast.success('Check your email', "We've sent you a password reset link.");
            setForgotOpen(false);
            return undefined;
          }}
        />
      </Modal>
    </Page>
  );
}
