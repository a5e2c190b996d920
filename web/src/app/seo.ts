/**
 * Head metadata of every page, the one source for the prerendered HTML (scripts/prerender.mjs)
 * and for the titles pages set while the app runs. Titles are shown as "<title> | rUv".
 */
export interface PageMeta {
  title: string;
  description: string;
  keywords: readonly string[];
  /** Rendered to HTML at build time, so its content is there before any JavaScript runs. */
  prerender: boolean;
  /** Listed for search engines; false adds `noindex`. */
  index: boolean;
}

const common = ['agentic AI', 'AI agents', 'rUv', 'Reuven Cohen'];

/** A booking page's head: prerendered and indexed, its offer's name, length and price in the page. */
function bookMeta(title: string, what: string, choose = 'a free time'): PageMeta {
  return {
    title,
    description: `Book ${what} with rUv: choose ${choose} in your own time zone, then pay online or send a request.`,
    keywords: [...common, 'book a session', 'AI consulting', 'online booking'],
    prerender: true,
    index: true,
  };
}

export const pageMeta: Readonly<Record<string, PageMeta>> = {
  '/': {
    title: 'Agentic Coaching & Mentoring',
    description:
      'rUv (Reuven Cohen): independent consultant and coach in agentic AI engineering. One-on-one sessions, Neural Trader training, open-source projects and the tribe community.',
    keywords: [...common, 'AI coaching', 'AI mentoring', 'AI consultant', 'multi-agent systems'],
    prerender: true,
    index: true,
  },
  '/about': {
    title: 'About',
    description:
      'About rUv (Reuven Cohen), independent AI consultant and enterprise AI architect: the PACT approach, philosophy, clients and biography.',
    keywords: [...common, 'AI architect', 'PACT', 'biography'],
    prerender: true,
    index: true,
  },
  '/projects': {
    title: 'Projects',
    description:
      'Open-source agent frameworks, MCP servers and tools by rUv: Claude-Flow, AgentDB, Neural Trader, FACT, QuDAG and 80+ repositories.',
    keywords: [...common, 'open source', 'Claude-Flow', 'AgentDB', 'Neural Trader', 'MCP'],
    prerender: true,
    index: true,
  },
  '/mcp': {
    title: 'Client-side MCP tools',
    description:
      'A starter kit of client-side MCP-style tools that run in the browser, and a free remote MCP server to connect your assistant to: search, services and the site content. MIT licensed.',
    keywords: [...common, 'MCP', 'Model Context Protocol', 'client-side tools', 'starter kit'],
    prerender: true,
    index: true,
  },
  '/tribe': {
    title: 'The Tribe',
    description:
      'The tribe: a small paid community of builders of agentic AI apps, with live group sessions with rUv, small cohorts, a monthly membership and a limited number of places.',
    keywords: [...common, 'AI community', 'cohort', 'live sessions', 'mentorship'],
    prerender: true,
    index: true,
  },
  '/booking': {
    title: 'Booking',
    description:
      'Book a one-on-one session with rUv (15, 30 or 60 minutes) or Neural Trader training: prices, what is included and how booking works.',
    keywords: [...common, 'book a session', 'AI consulting', 'Neural Trader training', 'pricing'],
    prerender: true,
    index: true,
  },
  '/auth': {
    title: 'Member Login',
    description: 'Sign in or create an account to join the tribe members area.',
    keywords: [...common, 'member login'],
    prerender: true,
    index: false,
  },
  '/members': {
    title: 'Members',
    description: 'The tribe members area.',
    keywords: common,
    prerender: false,
    index: false,
  },
  '/members/library': {
    title: 'Library',
    description: "The tribe's library: replays of the live sessions, materials and lessons.",
    keywords: common,
    prerender: false,
    index: false,
  },
  '/admin/insights': {
    title: 'Insights',
    description: "The owner's numbers: recurring revenue, members, bookings and turnout.",
    keywords: common,
    prerender: false,
    index: false,
  },
  '/agent-test': {
    title: 'Agent test',
    description: 'AI agent test page for admins.',
    keywords: common,
    prerender: false,
    index: false,
  },
  '/goal': {
    title: 'Goal planner',
    description: 'Plan a goal with an AI-assisted goal-planning widget.',
    keywords: common,
    prerender: false,
    index: false,
  },
  '/lean-agentic': {
    title: 'Lean Agentic',
    description:
      'lean-agentic: a WebAssembly theorem prover for agents. Features, install commands and benchmarks.',
    keywords: [...common, 'lean-agentic', 'theorem prover', 'WebAssembly'],
    prerender: true,
    index: true,
  },
  '/midstreamer': {
    title: 'Midstreamer',
    description:
      'Midstreamer: a WebAssembly toolkit for temporal analysis of streams. Features, install commands and benchmarks.',
    keywords: [...common, 'midstreamer', 'temporal analysis', 'WebAssembly', 'streaming'],
    prerender: true,
    index: true,
  },
  '/agentic-payments': {
    title: 'Agentic Payments',
    description:
      'agentic-payments: signed spending mandates, multi-agent consensus and payment protocols for autonomous agents. TypeScript and Rust.',
    keywords: [...common, 'agentic payments', 'mandates', 'Ed25519', 'payments for agents'],
    prerender: true,
    index: true,
  },
  '/ai-defence': {
    title: 'AI Defence',
    description:
      'AI Defence: detection, analysis, verification and response against prompt injection, jailbreaks and PII leaks for AI applications.',
    keywords: [...common, 'AI security', 'prompt injection', 'jailbreak detection'],
    prerender: true,
    index: true,
  },
  '/aimds': {
    title: 'AIMDS',
    description:
      'AIMDS: the Rust and TypeScript platform behind AI Defence, with benchmarks, architecture and quick start.',
    keywords: [...common, 'AIMDS', 'AI security platform', 'Rust'],
    prerender: true,
    index: true,
  },
  '/book/session-15': bookMeta(
    'Book a 15-minute session',
    'a 15-minute one-on-one video session for one focused question',
  ),
  '/book/session-30': bookMeta(
    'Book a 30-minute session',
    'a 30-minute one-on-one video session to look at your code or design together',
  ),
  '/book/session-60': bookMeta(
    'Book a 60-minute session',
    'a 60-minute one-on-one session for system design, team strategy or pair programming',
  ),
  '/book/private': bookMeta(
    'Book Neural Trader private training',
    'two hours of personalised one-on-one Neural Trader training',
  ),
  '/book/group': bookMeta(
    'Book a seat in Neural Trader group training',
    'a seat in a live two-hour Neural Trader group workshop',
    'a date with seats left',
  ),
  '/bookings': {
    title: 'Your booking',
    description: 'A booking: its time, status, calendar invitation and links to move or cancel it.',
    keywords: common,
    prerender: false,
    index: false,
  },
};

/**
 * The 404 page's head: any path no route matches. It is prerendered once, with a placeholder the
 * server replaces by the requested path, and never indexed.
 */
export const notFoundMeta: PageMeta = {
  title: 'Page not found',
  description: 'There is no page at this address on the rUv site.',
  keywords: common,
  prerender: true,
  index: false,
};
