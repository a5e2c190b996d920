import { CheckCircle2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormProblem } from '@/components/ui/form-problem';
import { CountedTextarea, TextField } from '@/components/ui/text-field';
import { ApiError, api, errorMessage } from '@/lib/api';
import {
  type Input as InquiryInput,
  MaxCompany,
  MaxMessage,
  MaxName,
  MaxTeamSize,
} from '@/lib/api-types/inquiries';
import type { InquirySent } from '@/lib/api-types/web';
import { detectTimeZone, todayIn } from '@/lib/time-zone';
import { useSubmitGuard } from '@/lib/use-submit-guard';

/** The server's limits (internal/inquiries): checked here first so the visitor hears at once. */
const NAME_MAX = MaxName;
const COMPANY_MAX = MaxCompany;
const MESSAGE_MAX = MaxMessage;

const FIELDS = ['name', 'email', 'company', 'team_size', 'message', 'preferred_start'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

/** The first problem of each field, as the server would name it. */
export function validateInquiry(v: Values): Partial<Record<Field, string>> {
  const out: Partial<Record<Field, string>> = {};
  if (v.name.trim() === '') out.name = 'Please enter your name.';
  else if ([...v.name.trim()].length > NAME_MAX)
    out.name = `Your name must be at most ${NAME_MAX} characters.`;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.email.trim()))
    out.email = 'Please enter your work e-mail address, such as you@company.com.';
  if (v.company.trim() === '') out.company = 'Please enter your company.';
  else if ([...v.company.trim()].length > COMPANY_MAX)
    out.company = `Your company must be at most ${COMPANY_MAX} characters.`;
  const size = Number(v.team_size);
  if (!/^\d+$/.test(v.team_size.trim()) || size < 1 || size > MaxTeamSize)
    out.team_size = 'Team size must be the number of people, such as 12.';
  if (v.message.trim() === '') out.message = 'Please tell us what your team would like.';
  else if ([...v.message.trim()].length > MESSAGE_MAX)
    out.message = `The message must be at most ${MESSAGE_MAX.toLocaleString('en-US')} characters.`;
  if (v.preferred_start !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(v.preferred_start))
    out.preferred_start = 'Preferred start must be a date, or left empty.';
  return out;
}

function isField(name: string | undefined): name is Field {
  return FIELDS.includes(name as Field);
}

export interface InquiryFormProps {
  /** The package asked about, for the heading: "Enterprise Package". */
  title: string;
}

/**
 * The enterprise inquiry: who is asking, for which team, what they want and from when. Sent to
 * `POST /api/inquiries`; the server stores it, confirms it to the sender by mail and mails the
 * owner. A refused field is marked on the field, a flood answer says to wait.
 */
export function InquiryForm({ title }: InquiryFormProps) {
  const [values, setValues] = useState<Values>({
    name: '',
    email: '',
    company: '',
    team_size: '',
    message: '',
    preferred_start: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const doneRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (sentTo) doneRef.current?.focus();
  }, [sentTo]);

  const set = (field: Field) => (value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };
  const focus = (field: Field) =>
    formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();

  const guard = useSubmitGuard();
  const submit = guard.onSubmit(async () => {
    setProblem(null);
    const found = validateInquiry(values);
    setErrors(found);
    const first = FIELDS.find((f) => found[f]);
    if (first) {
      focus(first);
      return;
    }
    const body: InquiryInput = {
      name: values.name.trim(),
      email: values.email.trim(),
      company: values.company.trim(),
      team_size: Number(values.team_size),
      message: values.message.trim(),
      preferred_start: values.preferred_start,
    };
    try {
      await api.post<InquirySent>('/api/inquiries', body);
      setSentTo(body.email);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && isField(error.field)) {
        const field = error.field;
        setErrors({ [field]: error.message });
        focus(field);
      } else if (error instanceof ApiError && error.status === 429) {
        setProblem(`${error.message} Please try again later, or write to us directly.`);
      } else {
        setProblem(errorMessage(error));
      }
    }
  });

  if (sentTo) {
    return (
      <div
        ref={doneRef}
        tabIndex={-1}
        role="status"
        className="flex gap-3 rounded-md border border-term-green/60 bg-term-green/10 p-4 text-sm text-fg focus:outline-none"
      >
        <CheckCircle2 size={18} aria-hidden="true" className="mt-0.5 shrink-0 text-term-green" />
        <p>
          Thank you. Your inquiry about the {title} is with rUv, and a confirmation is on its way to{' '}
          <span className="break-all font-mono">{sentTo}</span>. Expect a reply within two business
          days.
        </p>
      </div>
    );
  }

  return (
    <form
      ref={formRef}
      noValidate
      onSubmit={submit}
      aria-label={`${title} inquiry`}
      className="flex flex-col gap-4"
    >
      {problem ? <FormProblem message={problem} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Your name"
          name="name"
          autoComplete="name"
          required
          value={values.name}
          onValueChange={set('name')}
          error={errors.name}
        />
        <TextField
          label="Work e-mail"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={values.email}
          onValueChange={set('email')}
          error={errors.email}
        />
        <TextField
          label="Company"
          name="company"
          autoComplete="organization"
          required
          value={values.company}
          onValueChange={set('company')}
          error={errors.company}
        />
        <TextField
          label="Team size"
          name="team_size"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          required
          value={values.team_size}
          onValueChange={set('team_size')}
          hint="How many people would take part."
          error={errors.team_size}
        />
      </div>
      <CountedTextarea
        label="What would your team like?"
        name="message"
        max={MESSAGE_MAX}
        rows={5}
        required
        value={values.message}
        onValueChange={set('message')}
        placeholder="Your markets and systems, what the team should be able to do afterwards, any deadline."
        error={errors.message}
      />
      <TextField
        label="Preferred start (optional)"
        name="preferred_start"
        type="date"
        min={todayIn(detectTimeZone())}
        value={values.preferred_start}
        onValueChange={set('preferred_start')}
        error={errors.preferred_start}
        className="sm:max-w-xs"
      />
      <div className="flex flex-col gap-3">
        <Button
          type="submit"
          size="lg"
          disabled={guard.pending}
          className="w-full sm:w-auto sm:self-start"
        >
          {guard.pending ? 'Sending…' : 'Send inquiry'}
        </Button>
        <p className="text-sm text-muted">
          You get a confirmation by e-mail; rUv replies personally, usually within two business
          days.
        </p>
      </div>
    </form>
  );
}
