/**
 * What the Home console answers, without React: every command, its aliases, usage and error
 * texts. Local commands answer from the bundled content files (the same prices as every page);
 * resources/* and the tools read the files the server publishes; search, ask and unrecognised
 * input go to the knowledge base and the AI stream. The component only renders what this emits.
 */

import { formatPrice } from '@/content/format';
import { siteContent } from '@/content/site';
import type { SiteContent } from '@/content/types';
import { streamChat } from '@/lib/ai-stream';
import { errorMessage } from '@/lib/api';
import type { Result as SearchResult } from '@/lib/api-types/kb';
import { searchKnowledge, seedKnowledgeBase } from '@/lib/kb';
import { plural } from '@/lib/plural';
import { detectTimeZone, shortDateTime, todayIn } from '@/lib/time-zone';
import {
  answerOrFailure,
  type Block,
  BOOKING_PAGE,
  bookingAnswer,
  type ConsoleEvent,
  type ConsoleLink,
  out,
  servicesAnswer,
  type Tone,
} from './basics';

export type { Block, ConsoleEvent, ConsoleLink, Tone } from './basics';
export { COMMAND_NAMES, commonPrefix, completions } from './basics';

export interface RunOptions {
  emit: (event: ConsoleEvent) => void;
  /** The artificial pause before a local answer; a timer unless a test replaces it. */
  wait?: (ms: number) => Promise<void>;
  /** Aborting stops a streaming answer (the console unmounted). */
  signal?: AbortSignal;
}

/** The pause before a local command answers, as a terminal would take a moment. */
export const LOCAL_DELAY_MS = 500;
/** Passages the console asks the knowledge base for. */
export const SEARCH_LIMIT = 3;
/** Characters of each passage shown. */
export const PREVIEW_CHARS = 100;

/** The usage texts, shown when a command lacks its argument. */
export const USAGE = {
  search: 'Usage: search <query>\nExample: search engineering',
  ask: 'Usage: ask <question>\nExample: ask what does the tribe cost',
  read: 'Usage: resources/read <uri>\nExample: resources/read /content/about.json',
  call: 'Usage: tools/call <name> <json>\nExample: tools/call search {"query":"tribe"}',
  slots: 'Usage: slots [15|30|60]\nExample: slots 60',
} as const;

/** How many free times `slots` lists, and how many days ahead it looks. */
export const SLOTS_SHOWN = 5;
export const SLOTS_DAYS = 14;

/** The reply to input that is no command (it is then searched and asked). */
export function notRecognized(input: string): string {
  return `Command not recognized: '${input}'. Type 'help' for available commands.`;
}

export const NO_RESULTS = 'No results found for your search query.';

/**
 * The width of help's name column: its longest name, `tools/call <name> <json>`. Every row is the
 * name padded to it, two spaces, then the description, so each is one two-column row that the
 * console lays out (layout.ts): the description beside the names where the screen is wide enough,
 * on its own indented line where it is not, and never wrapped into the names. Two leading spaces
 * plus this column must fit a 320 px phone's 30 characters (layout.test.ts).
 */
export const HELP_NAME_WIDTH = 24;

const HELP = [
  'Available commands:',
  ...(
    [
      ['help, commands', 'this list'],
      ['about', 'who rUv is'],
      ['services, pricing', 'sessions, training, tribe'],
      ['projects', 'open-source projects'],
      ['stack, tech', 'the stack by category'],
      ['tools', 'every tool in the stack'],
      ['skills', 'areas of expertise'],
      ['contact', 'e-mail and booking'],
      ['github', 'code on GitHub'],
      ['linkedin', 'the LinkedIn profile'],
      ['booking', 'book a session'],
      ['slots [15|30|60]', 'next free times'],
      ['search <query>', 'search the knowledge base'],
      ['ask <question>', 'ask the AI (also: ai)'],
      ['resources/list', 'published resources'],
      ['resources/read <uri>', 'read one resource'],
      ['tools/list', 'tools the console calls'],
      ['tools/call <name> <json>', 'call a tool'],
      ['seed-kb', 'rebuild the KB (admins)'],
      ['clear', 'clear the screen (Ctrl+L)'],
    ] as const
  ).map(([name, what]) => `  ${name.padEnd(HELP_NAME_WIDTH)}  ${what}`),
  'Examples:',
  '  search engineering',
  '  resources/read /content/about.json',
  '  tools/call search {"query":"tribe"}',
  'Anything else is searched and answered by the AI. Up/Down recall earlier commands, Tab completes.',
].join('\n');

