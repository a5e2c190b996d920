import { act, useState } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { TextField } from './text-field';

/** A form whose state a test reads: the e-mail it holds, shown beside the field. */
function EmailForm() {
  const [email, setEmail] = useState('');
  const [, setTick] = useState(0);
  return (
    <form>
      <TextField label="Email" name="email" value={email} onValueChange={setEmail} />
      <output>{email}</output>
      <button type="button" onClick={() => setTick((t) => t + 1)}>
        Render again
      </button>
    </form>
  );
}

describe('TextField on a prerendered page', () => {
  it('typing before the scripts finish loading is kept', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(<EmailForm />);
    document.body.append(container);
    // The visitor types while the page is still only HTML.
    const input = container.querySelector('input') as HTMLInputElement;
    input.value = 'ada@example.com';

    await act(async () => {
      hydrateRoot(container, <EmailForm />);
    });
    // A later render (the session arriving, say) must not write the empty state back.
    await act(async () => container.querySelector('button')?.click());
    expect(input.value).toBe('ada@example.com');
    expect(container.querySelector('output')?.textContent).toBe('ada@example.com');
    container.remove();
  });
});
