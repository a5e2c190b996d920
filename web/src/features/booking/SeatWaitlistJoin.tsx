import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { FormProblem } from '@/components/ui/form-problem';
import { TextField } from '@/components/ui/text-field';
import { ApiError, errorMessage } from '@/lib/api';
import { joinSeatWaitlist } from './api/seat-waitlist';
import type { BookingEvent } from './api/types';
import { formatInZone } from './time';

type State = 'closed' | 'open' | 'sending' | 'joined';

/**
 * The wait list of one sold-out date: a button that opens a short form (name, e-mail), and after
 * joining a note saying what happens next. Errors stay beside the field the server names.
 */
export function SeatWaitlistJoin({ event, zone }: { event: BookingEvent; zone: string }) {
  const [state, setState] = useState<State>('closed');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<{ field?: string | undefined; message: string } | null>(
    null,
  );
  const formId = useId();
  const when = formatInZone(event.start, zone);

  if (state === 'joined') {
    return (
      <p role="status" className="mt-2 rounded-md border border-term-green/50 p-3 text-sm text-fg">
        You are on the wait list for {when}. If a seat comes free, we e-mail you a link that holds
        it for you for 2 hours.
      </p>
    );
  }
  if (state === 'closed') {
    return (
      <Button
        variant="outline"
        size="sm"
        className="mt-2"
        aria-expanded={false}
        aria-controls={formId}
        onClick={() => setState('open')}
      >
        Join the wait list for {when}
      </Button>
    );
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setState('sending');
    setProblem(null);
    try {
      await joinSeatWaitlist(event.id, {
        name,
        email,
        time_zone: zone,
      });
      setState('joined');
    } catch (error) {
      setState('open');
      setProblem({
        field: error instanceof ApiError ? error.field : undefined,
        message: errorMessage(error),
      });
    }
  };
  return (
    <form
      id={formId}
      aria-label={`Wait list for ${when}`}
      className="mt-2 flex flex-col gap-3 rounded-md border border-ink-700 p-3"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <p className="text-sm text-muted">
        This date is sold out. Leave your name and e-mail: a seat given back is offered to the first
        in line.
      </p>
      <TextField
        label="Full name"
        name="name"
        value={name}
        onValueChange={setName}
        autoComplete="name"
        required
        error={problem?.field === 'name' ? problem.message : undefined}
      />
      <TextField
        label="E-mail"
        name="email"
        type="email"
        value={email}
        onValueChange={setEmail}
        autoComplete="email"
        required
        error={problem?.field === 'email' ? problem.message : undefined}
      />
      {problem && problem.field !== 'name' && problem.field !== 'email' ? (
        <FormProblem message={problem.message} />
      ) : null}
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={state === 'sending'}>
          {state === 'sending' ? 'Joining…' : 'Join the wait list'}
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={() => setState('closed')}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