/** A local command: its blocks from the content, and the noun of its failure message. */
interface LocalCommand {
  noun: string;
  answer: (c: SiteContent) => Block[];
}

/** `stack` and its alias `tech`: the stack by category. */
const STACK: LocalCommand = {
  noun: 'stack',
  answer: ({ stack }) => [
    out(
      stack.categories.map((c) => `${c.name}: ${c.tools.map((t) => t.name).join(', ')}`).join('\n'),
    ),
  ],
};

const LOCAL: Record<string, LocalCommand> = {
  about: {
    noun: 'about',
    answer: ({ about: a }) => [
      out(`${a.name} (${a.handle}): ${a.title}\n\n${a.summary}\n\n${a.approach}\n\n${a.website}`),
    ],
  },
  services: { noun: 'services', answer: (c) => servicesAnswer(c.services) },
  pricing: { noun: 'pricing', answer: (c) => servicesAnswer(c.services) },
  projects: {
    noun: 'projects',
    answer: ({ projects: p }) => [
      out(
        [
          'Featured projects:',
          ...p.featured.map((x) => `  ${x.name}: ${x.description}`),
          'More projects:',
          ...p.projects.map((x) => `  ${x.name}: ${x.description}`),
        ].join('\n'),
      ),
      out(`${p.stats.total_repositories_display} repositories on GitHub.`, 'muted', {
        href: p.stats.github_url,
        label: p.stats.github_url,
        external: true,
      }),
    ],
  },
  stack: STACK,
  tech: STACK,
  tools: {
    noun: 'tools',
    answer: ({ stack }) => [
      out(
        stack.categories
          .flatMap((c) => c.tools.map((t) => `  ${t.name}: ${t.description}`))
          .join('\n'),
      ),
      out("The tools the console itself can call: type 'tools/list'.", 'muted'),
    ],
  },
  skills: {
    noun: 'skills',
    answer: ({ about }) => [out(about.expertise.map((e) => `  • ${e}`).join('\n'))],
  },
  contact: {
    noun: 'contact',
    answer: ({ contact: c }) => [
      out(
        [
          c.message,
          '',
          `E-mail:   ${c.email}`,
          `Booking:  ${c.booking_url}`,
          ...Object.entries(c.online_presence.links).map(
            ([name, url]) => `${`${name}:`.padEnd(9)} ${url}`,
          ),
        ].join('\n'),
      ),
    ],
  },
  github: {
    noun: 'GitHub',
    answer: ({ contact, projects }) => {
      const url = contact.online_presence.links.github;
      return [
        out(
          `${projects.stats.total_repositories_display} open-source repositories on GitHub.`,
          'output',
          {
            href: url,
            label: url,
            external: true,
          },
        ),
      ];
    },
  },
  linkedin: {
    noun: 'LinkedIn',
    answer: ({ contact }) => {
      const url = contact.online_presence.links.linkedin;
      return [out('Connect on LinkedIn.', 'output', { href: url, label: url, external: true })];
    },
  },
  booking: { noun: 'booking', answer: (c) => bookingAnswer(c.services) },
  help: { noun: 'help', answer: () => [out(HELP)] },
  commands: { noun: 'help', answer: () => [out(HELP)] },
};

/** The blocks a local command answers with (used for the console's first transcript too). */
export function localAnswer(name: string, content: SiteContent = siteContent()): Block[] {
  const command = LOCAL[name];
  if (!command) return [];
  return answerOrFailure(command.noun, () => command.answer(content));
}

// ---- the reads the resource commands and tools make -------------------------------------------

/** A resource URI or path as a same-site path: one leading slash, added when missing. */
export function resourcePath(uri: string): string {
  return `/${uri.trim().replace(/^\/+/, '')}`;
}

/** A failed read whose message is already the one to show. */
class ReadError extends Error {}

/** What resources/read returns: JSON when the server says so, text otherwise. */
export interface ResourceContent {
  uri: string;
  mimeType: string;
  content: unknown;
}

/** Reads a resource the site publishes; throws "Resource not found: …" on a non-OK answer. */
export async function readResource(uri: string): Promise<ResourceContent> {
  const path = resourcePath(uri);
  const res = await fetch(path, {
    headers: {
      Accept: 'application/json, text/plain;q=0.9, */*;q=0.8',
      'Cache-Control': 'no-cache',
      Pragma: 'no-cache',
    },
    cache: 'no-store',
    credentials: 'same-origin',
  });
  if (!res.ok) throw new ReadError(`Resource not found: ${path} (${res.status})`);
  const mimeType = (res.headers.get('content-type') ?? 'text/plain').split(';')[0] ?? 'text/plain';
  const content: unknown = mimeType.includes('json') ? await res.json() : await res.text();
  return { uri: path, mimeType, content };
}

