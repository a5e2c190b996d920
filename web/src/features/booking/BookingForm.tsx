import { type ReactNode, useRef } from 'react';
import { Button } from '@/components/ui/button';
import { CountedTextarea, TextField } from '@/components/ui/text-field';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import {
  type BookingField,
  type BookingFormValues,
  NAME_MAX,
  NOTES_MAX,
  validateBooking,
} from './validate';

export interface BookingFormProps {
  values: BookingFormValues;
  onChange: (values: BookingFormValues) => void;
  errors: Partial<Record<BookingField, string>>;
  onErrors: (errors: Partial<Record<BookingField, string>>) => void;
  /** Called with valid values: the sending, during which a second press is ignored. */
  onSubmit: () => Promise<unknown> | undefined;
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

  const set = (field: BookingField) => (value: string) => {
    onChange({ ...values, [field]: value });
    if (errors[field]) onErrors({ ...errors, [field]: undefined });
  };

  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    if (busy) return;
    const found = validateBooking(values);
    onErrors(found);
    const first = (['name', 'email', 'notes'] as const).find((f) => found[f]);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    return onSubmit();
  });

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <TextField
        label="Full name"
        name="name"
        autoComplete="name"
        required
        value={values.name}
        onValueChange={set('name')}
        maxLength={NAME_MAX * 2}
        error={errors.name}
      />
      <TextField
        label="E-mail"
        name="email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        value={values.email}
        onValueChange={set('email')}
        hint="The confirmation and the links to move or cancel go here."
        error={errors.email}
      />
      <CountedTextarea
        label="What would you like to cover? (optional)"
        name="notes"
        max={NOTES_MAX}
        value={values.notes}
        onValueChange={set('notes')}
        placeholder="Your goal, a link to the code or design, the question you want answered."
        error={errors.notes}
      />
      <div className="flex flex-col gap-3">
        <Button
          type="submit"
          size="lg"
          disabled={busy || guard.pending}
          className="w-full sm:w-auto sm:self-start"
        >
          {busy || guard.pending ? busyLabel : submitLabel}
        </Button>
        {note ? <p className="text-sm text-muted">{note}</p> : null}
      </div>
    </form>
  );
}
