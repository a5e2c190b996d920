/**
 * A conversation with the site's AI over POST /api/ai/chat (lib/ai-stream.ts), shared by the agent
 * test page and the goal planner: the messages, the tools the current answer runs, and
 * send / stop / retry / clear.
 *
 * Sending appends the person's message and an empty assistant message at once; the stream fills
 * the assistant message. On failure (the request refused, or the provider failing mid-stream,
 * which the server reports as an "AI Error: …" chunk) the empty assistant message is removed and
 * the reason goes into a destructive toast (spec: members-area.md §4 Chat, §8); the error text
 * never becomes part of the answer. An answer cut short keeps what it had, marked failed. The
 * failure is kept for a Retry.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { type ChatMessage, streamChat, type ToolStatus } from './ai-stream';
import { ApiError } from './api';
import { toast } from './toast';

/** How the server marks a failure inside the stream (internal/agent/chunk.go ErrorPrefix). */
export const AI_ERROR_PREFIX = 'AI Error: ';

/** Shown when the request for an answer fails without a message from the server. */
export const START_FAILED = 'Failed to start stream';

export interface ChatEntry {
  id: string;
  role: ChatMessage['role'];
  content: string;
  /** The answer ended with an error (its text says which). */
  failed?: boolean;
  /** The person stopped the answer. */
  stopped?: boolean;
}

export interface UseChatOptions {
  /** `goal` asks the server for a step-by-step plan. */
  purpose?: 'goal';
}

export interface Chat {
  entries: ChatEntry[];
  /** The tools of the latest answer, in the order they started. */
  tools: ToolStatus[];
  streaming: boolean;
  /** Why the latest answer failed, or null. */
  error: string | null;
  /** How it failed: no answer at all, or an answer cut short (its text stays); null when it did not. */
  failure: ChatFailure | null;
  /** Asks `prompt` (trimmed; a blank prompt is ignored and returns false). */
  send: (prompt: string) => boolean;
  /** Stops the answer being streamed. */
  stop: () => void;
  /** Asks the last question again after a failure. */
  retry: () => void;
  /** Forgets the conversation (stopping any answer). */
  clear: () => void;
}

export type ChatFailure = 'no-answer' | 'cut-short';

/** The toast's id: a new failure replaces the last one instead of stacking under it. */
const FAILURE_TOAST_ID = 'chat-failure';

let nextId = 0;
function newId(): string {
  nextId += 1;
  return `m${nextId}`;
}

// Codes errorFromResponse gives an answer that is not the site's JSON error (a proxy's page, an
// empty body): its text is not a message for a person.
const NOT_FROM_SITE = new Set(['bad_request', 'server_error', 'http_error']);

/** The message shown for what streamChat threw: the site's own message, or START_FAILED. */
export function chatErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError) || error.message === '' || NOT_FROM_SITE.has(error.code)) {
    return START_FAILED;
  }
  return error.message;
}

/** A conversation with the site's AI; see the module comment. */
export function useChat(options: UseChatOptions = {}): Chat {
  const { purpose } = options;
  const [entries, setEntriesState] = useState<ChatEntry[]>([]);
  const [tools, setTools] = useState<ToolStatus[]>([]);
  const [streaming, setStreaming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<ChatFailure | null>(null);
  // The latest entries, for send and retry called from event handlers between renders.
  const entriesRef = useRef<ChatEntry[]>([]);
  const controllerRef = useRef<AbortController | null>(null);
  // The assistant message being streamed, so Stop can settle it at once.
  const answerIdRef = useRef<string | null>(null);

  const setEntries = useCallback((update: (prev: ChatEntry[]) => ChatEntry[]) => {
    entriesRef.current = update(entriesRef.current);
    setEntriesState(entriesRef.current);
  }, []);

  useEffect(() => () => controllerRef.current?.abort(), []);

  const run = useCallback(
    (history: ChatEntry[], prompt: string) => {
      const user: ChatEntry = { id: newId(), role: 'user', content: prompt };
      const answer: ChatEntry = { id: newId(), role: 'assistant', content: '' };
      const messages: ChatMessage[] = [...history, user]
        .filter((e) => !e.failed && e.content.trim() !== '')
        .map(({ role, content }) => ({ role, content }));
      setEntries(() => [...history, user, answer]);
      setTools([]);
      setError(null);
      setFailure(null);
      setStreaming(true);
      const controller = new AbortController();
      controllerRef.current = controller;
      answerIdRef.current = answer.id;

      const patch = (change: (e: ChatEntry) => ChatEntry) =>
        setEntries((prev) => prev.map((e) => (e.id === answer.id ? change(e) : e)));
      const fail = (message: string) => {
        const partial = entriesRef.current.some((e) => e.id === answer.id && e.content !== '');
        setEntries((prev) =>
          prev
            .filter((e) => e.id !== answer.id || e.content !== '')
            .map((e) => (e.id === answer.id ? { ...e, failed: true } : e)),
        );
        setError(message);
        setFailure(partial ? 'cut-short' : 'no-answer');
        void toast.error('Error', message, { id: FAILURE_TOAST_ID });
      };
      let streamError: string | null = null;

      streamChat(messages, {
        purpose,
        signal: controller.signal,
        onEvent: (event) => {
          if (controller.signal.aborted) return;
          if (event.kind === 'content') {
            if (event.text.startsWith(AI_ERROR_PREFIX)) {
              streamError = event.text.slice(AI_ERROR_PREFIX.length).trim() || START_FAILED;
              return;
            }
            patch((e) => ({ ...e, content: e.content + event.text }));
          } else if (event.kind === 'tool_status') {
            const tool = event.tool;
            setTools((prev) =>
              prev.some((t) => t.id === tool.id)
                ? prev.map((t) => (t.id === tool.id ? tool : t))
                : [...prev, tool],
            );
          }
        },
      })
        .then(() => {
          if (streamError !== null && !controller.signal.aborted) fail(streamError);
        })
        .catch((cause: unknown) => {
          // Stop and Clear History settled the conversation themselves.
          if (controller.signal.aborted) return;
          fail(chatErrorMessage(cause));
        })
        .finally(() => {
          if (controllerRef.current === controller) {
            controllerRef.current = null;
            setStreaming(false);
          }
        });
    },
    [purpose, setEntries],
  );

  const send = useCallback(
    (prompt: string) => {
      const text = prompt.trim();
      if (text === '' || controllerRef.current !== null) return false;
      run(entriesRef.current, text);
      return true;
    },
    [run],
  );

  // Stop settles the answer at once (what arrived stays, an empty one goes), without waiting for the
  // aborted request to wind down.
  const stop = useCallback(() => {
    const controller = controllerRef.current;
    if (controller === null) return;
    controllerRef.current = null;
    controller.abort();
    const id = answerIdRef.current;
    setEntries((prev) =>
      prev
        .filter((e) => e.id !== id || e.content !== '')
        .map((e) => (e.id === id ? { ...e, stopped: true } : e)),
    );
    setStreaming(false);
  }, [setEntries]);

  const retry = useCallback(() => {
    if (controllerRef.current !== null) return;
    const all = entriesRef.current;
    const at = all.map((e) => e.role).lastIndexOf('user');
    const question = all[at];
    if (!question) return;
    run(all.slice(0, at), question.content);
  }, [run]);

  const clear = useCallback(() => {
    const controller = controllerRef.current;
    controllerRef.current = null;
    controller?.abort();
    setEntries(() => []);
    setTools([]);
    setError(null);
    setFailure(null);
    setStreaming(false);
  }, [setEntries]);

  return { entries, tools, streaming, error, failure, send, stop, retry, clear };
}
