import { toast as library } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { toast } from './toast';

vi.mock('sonner', async (original) => {
  const actual = await original<typeof import('sonner')>();
  const calls = vi.fn();
  return { ...actual, toast: { success: calls, error: calls, info: calls, dismiss: calls } };
});

describe('toast', () => {
  it('dismissing before any toast asks for nothing (the library is not even loaded)', () => {
    toast.dismiss('form-1');
    expect(library.dismiss).not.toHaveBeenCalled();
  });

  it('settles once the toast is handed to the library, and dismisses after it, in order', async () => {
    const shown = toast.error('Error', 'Password must be at least 8 characters.', { id: 'form-1' });
    toast.dismiss('form-1');
    expect(library.error).not.toHaveBeenCalled();
    await shown;
    expect(vi.mocked(library.error).mock.calls[0]).toEqual([
      'Error',
      { description: 'Password must be at least 8 characters.', id: 'form-1' },
    ]);
    await vi.waitFor(() =>
      expect(vi.mocked(library.dismiss).mock.calls.at(-1)).toEqual(['form-1']),
    );
    await toast.success('Welcome back!');
    expect(vi.mocked(library.success).mock.calls.at(-1)).toEqual([
      'Welcome back!',
      { description: undefined, id: undefined },
    ]);
  });
});
