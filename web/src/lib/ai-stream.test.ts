import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type ChatEvent,
  CUT_OFF_MESSAGE,
  LineBuffer,
  parseStreamLine,
  streamChat,
} from './ai-stream';
import { ApiError } from './api';

/** A small seeded generator, so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function chunk(delta: Record<string, unknown>): string {
  return `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta }] })}`;
}

/** Cuts `text` at random places into 1 to 12 pieces. */
function cut(text: string, next: () => number): string[] {
  const points = new Set<number>();
  const count = Math.floor(next() * 12);
  for (let i = 0; i < count; i++) points.add(Math.floor(next() * (text.length + 1)));
  const sorted = [...points].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const at of sorted) {
    pieces.push(text.slice(from, at));
    from = at;
  }
  pieces.push(text.slice(from));
  return pieces;
}

describe('LineBuffer', () => {
  it('gives the same lines however the text is cut, for every line ending', () => {
    const lines = ['data: {"a":1}', '', ': keep-alive', 'data: héllo ✓ 𝄞', 'data: [DONE]'];
    for (const ending of ['\n', '\r\n', '\r']) {
      const whole = lines.join(ending) + ending;
      for (let seed = 1; seed <= 300; seed++) {
        const buffer = new LineBuffer();
        const got: string[] = [];
        for (const piece of cut(whole, random(seed))) got.push(...buffer.push(piece));
        got.push(...buffer.flush());
        expect(got, `ending ${JSON.stringify(ending)}, seed ${seed}`).toEqual(lines);
      }
    }
  });

  it('keeps a partial line until its end arrives, and flushes a last line without a break', () => {
    const buffer = new LineBuffer();
    expect(buffer.push('data: {"cho')).toEqual([]);
    expect(buffer.push('ices":[]}\ndata: [DO')).toEqual(['data: {"choices":[]}']);
    expect(buffer.flush()).toEqual(['data: [DO']);
    expect(buffer.flush()).toEqual([]);
  });
});

describe('parseStreamLine', () => {
  it('reads content, tool status and tool calls from a chunk', () => {
    expect(parseStreamLine(chunk({ content: 'Hi' }))).toEqual([{ kind: 'content', text: 'Hi' }]);
    expect(
      parseStreamLine(
        chunk({
          tool_status: {
            id: 't1',
            name: 'search_knowledge_base',
            query: 'price',
            status: 'running',
          },
        }),
      ),
    ).toEqual([
      {
        kind: 'tool_status',
        tool: { id: 't1', name: 'search_knowledge_base', query: 'price', status: 'running' },
      },
    ]);
    expect(
      parseStreamLine(
        chunk({
          tool_calls: [
            { id: 'c1', function: { name: 'search_knowledge_base', arguments: '{"query":"x"}' } },
          ],
        }),
      ),
    ).toEqual([
      {
        kind: 'tool_calls',
        calls: [{ id: 'c1', name: 'search_knowledge_base', arguments: '{"query":"x"}' }],
      },
    ]);
  });

  it('ends at [DONE] and ignores comments, other fields, bad JSON and unknown shapes', () => {
    expect(parseStreamLine('data: [DONE]')).toBe('done');
    expect(parseStreamLine('data:[DONE]')).toBe('done');
    for (const line of [
      '',
      ': keep-alive',
      'event: ping',
      'data: {not json',
      'data: 42',
      'data: {"choices":"no"}',
      chunk({ role: 'assistant' }),
      chunk({ tool_status: { status: 'exploded' } }),
    ]) {
      expect(parseStreamLine(line), line).toEqual([]);
    }
  });
});

describe('streamChat', () => {
  afterEach(() => vi.unstubAllGlobals());

  function streamOf(pieces: string[]): Response {
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const piece of pieces) controller.enqueue(encoder.encode(piece));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
  }

  it('feeds every event in order, whatever the network pieces, and sends only the messages', async () => {
    const whole = [
      ': keep-alive',
      chunk({ tool_status: { id: 't', name: 's', query: 'q', status: 'running' } }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo ✓' }),
      'data: [DONE]',
      '',
    ].join('\n');
    for (let seed = 1; seed <= 50; seed++) {
      const fetchMock = vi.fn(async (_url: string, _init: RequestInit) =>
        streamOf(cut(whole, random(seed))),
      );
      vi.stubGlobal('fetch', fetchMock);
      const events: ChatEvent[] = [];
      await streamChat([{ role: 'user', content: 'hi' }], { onEvent: (e) => events.push(e) });
      expect(events.map((e) => e.kind)).toEqual(['tool_status', 'content', 'content']);
      expect(events.map((e) => (e.kind === 'content' ? e.text : '')).join(''), `seed ${seed}`).toBe(
        'Hello ✓',
      );
      const init = fetchMock.mock.calls[0]?.[1];
      expect(JSON.parse(String(init?.body))).toEqual({
        messages: [{ role: 'user', content: 'hi' }],
      });
    }
  });

  it('throws the server message when the chat is refused before the stream', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'Slow down.' } }), {
            status: 429,
            headers: { 'Content-Type': 'application/json' },
          }),
      ),
    );
    const failure = streamChat([{ role: 'user', content: 'hi' }], { onEvent: () => {} });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 429, message: 'Slow down.' });
  });

  it('says the answer was cut off when the stream ends without [DONE]', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => streamOf([`${chunk({ content: 'Half' })}\n`])),
    );
    const events: ChatEvent[] = [];
    await expect(
      streamChat([{ role: 'user', content: 'hi' }], { onEvent: (e) => events.push(e) }),
    ).rejects.toMatchObject({ message: CUT_OFF_MESSAGE });
    expect(events).toEqual([{ kind: 'content', text: 'Half' }]);
  });

  it('sends the purpose when one is asked for', async () => {
    const fetchMock = vi.fn(async (_url: string, _init: RequestInit) =>
      streamOf(['data: [DONE]\n']),
    );
    vi.stubGlobal('fetch', fetchMock);
    await streamChat([{ role: 'user', content: 'Learn Go' }], {
      onEvent: () => {},
      purpose: 'goal',
    });
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toMatchObject({
      purpose: 'goal',
    });
  });
});
