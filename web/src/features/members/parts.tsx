/**
 * Small building blocks shared by the members tabs: the dialog frame, fields, skeletons, avatars.
 * The confirmation before a delete is components/ui/edit-confirm-dialog.tsx.
 */
import type { InputHTMLAttributes, ReactNode, RefObject, TextareaHTMLAttributes } from 'react';
import { FormField } from '@/components/ui/form-field';
import { Modal } from '@/components/ui/modal';
import { cn } from '@/lib/cn';
import { initials } from './logic';

// The loading, empty and failed states are shared by every feature; the members tabs import them
// from here as they always have.
export { EmptyState, LoadError, LoadingBlock, Skeleton } from '@/components/ui/query-state';

export interface MemberDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The terminal-style title bar text. */
  windowTitle: string;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** `alertdialog` for confirmations: a click outside does not close it. */
  role?: 'dialog' | 'alertdialog';
  /** Gets focus back when the dialog closes (the button that opened it). */
  returnFocusTo?: RefObject<HTMLElement | null>;
  className?: string;
}

/** The members area's dialogs: the site's terminal-window modal, wide enough for forms. */
export function MemberDialog(props: MemberDialogProps) {
  return <Modal {...props} size="lg" />;
}

const inputClass =
  'w-full rounded-md border border-ink-600 bg-ink-900 px-3 py-2 text-sm text-fg placeholder:text-dim ' +
  'focus-visible:border-term-cyan focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-term-cyan ' +
  'read-only:cursor-default read-only:border-ink-700 read-only:text-muted aria-[invalid=true]:border-term-red';

/** The members area's field look; label, hint and error come from components/ui/form-field.tsx. */
export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  value: string;
  onChange?: (value: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  wrapperClassName?: string;
}

/** A labelled input whose error is announced with it. */
export function TextField({
  label,
  value,
  onChange,
  error,
  hint,
  wrapperClassName,
  className,
  ...rest
}: TextFieldProps) {
  return (
    <FormField label={label} error={error} hint={hint} size="sm" className={wrapperClassName}>
      {(control) => (
        <input
          {...control}
          value={value}
          onChange={(event) => onChange?.(event.target.value)}
          className={cn(inputClass, 'h-11', className)}
          {...rest}
        />
      )}
    </FormField>
  );
}

export interface TextAreaFieldProps
  extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'onChange'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  wrapperClassName?: string;
}

export function TextAreaField({
  label,
  value,
  onChange,
  error,
  wrapperClassName,
  className,
  rows = 4,
  ...rest
}: TextAreaFieldProps) {
  return (
    <FormField label={label} error={error} size="sm" className={wrapperClassName}>
      {(control) => (
        <textarea
          {...control}
          rows={rows}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={cn(inputClass, 'resize-y', className)}
          {...rest}
        />
      )}
    </FormField>
  );
}

/** A round picture of a person, or their initials when there is none. */
export function Avatar({
  name,
  url,
  size = 40,
  className,
}: {
  name: string;
  url: string | null;
  size?: number;
  className?: string;
}) {
  const style = { width: size, height: size };
  if (url) {
    return (
      <img
        src={url}
        alt=""
        width={size}
        height={size}
        style={style}
        className={cn('shrink-0 rounded-full border border-ink-600 object-cover', className)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      style={{ ...style, fontSize: Math.max(11, Math.round(size / 2.8)) }}
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-full border border-term-green/40 bg-term-green/10 font-mono font-semibold text-term-green',
        className,
      )}
    >
      {initials(name)}
    </span>
  );
}
