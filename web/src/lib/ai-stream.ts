/**
 * The client side of POST /api/ai/chat, shared by the console, the agent test page and the goal
 * planner. The server streams `data: {chat.completion.chunk}` lines ending with `data: [DONE]`;
 * `choices[0].delta` carries content, a tool_status or tool_calls. Errors before the stream are
 * JSON errors (thrown as ApiError); errors during it arrive as content reading "AI Error: …".
 */

import type { ChatMessage, ToolStatus } from '@/lib/api-types/agent';
import type { AIChatRequest } from '@/lib/api-types/web';
import { ApiError, errorFromResponse, send } from './api';

/** A message of the conversation, and a tool the server started or finished while answering. */
export type { ChatMessage, ToolStatus };

/** A tool call the model made, with its arguments as the JSON text it sent. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ChatEvent =
  | { kind: 'content'; text: string }
  | { kind: 'tool_status'; tool: ToolStatus }
  | { kind: 'tool_calls'; calls: ToolCall[] };

/**
 * Splits text that arrives in arbitrary pieces into whole lines. A piece may end mid-line (or
 * between \r and \n): the partial line is kept for the next piece.
 */
export class LineBuffer {
  private rest = '';

  /** Adds a piece and returns the lines it completed, without their line endings. */
  push(piece: string): string[] {
    const text = this.rest + piece;
    const lines = text.split(/\r\n|\n|\r(?!$)/);
    this.rest = lines.pop() ?? '';
    // A lone \r at the very end may be the first half of \r\n: keep it until the next piece.
    return lines;
  }

  /** The last line, when the text ended without a line break. */
  flush(): string[] {
    const last = this.rest.replace(/\r$/, '');
    this.rest = '';
    return last === '' ? [] : [last];
  }
}

/** What one line of the stream says: its events, `done` for `[DONE]`, or no events. */
export function parseStreamLine(line: string): ChatEvent[] | 'done' {
  if (!line.startsWith('data:')) return []; // comments (keep-alives), blank lines, other fields
  const data = line.slice(5).trimStart();
  if (data === '[DONE]') return 'done';
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch {
    return [];
  }
  return eventsOf(chunk);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function eventsOf(chunk: unknown): ChatEvent[] {
  if (!isRecord(chunk) || !Array.isArray(chunk.choices)) return [];
  const choice: unknown = chunk.choices[0];
  if (!isRecord(choice) || !isRecord(choice.delta)) return [];
  const delta = choice.delta;
  const events: ChatEvent[] = [];
  const status = delta.tool_status;
  if (isRecord(status) && (status.status === 'running' || status.status === 'completed')) {
    events.push({
      kind: 'tool_status',
      tool: {
        id: text(status.id),
        name: text(status.name),
        query: text(status.query),
        status: status.status,
      },
    });
  }
  if (Array.isArray(delta.tool_calls)) {
    const calls = delta.tool_calls.filter(isRecord).map((call) => {
      const fn = isRecord(call.function) ? call.function : {};
      return { id: text(call.id), name: text(fn.name), arguments: text(fn.arguments) };
    });
    if (calls.length > 0) events.push({ kind: 'tool_calls', calls });
  }
  if (typeof delta.content === 'string' && delta.content !== '') {
    events.push({ kind: 'content', text: delta.content });
  }
  return events;
}

export interface ChatOptions {
  /** Called for every event, in order, as it arrives. */
  onEvent: (event: ChatEvent) => void;
  /** Aborting stops the answer; the server cancels its model request at once. */
  signal?: AbortSignal;
  /** `goal` asks for a step-by-step plan instead of an answer. */
  purpose?: AIChatRequest['purpose'];
}

/** The message shown when a stream stops before `[DONE]`. */
export const CUT_OFF_MESSAGE = 'The answer stopped before it was complete. Please try again.';

/**
 * Asks the server and feeds the streamed answer to `onEvent`. Resolves at `[DONE]`; throws an
 * ApiError when the server refuses (with its message) or the stream breaks off, and rethrows an
 * abort.
 */
export async function streamChat(messages: ChatMessage[], options: ChatOptions): Promise<void> {
  const { onEvent, signal, purpose } = options;
  const request: AIChatRequest = purpose ? { messages, purpose } : { messages };
  const res = await send('/api/ai/chat', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { Accept: 'text/event-stream', 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
    signal,
  });
  if (!res.ok) throw await errorFromResponse(res);
  if (!res.body) throw new ApiError(0, 'stream_cut', CUT_OFF_MESSAGE);

  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const lines = new LineBuffer();
  const handle = (batch: string[]): boolean => {
    for (const line of batch) {
      const result = parseStreamLine(line);
      if (result === 'done') return true;
      for (const event of result) onEvent(event);
    }
    return false;
  };
  try {
    for (;;) {
      let read: ReadableStreamReadResult<string>;
      try {
        read = await reader.read();
      } catch (cause) {
        if (signal?.aborted) throw cause;
        throw new ApiError(0, 'stream_cut', CUT_OFF_MESSAGE);
      }
      if (read.done) {
        if (handle(lines.flush())) return;
        throw new ApiError(0, 'stream_cut', CUT_OFF_MESSAGE);
      }
      if (handle(lines.push(read.value))) return;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
