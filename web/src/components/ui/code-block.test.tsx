import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { COPY_FEEDBACK_MS, CodeBlock } from './code-block';

const commands =
  'npm install agentic-payments\n# then\nnpx agentic-payments mandate create \\\n  --agent bot';

function mockClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: { writeText },
  });
}

describe('CodeBlock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the code with a prompt on command lines only', () => {
    const { container } = render(<CodeBlock code={commands} title="bash" language="shell" />);
    const code = container.querySelector('code');
    expect(code).not.toBeNull();
    // One prompt for each command, none for the comment or the continuation line.
    const prompts = container.querySelectorAll('code [aria-hidden="true"]');
    expect(prompts).toHaveLength(2);
    expect(code?.textContent).toBe(
      '$ npm install agentic-payments\n# then\n$ npx agentic-payments mandate create \\\n  --agent bot',
    );
    expect(container.querySelector('.truncate')).toHaveTextContent('bash');
  });

  it('copies the exact code, shows Copied and announces it, then resets', async () => {
    const writeText = vi.fn<(text: string) => Promise<void>>().mockResolvedValue(undefined);
    // After setup: user-event installs its own clipboard stub.
    const user = userEvent.setup();
    mockClipboard(writeText);
    render(<CodeBlock code={commands} title="bash" language="shell" />);

    vi.useFakeTimers({ shouldAdvanceTime: true });
    await user.click(screen.getByRole('button', { name: 'Copy bash' }));

    expect(writeText).toHaveBeenCalledWith(commands);
    expect(await screen.findByRole('button', { name: 'Copied bash' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Copied to clipboard');

    await act(async () => {
      vi.advanceTimersByTime(COPY_FEEDBACK_MS + 10);
    });
    expect(screen.getByRole('button', { name: 'Copy bash' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('says so when the clipboard refuses', async () => {
    const user = userEvent.setup();
    mockClipboard(() => Promise.reject(new Error('denied')));
    render(<CodeBlock code="cargo add aimds-core" title="Rust" />);
    await user.click(screen.getByRole('button', { name: 'Copy Rust' }));
    expect(await screen.findByRole('button', { name: 'Copy failed Rust' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/Could not copy/);
  });
});
