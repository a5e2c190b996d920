import { ArrowRight, ArrowUpRight } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { TerminalWindow } from '@/components/ui/terminal-window';
import { consoleQuoted } from '@/content/home';
import { cn } from '@/lib/cn';
import { externalLinkProps } from '@/lib/links';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import {
  answerOrFailure,
  type Block,
  bookingAnswer,
  type ConsoleEvent,
  commonPrefix,
  completions,
  servicesAnswer,
  type Tone,
} from './basics';
import { splitColumns } from './layout';
import type { Line } from './transcript';
import { useTypewriter } from './use-typewriter';

/** One announcement for screen readers: a command and its whole output. */
interface Announcement {
  id: number;
  text: string;
}

const toneClass: Record<Tone, string> = {
  output: 'text-fg',
  muted: 'text-muted',
  error: 'text-term-red',
  accent: 'text-term-cyan',
};

/**
 * The first transcript: a welcome and what `services` and `booking` answer. Built the same way
 * on the server and in the browser, so the prerendered HTML hydrates as it is.
 */
function initialLines(): Line[] {
  const lines: Line[] = [];
  const add = (kind: Line['kind'], block: Block) =>
    lines.push({ ...block, id: lines.length, kind, streaming: false });
  add('output', {
    text: "Welcome to the rUv console. Type 'help' for every command, or ask a question.",
    tone: 'muted',
  });
  const answers = { services: servicesAnswer, booking: bookingAnswer };
  for (const [command, answer] of Object.entries(answers)) {
    add('input', { text: command, tone: 'output' });
    for (const block of answerOrFailure(command, () => answer(consoleQuoted()))) {
      add('output', block);
    }
  }
  return lines;
}

let commands: Promise<typeof import('./commands')> | undefined;

/**
 * The command runner, with every content file, search and the AI stream: loaded at the first sign
 * that the console is about to be used (focus, a pointer over it, a command), not with the page.
 */
function loadCommands(): Promise<typeof import('./commands')> {
  commands ??= import('./commands');
  return commands;
}

/** An AI answer's text for a terminal: its Markdown bold markers dropped. */
function plain(line: Line): string {
  return line.tone === 'accent' ? line.text.replaceAll('**', '') : line.text;
}

/** Applies one event of a running command to the transcript. */
function apply(lines: Line[], event: ConsoleEvent, nextId: () => number): Line[] {
  switch (event.kind) {
    case 'clear':
      return [];
    case 'print':
      return [
        ...lines,
        { ...event.block, id: nextId(), kind: 'output', streaming: event.streaming === true },
      ];
    case 'append':
    case 'end-stream': {
      const last = lines.at(-1);
      if (!last?.streaming) return lines;
      const text = event.kind === 'append' ? last.text + event.text : last.text;
      return [...lines.slice(0, -1), { ...last, text, streaming: event.kind === 'append' }];
    }
  }
}

/**
 * Output text, line by line with a hanging indent: a line that wraps on a narrow screen goes on
 * indented, so lists and columns stay readable at 320 px.
 */
function OutputText({ text, cursor }: { text: string; cursor: boolean }) {
  const rows = text.split('\n');
  return rows.map((row, i) => {
    const caret =
      cursor && i === rows.length - 1 ? (
        <span
          aria-hidden="true"
          className="ml-0.5 inline-block h-4 w-2 translate-y-0.5 bg-term-green motion-safe:animate-blink"
        />
      ) : null;
    const columns = splitColumns(row);
    if (columns) {
      // The second column wraps as a whole to its own line, indented, when it does not fit.
      return (
        // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one text, in order, never reordered
        <span key={i} className="flex flex-wrap pl-[6ch]">
          <span className="-ml-[6ch] whitespace-pre">{columns[0]}</span>
          <span className="min-w-0">
            {columns[1]}
            {caret}
          </span>
        </span>
      );
    }
    return (
      // biome-ignore lint/suspicious/noArrayIndexKey: the rows of one text, in order, never reordered
      <span key={i} className="block pl-[4ch] -indent-[4ch]">
        {row === '' ? ' ' : row}
        {caret}
      </span>
    );
  });
}

