import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ada, apiError, deferred, json, mockApi, resetAuthState } from '@/test/mock-api';
import { renderRoute } from '@/test/render';
import { ACCESS_DENIED_TOAST, EXAMPLE_PROMPTS } from './AgentTestPage';

const admin = { ...ada, is_admin: true };

function chunk(delta: Record<string, unknown>): string {
  return `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta }] })}\n\n`;
}

/** A chat answer as the server streams it, one piece per chunk. */
function stream(pieces: string[]): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

const tool = (status: string) => ({
  tool_status: { id: 'kb_search', name: 'search_knowledge_base', query: 'q', status },
});

async function expectToast(title: string) {
  const heading = await screen.findByText(title, {}, { timeout: 10_000 });
  const toast = heading.closest('[data-sonner-toast]');
  expect(toast).not.toBeNull();
  return toast as HTMLElement;
}

describe('AgentTestPage', { timeout: 20_000 }, () => {
  beforeEach(resetAuthState);
  afterEach(resetAuthState);

  it('denies a signed-out visitor, with the toast and a way home', async () => {
    mockApi();
    const { router } = renderRoute('/agent-test');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeVisible();
    const toast = await expectToast(ACCESS_DENIED_TOAST);
    expect(toast).toHaveAttribute('data-type', 'error');
    expect(screen.queryByRole('log')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Return Home' }));
    expect(router.location.pathname).toBe('/');
  });

  it('denies a signed-in member who is not an admin', async () => {
    mockApi({ 'GET /api/auth/session': () => json(200, { user: ada }) });
    renderRoute('/agent-test');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Seed KB' })).not.toBeInTheDocument();
  });

  it('refuses an empty prompt without asking the server', async () => {
    const api = mockApi({ 'GET /api/auth/session': () => json(200, { user: admin }) });
    renderRoute('/agent-test');
    const box = await screen.findByRole('textbox', { name: 'Prompt' });
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await userEvent.type(box, '   {Enter}');
    expect(await screen.findByText('Please enter a prompt')).toBeVisible();
    expect(box).toHaveAttribute('aria-invalid', 'true');
    expect(api.to('POST', '/api/ai/chat')).toHaveLength(0);
  });

  it('streams an answer with its tool progress; Shift+Enter adds a line', async () => {
    const gate = deferred<void>();
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      'POST /api/ai/chat': async () => {
        await gate.promise;
        return stream([
          chunk(tool('running')),
          chunk(tool('completed')),
          chunk({ content: 'The **Deep Dive** costs ' }),
          chunk({ content: '$299.' }),
          'data: [DONE]\n\n',
        ]);
      },
    });
    renderRoute('/agent-test');
    const box = await screen.findByRole('textbox', { name: 'Prompt' });
    await userEvent.type(box, 'What does{Shift>}{Enter}{/Shift}it cost?');
    expect(box).toHaveValue('What does\nit cost?');
    await userEvent.keyboard('{Enter}');

    // The question and an empty (thinking) answer appear before the server answers.
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(within(log).getByText(/What does/)).toBeVisible();
    expect(within(log).getByText('Thinking')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeVisible();
    expect(box).toHaveValue('');

    gate.resolve();
    const strong = await within(log).findByText('Deep Dive');
    expect(strong.tagName).toBe('STRONG');
    await waitFor(() => expect(log).toHaveTextContent('The Deep Dive costs $299.'));
    const tools = screen.getByRole('list', { name: 'Tool calls' });
    expect(within(tools).getByText('search_knowledge_base')).toBeVisible();
    expect(within(tools).getByRole('listitem')).toHaveAttribute('data-state', 'completed');
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy answer' })).toBeVisible();
    expect(api.to('POST', '/api/ai/chat')[0]?.body).toEqual({
      messages: [{ role: 'user', content: 'What does\nit cost?' }],
    });

    await userEvent.click(screen.getByRole('button', { name: 'Clear History' }));
    expect(within(log).queryByText(/What does/)).not.toBeInTheDocument();
  });

  it('stops an answer: what arrived stays, marked stopped, and the page is ready again', async () => {
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      // One piece of text, then the stream stays open until the page lets go of it.
      'POST /api/ai/chat': () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(chunk({ content: 'Partial answer' })));
            },
          }),
          { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
        ),
    });
    renderRoute('/agent-test');
    await userEvent.click(await screen.findByRole('button', { name: EXAMPLE_PROMPTS[2] }));
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(await within(log).findByText('Partial answer')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(within(log).getByText('(stopped)')).toBeVisible();
    expect(within(log).getByText('Partial answer')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: EXAMPLE_PROMPTS[0] })).toBeEnabled();
    // The request itself was aborted, so the server stops answering.
    const call = api.fetchMock.mock.calls.find(([path]) => path === '/api/ai/chat');
    expect(call?.[1]?.signal?.aborted).toBe(true);
  });

  it('removes the empty answer when the stream cannot start, says why in a toast, and retries', async () => {
    let attempts = 0;
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      'POST /api/ai/chat': () => {
        attempts += 1;
        return attempts === 1
          ? apiError(503, 'unavailable', 'The assistant is busy right now.')
          : stream([chunk({ content: 'Here now.' }), 'data: [DONE]\n\n']);
      },
    });
    renderRoute('/agent-test');
    await userEvent.click(await screen.findByRole('button', { name: EXAMPLE_PROMPTS[0] }));

    const toast = await expectToast('Error');
    expect(toast).toHaveAttribute('data-type', 'error');
    expect(toast).toHaveTextContent('The assistant is busy right now.');
    // Said once, in the toast: no second banner repeats it.
    expect(screen.getAllByText('The assistant is busy right now.')).toHaveLength(1);
    const log = screen.getByRole('log', { name: 'Conversation' });
    // Only the question is left: the empty assistant message is gone.
    expect(within(log).getAllByRole('listitem')).toHaveLength(1);
    expect(within(log).queryByText('Thinking')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await within(log).findByText('Here now.')).toBeVisible();
    expect(within(log).getAllByRole('listitem')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    expect(api.to('POST', '/api/ai/chat')[1]?.body).toEqual({
      messages: [{ role: 'user', content: EXAMPLE_PROMPTS[0] }],
    });
  });

  it('says "Failed to start stream" when the server cannot be reached', async () => {
    mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      'POST /api/ai/chat': () => new Response('bad gateway', { status: 502 }),
    });
    renderRoute('/agent-test');
    await userEvent.click(await screen.findByRole('button', { name: EXAMPLE_PROMPTS[1] }));
    // A proxy's page is no message from the site.
    const toast = await expectToast('Error');
    expect(toast).toHaveTextContent('Failed to start stream');
    expect(document.body).not.toHaveTextContent('bad gateway');
  });

  it('follows the spec when the provider fails mid-stream: no empty answer, no "AI Error" bubble, one toast, Retry', async () => {
    let attempts = 0;
    const api = mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      'POST /api/ai/chat': () => {
        attempts += 1;
        if (attempts > 1) return stream([chunk({ content: 'Back again.' }), 'data: [DONE]\n\n']);
        // What internal/web/routes_ai.go sends when the provider fails after the stream began.
        return stream([
          chunk(tool('running')),
          chunk(tool('completed')),
          `data: ${JSON.stringify({
            object: 'chat.completion.chunk',
            choices: [
              {
                index: 0,
                delta: { content: 'AI Error: The AI service is not available right now.' },
                finish_reason: 'error',
              },
            ],
          })}\n\n`,
          'data: [DONE]\n\n',
        ]);
      },
    });
    renderRoute('/agent-test');
    const box = await screen.findByRole('textbox', { name: 'Prompt' });
    await userEvent.type(box, 'What does the tribe cost?{Enter}');

    const toast = await expectToast('Error');
    expect(toast).toHaveAttribute('data-type', 'error');
    expect(toast).toHaveTextContent('The AI service is not available right now.');
    const log = screen.getByRole('log', { name: 'Conversation' });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send' })).toBeVisible());
    // The empty assistant message is removed; the question stays.
    expect(within(log).getAllByRole('listitem')).toHaveLength(1);
    expect(log).toHaveTextContent('What does the tribe cost?');
    expect(document.body).not.toHaveTextContent('AI Error');
    // The sentence appears once (the toast), not again in a red banner.
    expect(screen.getAllByText('The AI service is not available right now.')).toHaveLength(1);
    expect(screen.getByText('No answer this time.')).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await within(log).findByText('Back again.')).toBeVisible();
    expect(api.to('POST', '/api/ai/chat')[1]?.body).toEqual({
      messages: [{ role: 'user', content: 'What does the tribe cost?' }],
    });
  });

  it('keeps what arrived when the provider fails after some text, marked incomplete', async () => {
    mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      'POST /api/ai/chat': () =>
        stream([
          chunk({ content: 'This answer stops here' }),
          chunk({ content: 'AI Error: The AI service stopped answering.' }),
          'data: [DONE]\n\n',
        ]),
    });
    renderRoute('/agent-test');
    await userEvent.click(await screen.findByRole('button', { name: EXAMPLE_PROMPTS[3] }));
    const toast = await expectToast('Error');
    expect(toast).toHaveTextContent('The AI service stopped answering.');
    const log = screen.getByRole('log', { name: 'Conversation' });
    expect(within(log).getByText('This answer stops here')).toBeVisible();
    expect(within(log).getByText('(incomplete)')).toBeVisible();
    expect(log).not.toHaveTextContent('AI Error');
    expect(within(log).queryByRole('button', { name: 'Copy answer' })).not.toBeInTheDocument();
    expect(screen.getByText('The answer above stopped before it was complete.')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();
  });

  it('shows a tool as running while it runs, then completed', async () => {
    const toolDone = deferred<void>();
    const encoder = new TextEncoder();
    mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      'POST /api/ai/chat': () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async start(controller) {
              controller.enqueue(encoder.encode(chunk(tool('running'))));
              await toolDone.promise;
              controller.enqueue(encoder.encode(chunk(tool('completed'))));
              controller.enqueue(encoder.encode(chunk({ content: 'Found it.' })));
              controller.enqueue(encoder.encode('data: [DONE]\n\n'));
              controller.close();
            },
          }),
          { status: 200, headers: { 'Content-Type': 'text/event-stream' } },
        ),
    });
    renderRoute('/agent-test');
    await userEvent.click(await screen.findByRole('button', { name: EXAMPLE_PROMPTS[2] }));

    const tools = await screen.findByRole('list', { name: 'Tool calls' });
    const item = within(tools).getByRole('listitem');
    expect(item).toHaveAttribute('data-state', 'running');
    expect(within(item).getByText('running')).toBeVisible();
    expect(within(item).getByText('search_knowledge_base')).toBeVisible();
    expect(within(item).getByText('“q”')).toBeVisible();
    // The spinner turns while the tool runs (motion permitting).
    expect(item.querySelector('svg')?.getAttribute('class')).toMatch(/animate-spin/);

    toolDone.resolve();
    await waitFor(() => expect(item).toHaveAttribute('data-state', 'completed'));
    expect(within(item).getByText('completed')).toBeVisible();
    expect(item.querySelector('.animate-spin, [class*="animate-spin"]')).toBeNull();
    expect(
      await within(screen.getByRole('log', { name: 'Conversation' })).findByText('Found it.'),
    ).toBeVisible();
  });

  it('seeds the knowledge base with a toast, and reports a refusal', async () => {
    let seeds = 0;
    mockApi({
      'GET /api/auth/session': () => json(200, { user: admin }),
      'POST /api/admin/kb/seed': () => {
        seeds += 1;
        return seeds === 1
          ? json(200, {
              count: 42,
              message: 'Seeded 42 documents',
              breakdown: {
                about: 1,
                services: 2,
                projects: 3,
                stack: 4,
                contact: 5,
                community: 27,
              },
            })
          : apiError(403, 'forbidden', 'Only admins can seed the knowledge base.');
      },
    });
    renderRoute('/agent-test');
    await userEvent.click(await screen.findByRole('button', { name: 'Seed KB' }));
    const done = await expectToast('Knowledge base seeded');
    expect(done).toHaveTextContent('Seeded 42 documents to knowledge base');
    await userEvent.click(screen.getByRole('button', { name: 'Seed KB' }));
    const failed = await expectToast('Seeding failed');
    expect(failed).toHaveTextContent('Only admins can seed the knowledge base.');
  });
});
