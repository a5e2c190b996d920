import resourcesFile from '@content/mcp/resources.json';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundledContent } from '@/content/site';
import type { Results as SearchResponse } from '@/lib/api-types/kb';
import { apiError, json, mockApi, resetAuthState } from '@/test/mock-api';
import { atInstantInZone } from '@/test/zone';
import {
  COMMAND_NAMES,
  type ConsoleEvent,
  commonPrefix,
  completions,
  jsonPath,
  LOCAL_DELAY_MS,
  NO_RESULTS,
  notRecognized,
  parse,
  resourcePath,
  runCommand,
  SEARCH_LIMIT,
  TOOLS,
  USAGE,
} from './commands';

/** What the console would show: blocks in order, streams appended, clear honoured. */
function transcript(
  events: ConsoleEvent[],
): { text: string; tone: string; link?: string; label?: string }[] {
  let blocks: { text: string; tone: string; link?: string; label?: string }[] = [];
  for (const e of events) {
    if (e.kind === 'clear') blocks = [];
    else if (e.kind === 'print') {
      const { text, tone, link } = e.block;
      blocks.push(link ? { text, tone, link: link.href, label: link.label } : { text, tone });
    } else if (e.kind === 'append') {
      const last = blocks.at(-1);
      if (last) last.text += e.text;
    }
  }
  return blocks;
}

async function run(input: string) {
  const events: ConsoleEvent[] = [];
  const waits: number[] = [];
  await runCommand(input, {
    emit: (e) => events.push(e),
    wait: async (ms) => {
      waits.push(ms);
    },
  });
  const blocks = transcript(events);
  return { events, waits, blocks, text: blocks.map((b) => b.text).join('\n') };
}

