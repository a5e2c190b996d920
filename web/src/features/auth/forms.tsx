import { type ReactNode, useRef, useState } from 'react';
import { TextField } from '@/components/ui/text-field';
import type { User, WaitlistJoined } from '@/lib/api-types/web';
import { joinWaitlist } from './api/join-waitlist';
import { requestPasswordReset } from './api/request-password-reset';
import { resetPassword } from './api/reset-password';
import { signIn } from './api/sign-in';
import { signUp } from './api/sign-up';
import { type Action, Form, FormError, focusFirstInvalid, SubmitButton, useAction } from './fields';
import {
  collect,
  type Errors,
  emailError,
  passwordError,
  requiredError,
  SERVER_PASSWORD_MIN,
} from './validate';

/** What a success handler returns: `'keep-busy'` while it navigates away. */
type After = undefined | 'keep-busy';

/**
 * Field values and per-field errors of one form; editing a field clears its error. A server error
 * about a field (and its toast) goes once that field is edited to a value that passes the
 * server's rule as the browser can check it (`serverRules`; any edit for a field without one).
 */
function useFields<K extends string>(
  initial: Record<K, string>,
  action: Action,
  serverRules: Partial<Record<K, (value: string) => string | undefined>> = {},
) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors<K>>({});
  const change = (name: K) => (value: string) => {
    setValues((prev) => ({ ...prev, [name]: value }));
    setErrors((prev) => (prev[name] ? { ...prev, [name]: undefined } : prev));
    if (action.errorField === name && serverRules[name]?.(value) === undefined) {
      action.clearError();
    }
  };
  /** The value, change handler and error of one field, to spread onto its TextField. */
  const field = (name: K): FieldBinding => ({
    value: values[name],
    onValueChange: change(name),
    error: errors[name],
  });
  return { values, setErrors, field };
}

interface FieldBinding {
  value: string;
  onValueChange: (value: string) => void;
  error: string | undefined;
}

function EmailField(props: FieldBinding) {
  return (
    <TextField
      mono
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      inputMode="email"
      required
      {...props}
    />
  );
}

function FullNameField(props: FieldBinding) {
  return (
    <TextField mono label="Full name" name="full_name" autoComplete="name" required {...props} />
  );
}

/**
 * Validates with `check`; when something is wrong shows it and focuses the first bad field,
 * otherwise returns true.
 */
function useValidation<K extends string>(
  order: readonly K[],
  setErrors: (errors: Errors<K>) => void,
) {
  const formRef = useRef<HTMLFormElement>(null);
  const validate = (errors: Errors<K>): boolean => {
    const found = collect(errors);
    if (!found) {
      setErrors({});
      return true;
    }
    setErrors(found);
    focusFirstInvalid(
      formRef.current,
      order.filter((name) => found[name] !== undefined),
    );
    return false;
  };
  return { formRef, validate };
}

export interface SignInFormProps {
  /** Browser-side minimum password length (the login modal checks 6; the auth page none). */
  passwordMin?: number;
  onSignedIn: (user: User) => After;
  onForgotPassword: () => void;
  /** Filled in when coming back from the reset view. */
  initialEmail?: string;
}

export function SignInForm({
  passwordMin = 0,
  onSignedIn,
  onForgotPassword,
  initialEmail = '',
}: SignInFormProps) {
  const action = useAction();
  const { values, setErrors, field } = useFields({ email: initialEmail, password: '' }, action, {
    email: emailError,
  });
  const { formRef, validate } = useValidation(['email', 'password'], setErrors);
  const submit = () => {
    const ok = validate({
      email: emailError(values.email),
      password: passwordError(values.password, passwordMin),
    });
    if (!ok) return;
    void action.run(async () => onSignedIn(await signIn(values.email.trim(), values.password)));
  };
  return (
    <Form label="Sign in" onSubmit={submit} formRef={formRef}>
      <EmailField {...field('email')} />
      <TextField
        mono
        label="Password"
        name="password"
        type="password"
        autoComplete="current-password"
        required
        minLength={passwordMin > 0 ? passwordMin : undefined}
        {...field('password')}
      />
      <div className="-mt-2 flex justify-end">
        <button type="button" onClick={onForgotPassword} className={linkButton}>
          Forgot password?
        </button>
      </div>
      <FormError message={action.error} />
      <SubmitButton busy={action.busy} label="Sign In" busyLabel="Signing in..." />
    </Form>
  );
}

/** A link or link-like button in running text: underlined, so it is told apart without colour. */
export const linkButton =
  'rounded-sm font-mono text-sm text-term-cyan underline underline-offset-4 hover:text-fg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-term-cyan';

export interface SignUpFormProps {
  onSignedUp: (user: User) => After;
}