function LinkOf({ link }: { link: NonNullable<Block['link']> }) {
  const className =
    'mt-1 inline-flex items-center gap-1.5 break-all text-term-cyan hover:underline';
  if (link.external) {
    return (
      <a href={link.href} {...externalLinkProps} className={className}>
        {link.label}
        <ArrowUpRight size={14} aria-hidden="true" className="shrink-0" />
      </a>
    );
  }
  return (
    <Link to={link.href} onClick={scrollToTopSmooth} className={className}>
      {link.label}
      <ArrowRight size={14} aria-hidden="true" className="shrink-0" />
    </Link>
  );
}

/**
 * The interactive console on Home: type a command (or any question) and its answer is typed
 * out. History with Up/Down, Tab completes command names, Ctrl+L clears. Screen readers get
 * each command's whole output once, from a hidden live log, not the characters being typed.
 */
export function Console() {
  const [lines, setLines] = useState<Line[]>(initialLines);
  const [busy, setBusy] = useState(false);
  const [value, setValue] = useState('');
  const [announcements, setAnnouncements] = useState<Announcement[]>([]);
  const history = useRef<string[]>([]);
  const historyIndex = useRef(0);
  const draft = useRef('');
  const ids = useRef(1000);
  const nextId = () => {
    ids.current += 1;
    return ids.current;
  };
  const rootRef = useRef<HTMLDivElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const aborter = useRef<AbortController | null>(null);
  const inputId = useId();
  const typing = useTypewriter(lines, rootRef);

  // Stop a streaming answer when the console goes away.
  useEffect(() => () => aborter.current?.abort(), []);

  // Keep the newest output in view, inside the console only (the page does not move). The
  // first transcript stays scrolled to its top, as the prerendered HTML shows it.
  const shownLength = typing.shown.reduce((n, line) => n + line.text.length, typing.shown.length);
  const mounted = useRef(false);
  useEffect(() => {
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    const box = scrollRef.current;
    if (box && shownLength >= 0) box.scrollTop = box.scrollHeight;
  }, [shownLength]);

  // The input is disabled while busy, which drops its focus: give it back when the command ends.
  useEffect(() => {
    if (busy) return;
    const active = document.activeElement;
    if (active === rootRef.current) inputRef.current?.focus();
  }, [busy]);

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    const input = value.trim();
    if (busy || input === '') return;
    typing.finish();
    setValue('');
    history.current = [...history.current.filter((h) => h !== input), input];
    historyIndex.current = history.current.length;
    draft.current = '';
    const first = nextId();
    setLines((current) => [
      ...current,
      { id: first, kind: 'input', text: input, tone: 'output', streaming: false },
    ]);
    if (document.activeElement === inputRef.current) rootRef.current?.focus();
    setBusy(true);
    const outputs: Block[] = [];
    const controller = new AbortController();
    aborter.current = controller;
    let runCommand: typeof import('./commands')['runCommand'];
    try {
      ({ runCommand } = await loadCommands());
    } catch {
      // The chunk could not be fetched (offline, or a new build replaced it): say so, and let a
      // later command try again.
      commands = undefined;
      setLines((current) => [
        ...current,
        {
          id: nextId(),
          kind: 'output',
          text: 'The console could not load its commands. Check the connection and try again.',
          tone: 'error',
          streaming: false,
        },
      ]);
      setBusy(false);
      return;
    }
    try {
      await runCommand(input, {
        signal: controller.signal,
        emit: (e) => {
          if (e.kind === 'print') {
            outputs.push(e.block);
          } else if (e.kind === 'append') {
            const last = outputs.pop();
            if (last) outputs.push({ ...last, text: last.text + e.text });
          } else if (e.kind === 'clear') {
            outputs.length = 0;
          }
          setLines((current) => apply(current, e, nextId));
        },
      });
    } catch {
      return; // aborted: the console is gone
    }
    aborter.current = null;
    const said = outputs
      .map((b) => {
        const text = b.tone === 'accent' ? b.text.replaceAll('**', '') : b.text;
        return b.link ? `${text}\n${b.link.label}` : text;
      })
      .join('\n')
      .trim();
    setAnnouncements((current) => [
      ...current.slice(-2),
      { id: first, text: said === '' ? `${input}: done.` : `${input}:\n${said}` },
    ]);
    setBusy(false);
  };

  const clear = () => {
    typing.finish();
    setLines([]);
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'l' && e.ctrlKey) {
      e.preventDefault();
      clear();
      return;
    }
    if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      const list = history.current;
      if (list.length === 0) return;
      e.preventDefault();
      if (historyIndex.current === list.length) draft.current = value;
      const step = e.key === 'ArrowUp' ? -1 : 1;
      const index = Math.min(list.length, Math.max(0, historyIndex.current + step));
      historyIndex.current = index;
      setValue(index === list.length ? draft.current : (list[index] ?? ''));
      return;
    }
    if (e.key === 'Tab' && !e.shiftKey) {
      const matches = completions(value);
      // Nothing to complete: Tab moves focus on as usual, so the keyboard never gets stuck here.
      if (matches.length === 0) return;
      e.preventDefault();
      const prefix = commonPrefix(matches);
      if (matches.length === 1) setValue(`${prefix} `);
      else if (prefix.length > value.trim().length) setValue(prefix);
      else {
        setLines((current) => [
          ...current,
          {
            id: nextId(),
            kind: 'output',
            text: matches.join('  '),
            tone: 'muted',
            streaming: false,
          },
        ]);
      }
    }
  };

  // The commands' chunk starts loading as soon as someone reaches for the console, so it has
  // usually arrived by the time they press Enter.
  const prefetch = () => {
    loadCommands().catch(() => {
      commands = undefined;
    });
  };

  const onClick = () => {
    typing.finish();
    const selected = window.getSelection()?.toString() ?? '';
    if (selected === '' && !busy) inputRef.current?.focus();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click anywhere on the console only finishes the typing and focuses the input, which the keyboard reaches directly
    // biome-ignore lint/a11y/useKeyWithClickEvents: key presses are handled inside, where focus is
    <div onClick={onClick} onPointerEnter={prefetch} onFocus={prefetch} className="min-w-0">
      <TerminalWindow title="ruv@io: ~ (console)" className="min-w-0">
        {/* biome-ignore lint/a11y/noStaticElementInteractions: a key press here only finishes the typing; focus rests here while the input is disabled */}
        <div ref={rootRef} tabIndex={-1} onKeyDown={() => typing.finish()} className="outline-none">
          <div
            ref={scrollRef}
            data-testid="console-output"
            className="max-h-[24rem] min-h-48 overflow-y-auto overflow-x-hidden pr-1"
          >
            {typing.shown.map((line) => (
              <div
                key={line.id}
                aria-hidden={line.id === typing.activeId ? true : undefined}
                className={cn('mt-2 first:mt-0', line.kind === 'input' && 'mt-4')}
              >
                {line.kind === 'input' ? (
                  <p className="break-words">
                    <span className="text-term-green">$</span>{' '}
                    <span className="text-fg">{line.text}</span>
                  </p>
                ) : line.text === '' && line.link ? null : (
                  // A block may be its link alone (the free times of `slots`).
                  <p
                    className={cn(
                      'whitespace-pre-wrap [overflow-wrap:anywhere]',
                      toneClass[line.tone],
                    )}
                  >
                    <OutputText
                      text={plain(line)}
                      cursor={line.id === typing.activeId || line.streaming}
                    />
                  </p>
                )}
                {line.link && line.id !== typing.activeId ? <LinkOf link={line.link} /> : null}
              </div>
            ))}
          </div>
          <form onSubmit={submit} className="mt-4 flex items-center gap-2">
            <label htmlFor={inputId} className="text-term-green">
              <span aria-hidden="true">$</span>
              <span className="sr-only">Console command</span>
            </label>
            <input
              id={inputId}
              ref={inputRef}
              value={value}
              onChange={(e) => setValue(e.target.value)}
              onKeyDown={onKeyDown}
              disabled={busy}
              placeholder={busy ? 'Processing...' : 'Type command...'}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              maxLength={2000}
              enterKeyHint="send"
              className="min-w-0 flex-1 bg-transparent text-fg caret-term-green outline-none placeholder:text-dim disabled:cursor-wait"
            />
          </form>
          <div role="log" aria-live="polite" aria-label="Console output" className="sr-only">
            {announcements.map((a) => (
              <p key={a.id} className="whitespace-pre-wrap">
                {a.text}
              </p>
            ))}
          </div>
        </div>
      </TerminalWindow>
    </div>
  );
}