/** An SSE answer as POST /api/ai/chat streams it. */
function sse(pieces: string[]): Response {
  const chunk = (delta: object) =>
    `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: null }] })}\n\n`;
  const body = [
    chunk({
      tool_status: {
        id: 'kb_search',
        name: 'search_knowledge_base',
        query: 'q',
        status: 'running',
      },
    }),
    ...pieces.map((content) => chunk({ content })),
    'data: [DONE]\n\n',
  ].join('');
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

const passage = {
  content: `The tribe costs $250 per month. ${'It meets every other week for two hours. '.repeat(5)}`,
  metadata: {
    title: 'The Tribe',
    category: 'services',
    type: 'page',
    source: 'services',
    tags: [],
  },
  similarity: 0.87,
};
const found: SearchResponse = { results: [passage], ranking: 'keyword' };

const index = {
  items: [
    {
      uri: '/content/services.json',
      title: 'The Tribe',
      text: 'Community for $250',
      tags: ['tribe'],
    },
    { uri: '/content/about.json', title: 'About rUv', text: 'Engineering agents', tags: ['about'] },
  ],
};

const { services, about, contact, projects, stack } = bundledContent;

beforeEach(() => {
  mockApi({
    'GET /mcp/resources.json': () => json(200, resourcesFile),
    'GET /mcp/search-index.json': () => json(200, index),
    'GET /content/about.json': () => json(200, about),
    'GET /content/services.json': () => json(200, services),
    'GET /robots.txt': () =>
      new Response('User-agent: *\nAllow: /', { headers: { 'Content-Type': 'text/plain' } }),
    'POST /api/search': () => json(200, found),
    'POST /api/ai/chat': () => sse(['The tribe is ', '$250 a month.']),
    'POST /api/admin/kb/seed': () =>
      apiError(403, 'forbidden', 'Only an administrator can do that.'),
  });
});

afterEach(() => resetAuthState());

describe('local commands answer from the content files after the 500 ms pause', () => {
  const popular = services.sessions.find((s) => s.popular);
  const cases: [string, string[]][] = [
    ['about', [about.name, about.title, about.summary]],
    [
      'services',
      [
        '$149',
        '$299',
        '$499',
        '★ most popular',
        '$250/month',
        '$3,000',
        '$50,000',
        'member price $449',
        '4 Deep Dives  $999, member price $899, valid 12 months',
        '3 Strategy Sessions  $1,299, member price $1,150, valid 6 months',
      ],
    ],
    ['pricing', ['$149', '$299', '$499', '$250/month']],
    ['projects', [projects.featured[0]?.name ?? '', projects.stats.total_repositories_display]],
    ['stack', [stack.categories[0]?.name ?? '', stack.categories[0]?.tools[0]?.name ?? '']],
    ['tech', [stack.categories[0]?.name ?? '']],
    ['tools', [stack.categories[0]?.tools[0]?.description ?? '', 'tools/list']],
    ['skills', about.expertise],
    ['contact', [contact.email, contact.online_presence.links.linkedin]],
    ['github', [projects.stats.total_repositories_display]],
    ['linkedin', ['LinkedIn']],
    ['booking', ['Sessions are booked and paid on this site', '$149', "Type 'slots'"]],
    ['help', ['Available commands:', 'ask <question>', 'tools/call <name> <json>']],
    ['commands', ['Available commands:']],
    ['  HELP  ', ['Available commands:']],
    ['Services', ['$299']],
  ];
  it.each(cases)('%s', async (input, expected) => {
    const { text, waits } = await run(input);
    for (const piece of expected) expect(text).toContain(piece);
    expect(waits).toEqual([LOCAL_DELAY_MS]);
    expect(text).not.toContain('not recognized');
  });

  it('names the popular session with its content-file price', async () => {
    const { text } = await run('services');
    expect(popular).toBeDefined();
    expect(text).toMatch(new RegExp(`${popular?.duration} min\\s+${popular?.name}\\s+\\$299`));
  });

  it('booking links to the booking page; github and linkedin link outward', async () => {
    expect((await run('booking')).blocks.at(-1)?.link).toBe('/booking');
    expect((await run('github')).blocks[0]?.link).toBe(contact.online_presence.links.github);
    expect((await run('linkedin')).blocks[0]?.link).toBe(contact.online_presence.links.linkedin);
  });

  it('help lists every command Tab completes', async () => {
    const { text } = await run('help');
    for (const name of COMMAND_NAMES) expect(text).toContain(name);
  });
});

describe('usage texts', () => {
  const cases: [string, string][] = [
    ['search', USAGE.search],
    ['search   ', USAGE.search],
    ['ask', USAGE.ask],
    ['ai', USAGE.ask],
    ['/ask', USAGE.ask],
    ['resources/read', USAGE.read],
    ['tools/call', USAGE.call],
  ];
  it.each(cases)('%j', async (input, usage) => {
    const { text, waits } = await run(input);
    expect(text).toBe(usage);
    expect(waits).toEqual([LOCAL_DELAY_MS]);
  });

  it('search usage names the example of the spec', () => {
    expect(USAGE.search).toBe('Usage: search <query>\nExample: search engineering');
  });
});

describe('clear', () => {
  it.each(['clear', '/clear', ' CLEAR '])('%j clears at once', async (input) => {
    const { events, waits } = await run(input);
    expect(events).toEqual([{ kind: 'clear' }]);
    expect(waits).toEqual([]);
  });
});

describe('search', () => {
  it('asks the knowledge base for 3 passages and previews each as 100 characters', async () => {
    const api = mockApi({ 'POST /api/search': () => json(200, found) });
    const { text } = await run('search Tribe Price');
    expect(api.to('POST', '/api/search')[0]?.body).toEqual({
      query: 'Tribe Price',
      limit: SEARCH_LIMIT,
    });
    const flat = passage.content.replace(/\s+/g, ' ').trim();
    expect(text).toContain(`[1] The Tribe (87% match)\n    ${flat.slice(0, 100)}…`);
    expect(text).not.toContain(flat.slice(0, 101));
  });

  it('says so when nothing is found', async () => {
    mockApi({ 'POST /api/search': () => json(200, { results: [], ranking: 'keyword' }) });
    expect((await run('search zebra')).text).toBe(NO_RESULTS);
    expect(NO_RESULTS).toBe('No results found for your search query.');
  });

  it('shows the server error', async () => {
    mockApi({ 'POST /api/search': () => apiError(429, 'rate_limited', 'Too many attempts.') });
    expect((await run('search tribe')).text).toBe('Error: Too many attempts.');
  });
});

describe('ask and ai stream the answer', () => {
  it.each([
    'ask what does the tribe cost',
    'ai what does the tribe cost',
    '/ask what does the tribe cost',
  ])('%s', async (input) => {
    const api = mockApi({ 'POST /api/ai/chat': () => sse(['The tribe is ', '$250 a month.']) });
    const { text, events } = await run(input);
    expect(text).toBe('The tribe is $250 a month.');
    expect(events.filter((e) => e.kind === 'append')).toHaveLength(2);
    expect(api.to('POST', '/api/ai/chat')[0]?.body).toEqual({
      messages: [{ role: 'user', content: 'what does the tribe cost' }],
    });
  });

  it('shows "AI Error: {message}" when the server refuses', async () => {
    mockApi({
      'POST /api/ai/chat': () =>
        apiError(
          503,
          'unavailable',
          'The assistant is busy right now. Please try again in a minute.',
        ),
    });
    const { blocks } = await run('ask hello');
    expect(blocks.at(-1)).toEqual({
      text: 'AI Error: The assistant is busy right now. Please try again in a minute.',
      tone: 'error',
      link: undefined,
    });
  });

  it('shows an AI error when the stream breaks off', async () => {
    mockApi({
      'POST /api/ai/chat': () =>
        new Response('data: {"choices":[{"delta":{"content":"Half"}}]}\n\n', {
          headers: { 'Content-Type': 'text/event-stream' },
        }),
    });
    const { text } = await run('ask hello');
    expect(text).toContain('Half');
    expect(text).toContain('AI Error: The answer stopped before it was complete.');
  });
});

describe('unrecognised input is searched, then answered by the AI', () => {
  it('shows the not-recognised line, the passages, and the streamed answer with them as context', async () => {
    const api = mockApi({
      'POST /api/search': () => json(200, found),
      'POST /api/ai/chat': () => sse(['Offline answer: ', 'the tribe is $250.']),
    });
    const { text } = await run('How much is the Tribe?');
    expect(text).toContain(
      "Command not recognized: 'How much is the Tribe?'. Type 'help' for available commands.",
    );
    expect(text).toContain('[1] The Tribe (87% match)');
    expect(text.endsWith('Offline answer: the tribe is $250.')).toBe(true);
    expect(api.to('POST', '/api/search')[0]?.body).toEqual({
      query: 'How much is the Tribe?',
      limit: 3,
    });
    const sent = api.to('POST', '/api/ai/chat')[0]?.body as { messages: { content: string }[] };
    expect(sent.messages).toHaveLength(1);
    expect(sent.messages[0]?.content).toMatch(
      /^How much is the Tribe\?\n\nPassages a search of the site found:\n\[1\] The Tribe: The tribe costs \$250/,
    );
  });

  it('says no results and still asks the AI when the search finds nothing or fails', async () => {
    for (const reply of [
      () => json(200, { results: [], ranking: 'keyword' }),
      () => apiError(500, 'internal', 'boom'),
    ]) {
      mockApi({ 'POST /api/search': reply, 'POST /api/ai/chat': () => sse(['An answer.']) });
      const { text } = await run('hello there');
      expect(text).toContain(NO_RESULTS);
      expect(text.endsWith('An answer.')).toBe(true);
    }
  });

  it('a listed command with extra words is a question, not the command', async () => {
    const { text } = await run('about your consulting');
    expect(text).toContain(notRecognized('about your consulting'));
  });

  it.each(['resources/write', 'tools/run'])('%s is an unknown method', async (input) => {
    expect((await run(input)).text).toBe(`Unknown method: ${input}`);
  });
});

describe('seed-kb', () => {
  it("shows the server's refusal to a non-admin", async () => {
    const { text } = await run('seed-kb');
    expect(text).toContain('Error: Only an administrator can do that.');
  });

  it('shows the result for an admin', async () => {
    mockApi({
      'POST /api/admin/kb/seed': () =>
        json(200, {
          count: 12,
          message: 'Seeded 12 documents.',
          breakdown: { about: 2, services: 5, projects: 3, stack: 1, contact: 1 },
        }),
    });
    const { text } = await run('seed-kb');
    expect(text).toContain('Seeded 12 documents.\n12 documents: about 2, services 5');
  });
});

describe('resources', () => {
  it('resources/list shows every published resource', async () => {
    const { text } = await run('resources/list');
    for (const r of resourcesFile.resources) {
      expect(text).toContain(r.uri);
      expect(text).toContain(r.title);
    }
  });

  it('resources/list says "Failed to load resources" when the list fails', async () => {
    mockApi({ 'GET /mcp/resources.json': () => apiError(500, 'internal', 'boom') });
    expect((await run('resources/list')).text).toBe('Failed to load resources');
  });

  it('resources/read shows JSON pretty, adds a missing leading slash, sends no-cache', async () => {
    const api = mockApi({ 'GET /content/about.json': () => json(200, about) });
    const { text } = await run('resources/read content/about.json');
    expect(text).toBe(JSON.stringify(about, null, 2));
    expect(api.calls[0]?.path).toBe('/content/about.json');
    const init = api.fetchMock.mock.calls[0]?.[1] as RequestInit;
    expect(init.headers).toMatchObject({ 'Cache-Control': 'no-cache' });
    expect((init.headers as Record<string, string>).Accept).toContain('application/json');
  });

  it('resources/read shows text as text', async () => {
    expect((await run('resources/read /robots.txt')).text).toBe('User-agent: *\nAllow: /');
  });

  it('resources/read reports a missing resource with its status', async () => {
    const { blocks } = await run('resources/read /content/nope.json');
    expect(blocks).toEqual([
      { text: 'Resource not found: /content/nope.json (404)', tone: 'error', link: undefined },
    ]);
  });

  it('resources/read reports a failed read with its reason', async () => {
    mockApi({ 'GET /content/about.json': () => Promise.reject(new TypeError('Failed to fetch')) });
    expect((await run('resources/read /content/about.json')).text).toBe(
      'Failed to read resource: /content/about.json - Failed to fetch',
    );
  });

  it.each([
    ['about.json', '/about.json'],
    ['/x', '/x'],
    ['//evil.example/x', '/evil.example/x'],
    ['  content/a  ', '/content/a'],
  ])('resourcePath(%j) = %j', (uri, path) => {
    expect(resourcePath(uri)).toBe(path);
  });
});

describe('tools', () => {
  it('tools/list offers the kit tools', async () => {
    const { text, waits } = await run('tools/list');
    for (const name of ['search', 'resources/list', 'resources/read', 'read_json_path']) {
      expect(text).toContain(name);
    }
    expect(TOOLS.map((t) => t.name)).toEqual([
      'search',
      'resources/list',
      'resources/read',
      'read_json_path',
    ]);
    expect(waits).toEqual([LOCAL_DELAY_MS]);
  });

  it('tools/call search runs over the search index', async () => {
    const { text } = await run('tools/call search {"query":"tribe"}');
    const results = JSON.parse(text) as { uri: string }[];
    expect(results.map((r) => r.uri)).toEqual(['/content/services.json']);
  });

  it('tools/call read_json_path reads one value', async () => {
    const { text } = await run(
      'tools/call read_json_path {"uri":"content/services.json","path":"sessions[1].price"}',
    );
    expect(JSON.parse(text)).toEqual({
      uri: '/content/services.json',
      path: 'sessions[1].price',
      value: services.sessions[1]?.price,
    });
  });

  it('tools/call resources/list and resources/read', async () => {
    const list = JSON.parse((await run('tools/call resources/list')).text) as unknown[];
    expect(list).toHaveLength(resourcesFile.resources.length);
    const read = JSON.parse(
      (await run('tools/call resources/read {"uri":"/content/about.json"}')).text,
    );
    expect(read).toMatchObject({ uri: '/content/about.json', mimeType: 'application/json' });
  });

  it.each([
    ['tools/call nope {}', 'Unknown tool: nope'],
    ['tools/call search {bad', /^Tool execution failed: .+/],
    ['tools/call search []', 'Tool execution failed: the arguments must be a JSON object'],
    ['tools/call search {}', 'Tool execution failed: Missing argument: query'],
    [
      'tools/call read_json_path {"uri":"/content/about.json","path":"nope.deeper"}',
      'Tool execution failed: Path not found: nope.deeper',
    ],
    [
      'tools/call resources/read {"uri":"/content/nope.json"}',
      'Tool execution failed: Resource not found: /content/nope.json (404)',
    ],
  ])('%s', async (input, expected) => {
    const { blocks } = await run(input);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]?.tone).toBe('error');
    if (typeof expected === 'string') expect(blocks[0]?.text).toBe(expected);
    else expect(blocks[0]?.text).toMatch(expected);
  });

  it('a failing index read is "Failed to search index"', async () => {
    mockApi({ 'GET /mcp/search-index.json': () => apiError(500, 'internal', 'boom') });
    expect((await run('tools/call search {"query":"x"}')).text).toBe(
      'Tool execution failed: Failed to search index',
    );
  });
});

