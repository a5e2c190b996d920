import { type ReactNode, useId } from 'react';
import { cn } from '@/lib/cn';

/** What a field's control spreads onto itself: the id its label names, and its ARIA ties. */
export interface FormFieldControl {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

export type FormFieldSize = 'md' | 'sm';

const labelClass: Record<FormFieldSize, string> = {
  md: 'font-mono text-sm text-fg',
  sm: 'font-mono text-xs text-muted',
};

const errorClass: Record<FormFieldSize, string> = {
  md: 'text-sm text-term-red',
  sm: 'text-xs text-term-red',
};

export interface FormFieldProps {
  label: ReactNode;
  /** Shown under the control and read with it. */
  hint?: ReactNode;
  /** Shown under the control in red; marks the control invalid and is read with it. */
  error?: string | undefined;
  /** `md` for the account forms, `sm` for the denser members-area forms. */
  size?: FormFieldSize;
  className?: string;
  /** The control (input, textarea, select), given the attributes to spread onto it. */
  children: (control: FormFieldControl) => ReactNode;
}

/**
 * One labelled form control with an optional hint and error. The label points at the control,
 * and the hint and the error are tied to it with `aria-describedby` (the error also sets
 * `aria-invalid`), so a screen reader announces them when the control gets focus.
 */
export function FormField({
  label,
  hint,
  error,
  size = 'md',
  className,
  children,
}: FormFieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className={labelClass[size]}>
        {label}
      </label>
      {children({
        id,
        'aria-describedby': describedBy,
        'aria-invalid': error ? true : undefined,
      })}
      {hint ? (
        <p id={hintId} className="text-xs text-dim">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={errorClass[size]}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
