import { Heart, Rocket, Sparkles, Star, Target, Users, Zap } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ApiError, errorMessage } from '@/lib/api';
import type { Cohort, CohortInput } from '@/lib/api-types/community';
import { cn } from '@/lib/cn';
import { toast } from '@/lib/toast';
import { useSubmitGuard } from '@/lib/use-submit-guard';
import { type CohortFormField, cohortErrorField, trimCohort, validateCohort } from './logic';
import { MemberDialog, TextAreaField, TextField } from './parts';

/** The icons a cohort may have, in the order the form offers them (the server's `CohortIcons`). */
const COHORT_ICONS = ['users', 'sparkles', 'target', 'rocket', 'zap', 'heart', 'star'] as const;
type CohortIcon = (typeof COHORT_ICONS)[number];

/** The icon components behind the seven icon names. */
export const cohortIcons: Record<CohortIcon, typeof Users> = {
  users: Users,
  sparkles: Sparkles,
  target: Target,
  rocket: Rocket,
  zap: Zap,
  heart: Heart,
  star: Star,
};

/** The icon of a cohort, falling back to `users` for anything unexpected. */
export function CohortIconView({ icon, size = 20 }: { icon: string; size?: number }) {
  const Icon = cohortIcons[icon as CohortIcon] ?? Users;
  return <Icon size={size} aria-hidden="true" />;
}

const EMPTY: CohortInput = {
  name: '',
  description: '',
  icon: 'users',
  github_url: '',
  homepage_url: '',
};

function fromCohort(cohort: Cohort): CohortInput {
  return {
    name: cohort.name,
    description: cohort.description,
    icon: cohort.icon,
    github_url: cohort.github_url ?? '',
    homepage_url: cohort.homepage_url ?? '',
  };
}

const fieldOrder: CohortFormField[] = ['name', 'description', 'icon', 'github_url', 'homepage_url'];

export interface CohortFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Given when editing; absent when creating. */
  cohort?: Cohort;
  /** Sends the trimmed form; a thrown ApiError is shown next to its field or as a toast. */
  onSubmit: (input: CohortInput) => Promise<void>;
}

/** Create Cohort and Edit Cohort: the same fields, the same checks. */
export function CohortFormDialog({ open, onOpenChange, cohort, onSubmit }: CohortFormDialogProps) {
  return (
    <MemberDialog
      open={open}
      onOpenChange={onOpenChange}
      windowTitle={cohort ? '~ $ cohort --edit' : '~ $ cohort --new'}
      title={cohort ? 'Edit Cohort' : 'Create Cohort'}
      description={
        cohort
          ? 'Change the name, description, icon or links of your cohort.'
          : 'Start a small group of builders. Cohorts take up to 5 members, and you join it as its first member.'
      }
    >
      {/* Mounted only while open, so each opening starts from the saved values. */}
      {open ? (
        <CohortForm
          initial={cohort ? fromCohort(cohort) : EMPTY}
          submitLabel={cohort ? 'Save changes' : 'Create Cohort'}
          onCancel={() => onOpenChange(false)}
          onSubmit={onSubmit}
        />
      ) : null}
    </MemberDialog>
  );
}

function CohortForm({
  initial,
  submitLabel,
  onCancel,
  onSubmit,
}: {
  initial: CohortInput;
  submitLabel: string;
  onCancel: () => void;
  onSubmit: (input: CohortInput) => Promise<void>;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Partial<Record<CohortFormField, string>>>({});
  const formRef = useRef<HTMLFormElement>(null);
  const iconLabelId = useId();

  const set =
    <K extends keyof CohortInput>(key: K) =>
    (value: CohortInput[K]) => {
      setValues((prev) => ({ ...prev, [key]: value }));
      setErrors((prev) => (prev[key] ? { ...prev, [key]: undefined } : prev));
    };

  const focusField = (field: CohortFormField) => {
    const el = formRef.current?.querySelector<HTMLElement>(`[data-field="${field}"]`);
    el?.focus();
  };

  const guard = useSubmitGuard();
  const submit = guard.onSubmit(async () => {
    const found = validateCohort(values);
    const first = fieldOrder.find((f) => found[f as keyof typeof found]);
    if (first) {
      setErrors(found);
      focusField(first);
      return;
    }
    try {
      await onSubmit(trimCohort(values));
    } catch (error) {
      const field = error instanceof ApiError ? cohortErrorField(error.message) : null;
      if (field) {
        setErrors({ [field]: error instanceof Error ? error.message : '' });
        focusField(field);
      } else {
        toast.error('Error', errorMessage(error));
      }
    }
  });

  return (
    <form ref={formRef} noValidate onSubmit={submit} className="flex flex-col gap-4">
      <TextField
        label="Name"
        data-field="name"
        value={values.name}
        onChange={set('name')}
        error={errors.name}
        maxLength={80}
        required
        autoComplete="off"
      />
      <TextAreaField
        label="Description (optional)"
        data-field="description"
        value={values.description}
        onChange={set('description')}
        error={errors.description}
        rows={3}
        maxLength={1000}
      />
      <fieldset className="flex flex-col gap-2">
        <legend id={iconLabelId} className="mb-1.5 font-mono text-xs text-muted">
          Icon
        </legend>
        <div role="radiogroup" aria-labelledby={iconLabelId} className="flex flex-wrap gap-2">
          {COHORT_ICONS.map((name) => {
            const Icon = cohortIcons[name];
            const checked = values.icon === name;
            return (
              <label
                key={name}
                className={cn(
                  'flex h-11 w-11 cursor-pointer items-center justify-center rounded-md border text-muted transition-colors',
                  'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-term-cyan',
                  checked
                    ? 'border-term-green bg-term-green/10 text-term-green'
                    : 'border-ink-600 hover:text-fg',
                )}
              >
                <input
                  type="radio"
                  name="cohort-icon"
                  value={name}
                  checked={checked}
                  onChange={() => set('icon')(name)}
                  className="sr-only"
                  {...(name === 'users' ? { 'data-field': 'icon' } : {})}
                />
                <Icon size={20} aria-hidden="true" />
                <span className="sr-only">{name}</span>
              </label>
            );
          })}
        </div>
        {errors.icon ? <p className="text-xs text-term-red">{errors.icon}</p> : null}
      </fieldset>
      <TextField
        label="GitHub URL (optional)"
        data-field="github_url"
        type="url"
        inputMode="url"
        placeholder="https://github.com/org/repo"
        value={values.github_url}
        onChange={set('github_url')}
        error={errors.github_url}
        maxLength={500}
      />
      <TextField
        label="Homepage URL (optional)"
        data-field="homepage_url"
        type="url"
        inputMode="url"
        placeholder="https://example.com"
        value={values.homepage_url}
        onChange={set('homepage_url')}
        error={errors.homepage_url}
        maxLength={500}
      />
      <div className="flex flex-col-reverse gap-3 pt-1 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={guard.pending}>
          {guard.pending ? 'Saving…' : submitLabel}
        </Button>
      </div>
    </form>
  );
}
