/**
 * Client-side MCP-style tools: small, dependency-free functions that read a site's public JSON
 * resources and search index with the browser's fetch, shaped like MCP tools so an agent or a
 * console can list and call them. Specification version 2025-06-18.
 */

/** The MCP specification version these tools follow. */
export const SPEC_VERSION = '2025-06-18';

/** Arguments passed to a tool; each tool checks the ones it needs. */
export type ToolArgs = Record<string, unknown>;

/** A JSON Schema for a tool's arguments, as MCP's inputSchema. */
export interface ToolSchema {
  type: 'object';
  properties: Record<string, { type: 'string' | 'number'; description: string }>;
  required?: string[];
}

/** A tool: a name and description for discovery, an optional schema, and the call itself. */
export interface Tool {
  name: string;
  description: string;
  schema?: ToolSchema;
  call: (args: ToolArgs) => Promise<unknown>;
}

/** One entry of /mcp/resources.json. */
export interface Resource {
  uri: string;
  mime: string;
  title: string;
  description: string;
}

/** One entry of /mcp/search-index.json. */
export interface SearchItem {
  uri: string;
  title: string;
  text: string;
  tags: string[];
}

/** A search result: the item plus the score it was ranked by. */
export interface SearchHit extends SearchItem {
  score: number;
}

const RESOURCES_PATH = '/mcp/resources.json';
const SEARCH_INDEX_PATH = '/mcp/search-index.json';

// Empty means "the page's own origin", where the tools usually run.
let baseUrl = '';

/**
 * Points the tools at another site, e.g. 'https://ruv.io'. The site must allow cross-origin
 * reads (Access-Control-Allow-Origin), as ruv.io does for these files.
 */
export function setBaseUrl(url: string): void {
  baseUrl = url.replace(/\/+$/, '');
}

/** Lists the site's resources (the field resources of /mcp/resources.json). */
export async function listResources(): Promise<Resource[]> {
  try {
    const res = await fetch(baseUrl + RESOURCES_PATH);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { resources?: Resource[] };
    return body.resources ?? [];
  } catch (err) {
    throw new Error('Failed to load resources', { cause: err });
  }
}

/** Reads one resource: parsed JSON when the server says it is JSON, else the text. */
export async function readResource(uri: string): Promise<unknown> {
  const path = uri.startsWith('/') ? uri : `/${uri}`;
  const init: RequestInit = {
    headers: { Accept: 'application/json, text/plain' },
    // Ask for a fresh copy. An explicit Cache-Control header is sent only to the page's own
    // origin: on a cross-origin request it would trigger a CORS preflight that static file
    // servers usually refuse; cache: 'no-cache' revalidates without one.
    cache: 'no-cache',
  };
  if (baseUrl === '') {
    init.headers = { Accept: 'application/json, text/plain', 'Cache-Control': 'no-cache' };
  }
  let res: Response;
  try {
    res = await fetch(baseUrl + path, init);
  } catch (err) {
    throw new Error(`Failed to read resource: ${uri}`, { cause: err });
  }
  if (!res.ok) throw new Error(`Resource not found: ${path} (${res.status})`);
  try {
    const type = res.headers.get('Content-Type') ?? '';
    return /[/+]json\b/i.test(type) ? await res.json() : await res.text();
  } catch (err) {
    throw new Error(`Failed to read resource: ${uri}`, { cause: err });
  }
}

/** Loads the search index (the field items of /mcp/search-index.json). */
async function loadIndex(): Promise<SearchItem[]> {
  try {
    const res = await fetch(baseUrl + SEARCH_INDEX_PATH);
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const body = (await res.json()) as { items?: SearchItem[] };
    return body.items ?? [];
  } catch (err) {
    throw new Error('Failed to search index', { cause: err });
  }
}

/**
 * Scores an item against the query words. A word in the title or tags counts more than one in
 * the body text, and items matching every word or the whole phrase rise above partial matches.
 */
function score(item: SearchItem, phrase: string, words: string[]): number {
  const title = item.title.toLowerCase();
  const text = item.text.toLowerCase();
  const tags = item.tags.map((t) => t.toLowerCase());
  let total = 0;
  let matched = 0;
  for (const word of words) {
    let s = 0;
    if (title.includes(word)) s += 3;
    if (tags.includes(word)) s += 3;
    else if (tags.some((t) => t.includes(word))) s += 2;
    if (text.includes(word)) s += 1;
    if (s > 0) matched++;
    total += s;
  }
  if (matched === 0) return 0;
  if (matched === words.length) total += 2 * words.length;
  if (words.length > 1 && (title.includes(phrase) || text.includes(phrase))) total += 5;
  return total;
}

