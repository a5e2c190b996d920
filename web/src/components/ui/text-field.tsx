import {
  type InputHTMLAttributes,
  type ReactNode,
  type RefObject,
  useLayoutEffect,
  useRef,
} from 'react';
import { cn } from '@/lib/cn';
import { FormField, type FormFieldSize } from './form-field';

/** The public forms' control: 16 px text on phones (no zoom on focus), red when invalid. */
export const fieldControlClass =
  'w-full rounded-md border border-ink-600 bg-ink-900 px-3 text-base text-fg placeholder:text-dim sm:text-sm ' +
  'focus-visible:border-term-cyan focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-term-cyan ' +
  'aria-[invalid=true]:border-term-red';

/**
 * Keeps what was typed into a prerendered field before the scripts took over. The field's state
 * starts empty, and the first re-render after hydration wrote that state back over the typed
 * text (an e-mail and password typed on a slow phone vanished). At mount, text the control
 * already holds becomes the state; a field rendered in the browser holds its state, so nothing
 * changes there.
 */
function useKeepTyped(
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  onValueChange: (value: string) => void,
) {
  const first = useRef({ value, onValueChange });
  useLayoutEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== '' && typed !== first.current.value) {
      first.current.onValueChange(typed);
    }
  }, [ref]);
}

/** An input's height by the field's size: `md` for public and account forms, `sm` for dense admin forms. */
const inputHeight: Record<FormFieldSize, string> = { md: 'h-11', sm: 'h-9 sm:text-sm' };

type InputAttributes = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'className' | 'id' | 'name' | 'size'
>;

export interface TextFieldProps extends InputAttributes {
  label: ReactNode;
  /** The form's field name: the server's, so its errors and the first-invalid focus find it. */
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  hint?: ReactNode;
  error?: string | undefined;
  className?: string;
  /** Typed text in the terminal's monospace (the account forms). */
  mono?: boolean;
  /** `sm`: the denser admin forms (smaller label, shorter input). */
  size?: FormFieldSize;
}

/**
 * One labelled single-line input of a public or account form (name, e-mail, password, company, a
 * number, a date).
 */
export function TextField({
  label,
  name,
  value,
  onValueChange,
  hint,
  error,
  className,
  mono = false,
  size = 'md',
  type = 'text',
  ...input
}: TextFieldProps) {
  const ref = useRef<HTMLInputElement>(null);
  useKeepTyped(ref, value, onValueChange);
  return (
    <FormField label={label} hint={hint} error={error} className={className} size={size}>
      {(control) => (
        <input
          {...input}
          {...control}
          ref={ref}
          name={name}
          type={type}
          value={value}
          onChange={(e) => onValueChange(e.target.value)}
          className={cn(fieldControlClass, inputHeight[size], mono && 'font-mono')}
        />
      )}
    </FormField>
  );
}

export interface CountedTextareaProps {
  label: ReactNode;
  name: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The most characters (code points, as the server counts) the field takes. */
  max: number;
  error?: string | undefined;
  rows?: number;
  required?: boolean;
  placeholder?: string;
  size?: FormFieldSize;
  /** Said under the field before the count. */
  hint?: ReactNode;
}

/** A labelled text area whose hint counts its characters against the limit, red once over it. */
export function CountedTextarea({
  label,
  name,
  value,
  onValueChange,
  max,
  error,
  rows = 4,
  required,
  placeholder,
  size = 'md',
  hint,
}: CountedTextareaProps) {
  const count = [...value].length;
  const ref = useRef<HTMLTextAreaElement>(null);
  useKeepTyped(ref, value, onValueChange);
  return (
    <FormField
      label={label}
      size={size}
      hint={
        <>
          {hint ? <>{hint} </> : null}
          <span className={cn(count > max && 'text-term-red')} aria-live="polite">
            {count.toLocaleString('en-US')} / {max.toLocaleString('en-US')} characters
          </span>
        </>
      }
      error={error}
    >
      {(control) => (
        <textarea
          {...control}
          ref={ref}
          name={name}
          rows={rows}
          required={required}
          value={value}
          onChange={(e) => onValueChange(e.target.value)}
          placeholder={placeholder}
          className={cn(fieldControlClass, 'py-2')}
        />
      )}
    </FormField>
  );
}