/** An MCP resource entry of /mcp/resources.json. */
export interface ResourceEntry {
  uri: string;
  mime: string;
  title: string;
  description: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The resource list the server publishes; throws "Failed to load resources". */
export async function listResources(): Promise<ResourceEntry[]> {
  try {
    const res = await fetch('/mcp/resources.json', { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(String(res.status));
    const data: unknown = await res.json();
    if (!isRecord(data) || !Array.isArray(data.resources)) throw new Error('no resources');
    return data.resources as ResourceEntry[];
  } catch {
    throw new ReadError('Failed to load resources');
  }
}

/** A search-index item of /mcp/search-index.json. */
export interface IndexItem {
  uri: string;
  title: string;
  text: string;
  tags: string[];
}

/** Finds index items by word: a word in the title counts 3, in a tag 2, in the text 1. */
export function searchIndex(items: IndexItem[], query: string, limit = 5) {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return items
    .map((item) => {
      const title = item.title.toLowerCase();
      const tags = item.tags.map((t) => t.toLowerCase());
      const text = item.text.toLowerCase();
      let score = 0;
      for (const w of words) {
        if (title.includes(w)) score += 3;
        if (tags.some((t) => t.includes(w))) score += 2;
        if (text.includes(w)) score += 1;
      }
      return { item, score };
    })
    .filter((r) => r.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ item, score }) => ({
      uri: item.uri,
      title: item.title,
      snippet: preview(item.text),
      score,
    }));
}

async function loadIndex(): Promise<IndexItem[]> {
  try {
    const res = await fetch('/mcp/search-index.json', { headers: { Accept: 'application/json' } });
    if (!res.ok) throw new Error(String(res.status));
    const data: unknown = await res.json();
    if (!isRecord(data) || !Array.isArray(data.items)) throw new Error('no items');
    return data.items as IndexItem[];
  } catch {
    throw new ReadError('Failed to search index');
  }
}

/** The value at a path such as `sessions[1].price` or `sessions.1.price`; throws when absent. */
export function jsonPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split(/[.[\]]+/).filter(Boolean)) {
    if (Array.isArray(current) && /^\d+$/.test(key) && Number(key) < current.length) {
      current = current[Number(key)];
    } else if (isRecord(current) && Object.hasOwn(current, key)) {
      current = current[key];
    } else {
      throw new ReadError(`Path not found: ${path}`);
    }
  }
  return current;
}

/** A tool the console can call, as the starter kit offers them. */
export interface ConsoleTool {
  name: string;
  description: string;
  args: string;
  call: (args: Record<string, unknown>) => Promise<unknown>;
}

function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new ReadError(`Missing argument: ${name}`);
  }
  return value;
}

/** The tools of tools/list and tools/call, run in the browser over the published files. */
export const TOOLS: readonly ConsoleTool[] = [
  {
    name: 'search',
    description: 'Search every piece of site content (the search index).',
    args: '{"query": string, "limit"?: number}',
    call: async (args) => {
      const limit = typeof args.limit === 'number' ? args.limit : 5;
      return searchIndex(await loadIndex(), stringArg(args, 'query'), limit);
    },
  },
  {
    name: 'resources/list',
    description: 'List the resources the site publishes.',
    args: '{}',
    call: () => listResources(),
  },
  {
    name: 'resources/read',
    description: 'Read one resource by URI.',
    args: '{"uri": string}',
    call: (args) => readResource(stringArg(args, 'uri')),
  },
  {
    name: 'read_json_path',
    description: 'Read one value of a JSON resource, e.g. path "sessions[1].price".',
    args: '{"uri": string, "path": string}',
    call: async (args) => {
      const uri = stringArg(args, 'uri');
      const path = typeof args.path === 'string' ? args.path : '';
      const { content } = await readResource(uri);
      return { uri: resourcePath(uri), path, value: jsonPath(content, path) };
    },
  },
];