export function SignUpForm({ onSignedUp }: SignUpFormProps) {
  const action = useAction();
  const { values, setErrors, field } = useFields(
    { full_name: '', email: '', password: '' },
    action,
    {
      full_name: (value) => requiredError(value, 'Full name'),
      email: emailError,
      password: (value) => passwordError(value, SERVER_PASSWORD_MIN),
    },
  );
  const { formRef, validate } = useValidation(['full_name', 'email', 'password'], setErrors);
  const submit = () => {
    const ok = validate({
      full_name: requiredError(values.full_name, 'Full name'),
      email: emailError(values.email),
      // No length rule here: the server's message explains its minimum (see the hint).
      password: passwordError(values.password),
    });
    if (!ok) return;
    void action.run(async () =>
      onSignedUp(await signUp(values.full_name.trim(), values.email.trim(), values.password)),
    );
  };
  return (
    <Form label="Sign up" onSubmit={submit} formRef={formRef}>
      <FullNameField {...field('full_name')} />
      <EmailField {...field('email')} />
      <TextField
        mono
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint={`At least ${SERVER_PASSWORD_MIN} characters.`}
        {...field('password')}
      />
      <FormError message={action.error} />
      <SubmitButton busy={action.busy} label="Sign Up" busyLabel="Creating account..." />
    </Form>
  );
}

export interface ForgotPasswordFormProps {
  initialEmail?: string;
  onSent: (email: string) => After;
  /** Extra controls under the button (e.g. "Back to login"). */
  footer?: ReactNode;
}

export function ForgotPasswordForm({ initialEmail = '', onSent, footer }: ForgotPasswordFormProps) {
  const action = useAction();
  const { values, setErrors, field } = useFields({ email: initialEmail }, action, {
    email: emailError,
  });
  const { formRef, validate } = useValidation(['email'], setErrors);
  const submit = () => {
    if (!validate({ email: emailError(values.email) })) return;
    const email = values.email.trim();
    void action.run(async () => {
      await requestPasswordReset(email);
      return onSent(email);
    });
  };
  return (
    <Form label="Reset password" onSubmit={submit} formRef={formRef}>
      <EmailField {...field('email')} />
      <FormError message={action.error} />
      <SubmitButton busy={action.busy} label="Send Reset Link" busyLabel="Sending..." />
      {footer}
    </Form>
  );
}

export interface NewPasswordFormProps {
  token: string;
  onReset: (user: User) => After;
}

/** The form behind a mailed reset link: a new password, typed twice. */
export function NewPasswordForm({ token, onReset }: NewPasswordFormProps) {
  const action = useAction();
  const { values, setErrors, field } = useFields({ password: '', confirm: '' }, action, {
    password: (value) => passwordError(value, SERVER_PASSWORD_MIN),
  });
  const { formRef, validate } = useValidation(['password', 'confirm'], setErrors);
  const submit = () => {
    const ok = validate({
      password: passwordError(values.password, SERVER_PASSWORD_MIN),
      confirm:
        values.confirm === ''
          ? 'Type the new password again.'
          : values.confirm !== values.password
            ? 'The passwords do not match.'
            : undefined,
    });
    if (!ok) return;
    void action.run(async () => onReset(await resetPassword(token, values.password)));
  };
  return (
    <Form label="Set a new password" onSubmit={submit} formRef={formRef}>
      <TextField
        mono
        label="New password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        minLength={SERVER_PASSWORD_MIN}
        hint={`At least ${SERVER_PASSWORD_MIN} characters.`}
        {...field('password')}
      />
      <TextField
        mono
        label="Confirm new password"
        name="confirm"
        type="password"
        autoComplete="new-password"
        required
        {...field('confirm')}
      />
      <FormError message={action.error} />
      <SubmitButton busy={action.busy} label="Set New Password" busyLabel="Saving..." />
    </Form>
  );
}

export interface WaitlistFormProps {
  onJoined: (answer: WaitlistJoined) => After;
}

export function WaitlistForm({ onJoined }: WaitlistFormProps) {
  const action = useAction();
  const { values, setErrors, field } = useFields({ full_name: '', email: '' }, action, {
    full_name: (value) => requiredError(value, 'Full name'),
    email: emailError,
  });
  const { formRef, validate } = useValidation(['full_name', 'email'], setErrors);
  const submit = () => {
    const ok = validate({
      full_name: requiredError(values.full_name, 'Full name'),
      email: emailError(values.email),
    });
    if (!ok) return;
    void action.run(async () =>
      onJoined(await joinWaitlist(values.full_name.trim(), values.email.trim())),
    );
  };
  return (
    <Form label="Join the wait list" onSubmit={submit} formRef={formRef}>
      <FullNameField {...field('full_name')} />
      <EmailField {...field('email')} />
      <FormError message={action.error} />
      <SubmitButton busy={action.busy} label="Join Wait List" busyLabel="Joining..." />
    </Form>
  );
}
