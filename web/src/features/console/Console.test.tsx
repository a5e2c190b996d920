import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryHistory, Router } from '@/lib/router';
import { installMatchMedia } from '@/test/match-media';
import { deferred, json, mockApi, resetAuthState } from '@/test/mock-api';
import { Console } from './Console';

function renderConsole() {
  const router = createMemoryHistory(['/']);
  const result = render(
    <Router history={router}>
      <Console />
    </Router>,
  );
  const input = screen.getByRole('textbox', { name: 'Console command' });
  const output = screen.getByTestId('console-output');
  const log = screen.getByRole('log', { name: 'Console output' });
  return { ...result, input, output, log };
}

function sse(pieces: string[]): Response {
  const lines = pieces.map(
    (content) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`,
  );
  return new Response(`${lines.join('')}data: [DONE]\n\n`, {
    headers: { 'Content-Type': 'text/event-stream' },
  });
}

beforeEach(() => {
  installMatchMedia(1024, true); // reduced motion: output shows whole, no typing
  mockApi();
});

afterEach(() => resetAuthState());

describe('Console', () => {
  it('starts with its first transcript: services with prices and the booking link', () => {
    const { output, log } = renderConsole();
    expect(output).toHaveTextContent('$ services');
    expect(output).toHaveTextContent('$299');
    expect(within(output).getByRole('link', { name: 'Go to booking page' })).toHaveAttribute(
      'href',
      '/booking',
    );
    expect(log).toBeEmptyDOMElement();
  });

  it('runs a command: busy while it runs, then its output, announced once, focus kept', async () => {
    const user = userEvent.setup();
    const { input, output, log } = renderConsole();
    await user.click(input);
    await user.type(input, 'HELP{Enter}');
    expect(input).toBeDisabled();
    expect(input).toHaveAttribute('placeholder', 'Processing...');
    expect(output).toHaveTextContent('$ HELP');
    await waitFor(() => expect(input).toBeEnabled());
    expect(input).toHaveAttribute('placeholder', 'Type command...');
    expect(input).toHaveValue('');
    expect(output).toHaveTextContent('Available commands:');
    // Focus comes back in an effect after the render that enables the input: on a busy machine the
    // first look can come between the two.
    await waitFor(() => expect(input).toHaveFocus());
    const said = within(log).getAllByText(/Available commands:/);
    expect(said).toHaveLength(1);
    expect(said[0]).toHaveTextContent(/^HELP:/);
  });

  it('ignores empty input and input while a command runs', async () => {
    const answer = deferred<Response>();
    const api = mockApi({ 'POST /api/ai/chat': () => answer.promise });
    const user = userEvent.setup();
    const { input, output } = renderConsole();
    const before = output.innerHTML;
    await user.type(input, '   {Enter}');
    expect(input).toBeEnabled();
    expect(output.innerHTML).toBe(before);
    await user.type(input, 'ask why agents{Enter}');
    expect(input).toBeDisabled();
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    expect(api.to('POST', '/api/ai/chat')).toHaveLength(1);
    await act(async () => answer.resolve(sse(['Because ', 'they act.'])));
    await waitFor(() => expect(output).toHaveTextContent('Because they act.'));
    await waitFor(() => expect(input).toBeEnabled());
  });

  it('recalls history with Up and Down, completes with Tab, clears with Ctrl+L', async () => {
    const user = userEvent.setup();
    const { input, output } = renderConsole();
    await user.type(input, 'about{Enter}');
    await waitFor(() => expect(input).toBeEnabled());
    await user.type(input, 'skills{Enter}');
    await waitFor(() => expect(input).toBeEnabled());
    await user.type(input, 'draft');
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveValue('skills');
    await user.keyboard('{ArrowUp}');
    expect(input).toHaveValue('about');
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(input).toHaveValue('draft');

    await user.clear(input);
    await user.type(input, 'boo');
    await user.keyboard('{Tab}');
    expect(input).toHaveValue('booking ');
    expect(input).toHaveFocus();
    await user.clear(input);
    await user.type(input, 'res');
    await user.keyboard('{Tab}');
    expect(input).toHaveValue('resources/');
    await user.keyboard('{Tab}');
    expect(output).toHaveTextContent('resources/list resources/read');

    await user.keyboard('{Control>}l{/Control}');
    expect(output).toBeEmptyDOMElement();
  });

  it('types new output out, hidden from screen readers until whole; a key press finishes it', async () => {
    installMatchMedia(1024, false);
    const user = userEvent.setup();
    const { input, output } = renderConsole();
    await user.type(input, 'about{Enter}');
    await waitFor(() => expect(input).toBeEnabled());
    // The answer is being typed: cut short and aria-hidden.
    const typing = output.querySelector('[aria-hidden="true"]');
    expect(typing).not.toBeNull();
    expect(output).not.toHaveTextContent('Independent AI Consultant & Enterprise AI Architect');
    await user.keyboard('x');
    await waitFor(() =>
      expect(output).toHaveTextContent('Independent AI Consultant & Enterprise AI Architect'),
    );
    expect(output.querySelector('div[aria-hidden="true"]')).toBeNull();
  });

  it('streams an unknown command: search results, then the answer', async () => {
    mockApi({
      'POST /api/search': () => json(200, { results: [], ranking: 'keyword' }),
      'POST /api/ai/chat': () => sse(['Offline answer: ', 'rUv coaches engineers.']),
    });
    const user = userEvent.setup();
    const { input, output, log } = renderConsole();
    await user.type(input, 'who are you{Enter}');
    await waitFor(() => expect(output).toHaveTextContent('Offline answer: rUv coaches engineers.'));
    expect(output).toHaveTextContent("Command not recognized: 'who are you'.");
    expect(output).toHaveTextContent('No results found for your search query.');
    await waitFor(() => expect(log).toHaveTextContent('Offline answer: rUv coaches engineers.'));
  });
});
