import { type FormEvent, type ReactNode, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { FormField } from '@/components/ui/form-field';
import { cn } from '@/lib/cn';
import {
  type BookingField,
  type BookingFormValues,
  charCount,
  NAME_MAX,
  NOTES_MAX,
  validateBooking,
} from './validate';

const inputClass =
  'w-full rounded-md border border-ink-600 bg-ink-900 px-3 text-base text-fg placeholder:text-dim sm:text-sm ' +
  'focus-visible:border-term-cyan focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-term-cyan ' +
  'aria-[invalid=true]:border-term-red';

export interface BookingFormProps {
  values: BookingFormValues;
  onChange: (values: BookingFormValues) => void;
  errors: Partial<Record<BookingField, string>>;
  onErrors: (errors: Partial<Record<BookingField, string>>) => void;
  /** Called with valid values. */
  onSubmit: () => void;
  busy: boolean;
  submitLabel: string;
  busyLabel: string;
  /** Said next to the button: what happens when it is pressed. */
  note?: ReactNode;
}

/** Full name, e-mail and what to cover, checked on submit with the server's rules. */
export function BookingForm({
  values,
  onChange,
  errors,
  onErrors,
  onSubmit,
  busy,
  submitLabel,
  busyLabel,
  note,
}: BookingFormProps) {
  const formRef = useRef<HTMLFormElement>(null);
  const notesCount = charCount(values.notes);
  const over = notesCount > NOTES_MAX;

  const set = (field: BookingField) => (value: string) => {
    onChange({ ...values, [field]: value });
    if (errors[field]) onErrors({ ...errors, [field]: undefined });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const found = validateBooking(values);
    onErrors(found);
    const first = (['name', 'email', 'notes'] as const).find((f) => found[f]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    onSubmit();
  };

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <FormField label="Full name" error={errors.name}>
        {(control) => (
          <input
            {...control}
            name="name"
            type="text"
            autoComplete="name"
            required
            value={values.name}
            onChange={(e) => set('name')(e.target.value)}
            maxLength={NAME_MAX * 2}
            className={cn(inputClass, 'h-11')}
          />
        )}
      </FormField>
      <FormField
        label="E-mail"
        hint="The confirmation and the links to move or cancel go here."
        error={errors.email}
      >
        {(control) => (
          <input
            {...control}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            value={values.email}
            onChange={(e) => set('email')(e.target.value)}
            className={cn(inputClass, 'h-11')}
          />
        )}
      </FormField>
      <FormField
        label="What would you like to cover? (optional)"
        hint={
          <span className={cn(over && 'text-term-red')} aria-live="polite">
            {notesCount.toLocaleString('en-US')} / {NOTES_MAX.toLocaleString('en-US')} characters
          </span>
        }
        error={errors.notes}
      >
        {(control) => (
          <textarea
            {...control}
            name="notes"
            rows={4}
            value={values.notes}
            onChange={(e) => set('notes')(e.target.value)}
            placeholder="Your goal, a link to the code or design, the question you want answered."
            className={cn(inputClass, 'py-2')}
          />
        )}
      </FormField>
      <div className="flex flex-col gap-3">
        <Button type="submit" size="lg" disabled={busy} className="w-full sm:w-auto sm:self-start">
          {busy ? busyLabel : submitLabel}
        </Button>
        {note ? <p className="text-sm text-muted">{note}</p> : null}
      </div>
    </form>
  );
}
