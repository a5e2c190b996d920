import { QueryClient, QueryClientProvider, useMutation } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useSubmitGuard } from './use-submit-guard';

/** A promise settled from outside, as a slow server answers. */
function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A writing form as the app builds them: a mutation, a check, the guard, a busy button. */
function Form({ send, onError }: { send: (title: string) => Promise<void>; onError?: () => void }) {
  const [title, setTitle] = useState('');
  const [error, setError] = useState('');
  const create = useMutation({ mutationFn: send, onError });
  const guard = useSubmitGuard();
  const submit = guard.onSubmit(() => {
    if (title.trim() === '') {
      setError('Title is required.');
      return;
    }
    return create.mutateAsync(title);
  });
  return (
    <form onSubmit={submit}>
      <input aria-label="Title" value={title} onChange={(e) => setTitle(e.target.value)} />
      {error ? <p>{error}</p> : null}
      <button type="submit" disabled={guard.pending}>
        {guard.pending ? 'Saving…' : 'Share project'}
      </button>
    </form>
  );
}

/** Lets the mutation start its fetcher, which it does after a few awaits. */
async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

function renderForm(send: (title: string) => Promise<void>, onError?: () => void) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <Form send={send} onError={onError} />
    </QueryClientProvider>,
  );
}

describe('useSubmitGuard', () => {
  it('double click on a writing form sends once', async () => {
    const answer = deferred();
    const send = vi.fn(() => answer.promise);
    renderForm(send);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Agent memory' } });
    const button = screen.getByRole('button', { name: 'Share project' });
    // Both presses land before React renders the busy button, as a real double click does.
    act(() => {
      button.click();
      button.click();
    });
    fireEvent.submit(button.closest('form') as HTMLFormElement);
    await flush();
    expect(send).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled();
    await act(async () => answer.resolve());
    expect(screen.getByRole('button', { name: 'Share project' })).toBeEnabled();
    // Once the first send is over, the form sends again.
    fireEvent.submit(button.closest('form') as HTMLFormElement);
    await flush();
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('a submit refused by the form check sends nothing and leaves the form free', async () => {
    const send = vi.fn(() => Promise.resolve());
    renderForm(send);
    const button = screen.getByRole('button', { name: 'Share project' });
    act(() => button.click());
    await flush();
    expect(screen.getByText('Title is required.')).toBeInTheDocument();
    expect(send).not.toHaveBeenCalled();
    expect(button).toBeEnabled();
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'x' } });
    act(() => button.click());
    await flush();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('a refused send frees the form for another try, and its error reaches onError', async () => {
    const answer = deferred();
    const send = vi.fn(() => answer.promise);
    const onError = vi.fn();
    renderForm(send, onError);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'x' } });
    act(() => screen.getByRole('button', { name: 'Share project' }).click());
    await flush();
    await act(async () => answer.reject(new Error('Slot taken')));
    expect(onError).toHaveBeenCalledTimes(1);
    const button = screen.getByRole('button', { name: 'Share project' });
    expect(button).toBeEnabled();
    act(() => button.click());
    await flush();
    expect(send).toHaveBeenCalledTimes(2);
  });
});