describe('helpers', () => {
  it('empty input does nothing', async () => {
    for (const input of ['', '   ']) {
      const { events, waits } = await run(input);
      expect(events).toEqual([]);
      expect(waits).toEqual([]);
    }
  });

  it.each([
    ['HeLp', { name: 'help', rest: '' }],
    ['/ASK  Why agents?', { name: 'ask', rest: 'Why agents?' }],
    ['/clear', { name: 'clear', rest: '' }],
    ['/help', { name: '/help', rest: '' }],
    ['tools/call search {"a": 1}', { name: 'tools/call', rest: 'search {"a": 1}' }],
  ])('parse(%j)', (input, parsed) => {
    expect(parse(input)).toEqual(parsed);
  });

  it('completes command names', () => {
    expect(completions('he')).toEqual(['help']);
    expect(completions('RES')).toEqual(['resources/list', 'resources/read']);
    expect(commonPrefix(completions('res'))).toBe('resources/');
    expect(completions('')).toEqual([]);
    expect(completions('search x')).toEqual([]);
    expect(completions('zz')).toEqual([]);
  });

  it('jsonPath walks objects and arrays', () => {
    expect(jsonPath({ a: [{ b: 1 }] }, 'a[0].b')).toBe(1);
    expect(jsonPath({ a: [{ b: 1 }] }, 'a.0.b')).toBe(1);
    expect(() => jsonPath({ a: [] }, 'a[0]')).toThrow('Path not found: a[0]');
  });
});