/** Searches the index case-insensitively in titles, text and tags, best matches first. */
export async function search(query: string, limit = 10): Promise<SearchHit[]> {
  const items = await loadIndex();
  const phrase = query.trim().toLowerCase();
  const words = phrase.split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return [];
  return items
    .map((item) => ({ ...item, score: score(item, phrase, words) }))
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || a.title.localeCompare(b.title))
    .slice(0, limit);
}

/** Splits a path such as sessions[1].price or about.links['home'] into keys and indexes. */
export function parsePath(path: string): Array<string | number> {
  const keys: Array<string | number> = [];
  const step = /\.?([^.[\]]+)|\[(\d+)\]|\[(["'])(.*?)\3\]/y;
  let at = 0;
  while (at < path.length) {
    step.lastIndex = at;
    const m = step.exec(path);
    if (m === null) throw new Error(`Invalid path: ${path}`);
    if (m[2] !== undefined) keys.push(Number(m[2]));
    else keys.push(m[1] ?? m[4] ?? '');
    at = step.lastIndex;
  }
  return keys;
}

/** Follows a path through a parsed JSON value; an empty path returns the value itself. */
export function valueAtPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of parsePath(path)) {
    if (typeof key === 'number') {
      if (!Array.isArray(current) || key >= current.length) {
        throw new Error(`Path not found: ${path}`);
      }
      current = (current as unknown[])[key];
    } else {
      if (current === null || typeof current !== 'object' || !Object.hasOwn(current, key)) {
        throw new Error(`Path not found: ${path}`);
      }
      current = (current as Record<string, unknown>)[key];
    }
  }
  return current;
}

function stringArg(args: ToolArgs, name: string): string {
  const v = args[name];
  if (typeof v !== 'string' || v === '') throw new Error(`Missing argument: ${name}`);
  return v;
}

function numberArg(args: ToolArgs, name: string, fallback: number): number {
  const v = args[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw new Error(`Argument ${name} must be a positive whole number`);
  }
  return v;
}

/** The four tools of the kit. */
export const tools: Tool[] = [
  {
    name: 'resources/list',
    description: 'List the resources the site publishes (URI, type, title, description).',
    call: () => listResources(),
  },
  {
    name: 'resources/read',
    description: 'Read one resource by URI, e.g. /content/services.json.',
    schema: {
      type: 'object',
      properties: {
        uri: { type: 'string', description: 'Resource URI, e.g. /content/about.json' },
      },
      required: ['uri'],
    },
    call: (args) => readResource(stringArg(args, 'uri')),
  },
  {
    name: 'search',
    description: 'Search the site content by words in titles, text and tags.',
    schema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words to look for' },
        limit: { type: 'number', description: 'Most results to return (default 10)' },
      },
      required: ['query'],
    },
    call: (args) => search(stringArg(args, 'query'), numberArg(args, 'limit', 10)),
  },
  {
    name: 'read_json_path',
    description: 'Read a JSON resource and return the value at a path such as sessions[1].price.',
    schema: {
      type: 'object',
      properties: {
        uri: { type: 'string', description: 'Resource URI, e.g. /content/services.json' },
        path: { type: 'string', description: 'Dot/bracket path, e.g. sessions[1].price' },
      },
      required: ['uri', 'path'],
    },
    call: async (args) => {
      const uri = stringArg(args, 'uri');
      const path = typeof args.path === 'string' ? args.path : '';
      return { uri, path, value: valueAtPath(await readResource(uri), path) };
    },
  },
];

/**
 * Calls a tool by name. Failures are reported as 'Tool execution failed'; the reason (for
 * example 'Resource not found: /x.json (404)') is the error's cause.
 */
export async function callTool(name: string, args: ToolArgs = {}): Promise<unknown> {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`Unknown tool: ${name}`);
  try {
    return await tool.call(args);
  } catch (err) {
    throw new Error('Tool execution failed', { cause: err });
  }
}

function paramsObject(params: unknown): ToolArgs {
  return params !== null && typeof params === 'object' && !Array.isArray(params)
    ? (params as ToolArgs)
    : {};
}

/**
 * Answers an MCP-style request: tools/list, tools/call ({ name, arguments }), resources/list
 * and resources/read ({ uri }). Anything else is an 'Unknown operation'.
 */
export async function handle(method: string, params?: unknown): Promise<unknown> {
  const p = paramsObject(params);
  switch (method) {
    case 'tools/list':
      return {
        tools: tools.map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.schema,
        })),
      };
    case 'tools/call':
      return callTool(stringArg(p, 'name'), paramsObject(p.arguments));
    case 'resources/list':
      return { resources: await listResources() };
    case 'resources/read': {
      const uri = stringArg(p, 'uri');
      return { uri, contents: await readResource(uri) };
    }
    default:
      throw new Error('Unknown operation');
  }
}