// ---- running a command ------------------------------------------------------------------------

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}…` : flat;
}

function formatResults(results: SearchResult[]): string {
  return results
    .map((r, i) => {
      const source = r.metadata.title || r.metadata.source;
      const match = `${Math.round(r.similarity * 100)}% match`;
      return `[${i + 1}] ${source} (${match})\n    ${preview(r.content)}`;
    })
    .join('\n');
}

/**
 * The user message for unrecognised input: the question, then the passages found for it, numbered
 * as the console showed them. The server knows the block by its header (agent.ContextHeader): it
 * searches for and quotes only the question, and a model gets the message whole.
 */
export function questionWithContext(question: string, results: SearchResult[]): string {
  if (results.length === 0) return question;
  const passages = results
    .map(
      (r, i) => `[${i + 1}] ${r.metadata.title || r.metadata.source}: ${r.content.slice(0, 800)}`,
    )
    .join('\n');
  return `${question}\n\nPassages a search of the site found:\n${passages}`;
}

function pretty(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** Streams the AI's answer to `message` into a new block; "AI Error: …" when it fails. */
async function askAI(message: string, emit: RunOptions['emit'], signal?: AbortSignal) {
  emit({ kind: 'print', block: out('', 'accent'), streaming: true });
  let received = false;
  try {
    await streamChat([{ role: 'user', content: message }], {
      signal,
      onEvent: (event) => {
        if (event.kind !== 'content') return;
        received = true;
        emit({ kind: 'append', text: event.text });
      },
    });
    emit({ kind: 'end-stream' });
    if (!received) emit({ kind: 'print', block: out('AI Error: the answer was empty.', 'error') });
  } catch (error) {
    emit({ kind: 'end-stream' });
    if (isAbort(error)) throw error;
    emit({ kind: 'print', block: out(`AI Error: ${errorMessage(error)}`, 'error') });
  }
}

/** Splits input into its lower-case command word and the rest as typed. */
export function parse(input: string): { name: string; rest: string } {
  const trimmed = input.trim();
  const space = trimmed.search(/\s/);
  const word = (space === -1 ? trimmed : trimmed.slice(0, space)).toLowerCase();
  const rest = space === -1 ? '' : trimmed.slice(space).trim();
  // A leading slash is allowed on clear and ask (as in chat apps).
  const name = /^\/(clear|ask|ai)$/.test(word) ? word.slice(1) : word;
  return { name, rest };
}

const defaultWait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs one line of input and emits its output. Empty input does nothing. Never throws for a
 * failing command (the failure is output), only when `signal` aborts a stream.
 */
export async function runCommand(input: string, options: RunOptions): Promise<void> {
  const { emit, wait = defaultWait, signal } = options;
  const trimmed = input.trim();
  if (trimmed === '') return;
  const { name, rest } = parse(trimmed);
  const print = (text: string, tone: Tone = 'output', link?: ConsoleLink) =>
    emit({ kind: 'print', block: out(text, tone, link) });
  const local = async (blocks: Block[]) => {
    await wait(LOCAL_DELAY_MS);
    for (const block of blocks) emit({ kind: 'print', block });
  };

  if (rest === '' && name in LOCAL) return local(localAnswer(name));

  switch (name) {
    case 'clear':
      if (rest !== '') break;
      emit({ kind: 'clear' });
      return;
    case 'search': {
      if (rest === '') return local([out(USAGE.search, 'muted')]);
      try {
        const { results } = await searchKnowledge(rest, SEARCH_LIMIT);
        print(results.length === 0 ? NO_RESULTS : formatResults(results));
      } catch (error) {
        print(`Error: ${errorMessage(error)}`, 'error');
      }
      return;
    }
    case 'ask':
    case 'ai':
      if (rest === '') return local([out(USAGE.ask, 'muted')]);
      return askAI(rest, emit, signal);
    case 'seed-kb': {
      if (rest !== '') break;
      print('Seeding the knowledge base…', 'muted');
      try {
        const result = await seedKnowledgeBase();
        const parts = Object.entries(result.breakdown).map(([k, v]) => `${k} ${v}`);
        print(`${result.message}\n${plural(result.count, 'document')}: ${parts.join(', ')}.`);
      } catch (error) {
        print(`Error: ${errorMessage(error)}`, 'error');
      }
      return;
    }
    case 'resources/list': {
      if (rest !== '') break;
      try {
        const resources = await listResources();
        print(resources.map((r) => `${r.uri}\n    ${r.title}: ${r.description}`).join('\n'));
        print("Read one with 'resources/read <uri>'.", 'muted');
      } catch (error) {
        print(errorMessage(error), 'error');
      }
      return;
    }
    case 'resources/read': {
      if (rest === '') return local([out(USAGE.read, 'muted')]);
      const path = resourcePath(rest);
      try {
        const { content } = await readResource(path);
        print(pretty(content));
      } catch (error) {
        print(
          error instanceof ReadError
            ? error.message
            : `Failed to read resource: ${path} - ${errorMessage(error)}`,
          'error',
        );
      }
      return;
    }
    case 'tools/list':
      if (rest !== '') break;
      return local([
        out(TOOLS.map((t) => `${t.name} ${t.args}\n    ${t.description}`).join('\n')),
        out("Call one with 'tools/call <name> <json>'.", 'muted'),
      ]);
    case 'tools/call':
      return callTool(rest, print, local);
    case 'slots':
      return listSlots(rest, print, local);
  }

  if (name.startsWith('resources/') || name.startsWith('tools/')) {
    return local([out(`Unknown method: ${name}`, 'error')]);
  }
  return answerUnknown(trimmed, emit, print, signal);
}

/**
 * `slots [15|30|60]`: the next free times of that session (30 minutes by default) in the
 * visitor's zone, each a link that opens the booking page on it. The request's code loads only
 * when the command runs, so the home page does not carry it.
 */
async function listSlots(
  rest: string,
  print: (text: string, tone?: Tone, link?: ConsoleLink) => void,
  local: (blocks: Block[]) => Promise<void>,
  content: SiteContent = siteContent(),
) {
  const minutes = rest === '' ? 30 : /^\d+$/.test(rest) ? Number(rest) : Number.NaN;
  const session = content.services.sessions.find((s) => s.duration === minutes);
  if (!session) {
    const offered = content.services.sessions.map((s) => s.duration).join(', ');
    return local([
      out(`There is no ${rest}-minute session: choose ${offered} minutes.`, 'error'),
      out(USAGE.slots, 'muted'),
    ]);
  }
  if (session.booking !== 'native') {
    const href = session.booking_link ?? '';
    return local([
      href
        ? out(`The ${session.name} is booked on the scheduling page.`, 'output', {
            href,
            label: href,
            external: true,
          })
        : out(`The ${session.name} cannot be booked right now.`, 'output', BOOKING_PAGE),
    ]);
  }
  const zone = detectTimeZone();
  const now = new Date();
  const from = todayIn(zone, now);
  const to = todayIn(zone, new Date(now.getTime() + (SLOTS_DAYS - 1) * 86_400_000));
  try {
    const { getSlots } = await import('@/lib/booking-slots');
    const found = await getSlots({ type: session.id, from, to, tz: zone });
    const starts = found.days.flatMap((d) => d.slots).slice(0, SLOTS_SHOWN);
    const price =
      session.price === 0 ? 'free' : formatPrice(session.price, content.services.currency);
    if (starts.length === 0) {
      print(`No free ${session.duration}-minute times in the next ${SLOTS_DAYS} days.`, 'output', {
        href: `/book/${session.id}`,
        label: 'See later dates',
        external: false,
      });
      return;
    }
    print(`Next free times for the ${session.name} (${session.duration} min, ${price}), ${zone}:`);
    for (const start of starts) {
      const when = shortDateTime(new Date(start), zone);
      print('', 'output', {
        href: `/book/${session.id}?start=${encodeURIComponent(start)}`,
        label: `Book ${when}`,
        external: false,
      });
    }
  } catch (error) {
    print(`Error: ${errorMessage(error)}`, 'error');
  }
}

async function callTool(
  rest: string,
  print: (text: string, tone?: Tone) => void,
  local: (blocks: Block[]) => Promise<void>,
) {
  if (rest === '') return local([out(USAGE.call, 'muted')]);
  const space = rest.search(/\s/);
  const toolName = space === -1 ? rest : rest.slice(0, space);
  const argsText = space === -1 ? '' : rest.slice(space).trim();
  const tool = TOOLS.find((t) => t.name === toolName);
  if (!tool) return local([out(`Unknown tool: ${toolName}`, 'error')]);
  try {
    const args: unknown = argsText === '' ? {} : JSON.parse(argsText);
    if (!isRecord(args)) throw new ReadError('the arguments must be a JSON object');
    print(pretty(await tool.call(args)));
  } catch (error) {
    print(`Tool execution failed: ${errorMessage(error)}`, 'error');
  }
}

async function answerUnknown(
  input: string,
  emit: RunOptions['emit'],
  print: (text: string, tone?: Tone) => void,
  signal?: AbortSignal,
) {
  print(notRecognized(input), 'muted');
  print('Searching the knowledge base and asking the AI…', 'muted');
  let results: SearchResult[] = [];
  try {
    results = (await searchKnowledge(input, SEARCH_LIMIT)).results;
  } catch {
    // As the spec says, a failed search counts as no passages: the AI still answers.
  }
  print(results.length === 0 ? NO_RESULTS : formatResults(results));
  await askAI(questionWithContext(input, results), emit, signal);
}