describe('slots lists the next free times in the visitor zone, each a link that books it', () => {
  atInstantInZone('2026-03-02T15:00:00Z', 'America/New_York');
  const query = (type: string) =>
    `GET /api/booking/slots?type=${type}&from=2026-03-02&to=2026-03-15&tz=America%2FNew_York`;
  const days = {
    time_zone: 'America/New_York',
    days: [
      { date: '2026-03-03', slots: ['2026-03-03T09:00:00-05:00', '2026-03-03T15:30:00-05:00'] },
      {
        date: '2026-03-09',
        slots: [
          '2026-03-09T09:00:00-04:00',
          '2026-03-09T10:00:00-04:00',
          '2026-03-09T11:00:00-04:00',
          '2026-03-09T12:00:00-04:00',
        ],
      },
    ],
  };

  it('asks for 14 days of the 30-minute session by default and shows the first 5, 12-hour', async () => {
    const api = mockApi({ [query('session-30')]: () => json(200, days) });
    const { blocks } = await run('slots');
    expect(api.calls.filter((c) => c.path.startsWith('/api/booking/slots'))).toHaveLength(1);
    expect(blocks[0]?.text).toBe(
      'Next free times for the Deep Dive (30 min, $299), America/New_York:',
    );
    const times = blocks.slice(1);
    expect(times.map((b) => b.text)).toEqual(['', '', '', '', '']);
    expect(times.map((b) => b.label)).toEqual([
      'Book Tue, Mar 3, 9:00 AM',
      'Book Tue, Mar 3, 3:30 PM',
      'Book Mon, Mar 9, 9:00 AM',
      'Book Mon, Mar 9, 10:00 AM',
      'Book Mon, Mar 9, 11:00 AM',
    ]);
    expect(times[2]?.link).toBe(
      `/book/session-30?start=${encodeURIComponent('2026-03-09T09:00:00-04:00')}`,
    );
  });

  it('takes the length: slots 60 asks for the 60-minute session', async () => {
    const api = mockApi({ [query('session-60')]: () => json(200, days) });
    const { text } = await run('slots 60');
    expect(api.to('GET', query('session-60').slice(4))).toHaveLength(1);
    expect(text).toContain('Strategy Session (60 min, $499)');
  });

  it('says when nothing is free and links to the calendar', async () => {
    mockApi({
      [query('session-15')]: () => json(200, { time_zone: 'America/New_York', days: [] }),
    });
    const { blocks } = await run('slots 15');
    expect(blocks).toEqual([
      {
        text: 'No free 15-minute times in the next 14 days.',
        tone: 'output',
        link: '/book/session-15',
        label: 'See later dates',
      },
    ]);
  });

  it('refuses a length no session has, without asking the server', async () => {
    const api = mockApi();
    const { blocks } = await run('slots 45');
    expect(blocks[0]).toMatchObject({
      text: 'There is no 45-minute session: choose 15, 30, 60 minutes.',
      tone: 'error',
    });
    expect(blocks[1]?.text).toBe(USAGE.slots);
    expect(api.calls.filter((c) => c.path.startsWith('/api/booking'))).toHaveLength(0);
  });

  it("shows the server's error", async () => {
    mockApi({ [query('session-30')]: () => apiError(400, 'invalid', 'tz: unknown time zone') });
    const { blocks } = await run('slots 30');
    expect(blocks.at(-1)).toMatchObject({ tone: 'error' });
    expect(blocks.at(-1)?.text).toContain('unknown time zone');
  });
});
