import {
  BriefcaseBusiness,
  Check,
  Download,
  GraduationCap,
  HeartPulse,
  Lock,
  type LucideIcon,
  Minus,
  Search,
  ShoppingCart,
  Wrench,
  Zap,
} from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ExternalLink } from '@/components/ui/external-link';
import { type IconCard, IconCards } from '@/components/ui/icon-cards';
import { Page } from '@/components/ui/page';
import { PageHeader } from '@/components/ui/page-header';
import { Section } from '@/components/ui/section';
import { TerminalWindow } from '@/components/ui/terminal-window';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import { ConnectAssistant, DISCOVERY_PATH, SERVER_CARD_PATH } from './ConnectAssistant';

/** Served by the Go server, built from the same content files the site serves. */
export const STARTER_KIT_URL = '/downloads/client-side-mcp-tools.zip';

const badges = ['MIT licence', 'TypeScript', 'Zero dependencies', 'No server', 'MCP 2025-06-18'];

const advantages: readonly IconCard[] = [
  {
    icon: Zap,
    title: 'No round trip to a tool server',
    text: 'Tools run in the page that needs them, so a call costs a fetch of a static file, usually served from cache or a CDN edge.',
  },
  {
    icon: Lock,
    title: 'Data stays in the browser',
    text: 'What the visitor types and what the tools compute never leaves their device. There is no tool server to secure, log or breach.',
  },
  {
    icon: Wrench,
    title: 'Nothing to host or scale',
    text: 'The tools are one TypeScript file and the data is plain JSON next to your pages. Static hosting is all the infrastructure there is.',
  },
  {
    icon: Search,
    title: 'Same shapes as MCP',
    text: 'tools/list, tools/call, resources/list and resources/read answer in the shapes MCP clients expect, so moving a tool to a server later is a small step.',
  },
];

const applications: ReadonlyArray<{ icon: LucideIcon; group: string; items: string[] }> = [
  {
    icon: ShoppingCart,
    group: 'E-commerce',
    items: [
      'Product search and comparison over a catalogue file',
      'Size, price and availability answers without a backend call',
      'Shopping assistants that read the cart on the page',
    ],
  },
  {
    icon: Wrench,
    group: 'Professional tools',
    items: [
      'Calculators and converters an assistant can call',
      'Documentation lookup inside developer tools',
      'Form helpers that validate and fill locally',
    ],
  },
  {
    icon: Search,
    group: 'Search',
    items: [
      'Site search over a prebuilt index',
      'FAQ answering with the matching passage',
      'Reading one value out of a JSON file by path',
    ],
  },
  {
    icon: GraduationCap,
    group: 'Education',
    items: [
      'Course material an AI tutor can quote from',
      'Quizzes checked in the browser',
      'Glossaries and reference lookups offline',
    ],
  },
  {
    icon: HeartPulse,
    group: 'Healthcare',
    items: [
      'Symptom and triage checklists that keep answers on the device',
      'Clinic hours, services and preparation notes',
      'Medication reference tables read locally',
    ],
  },
  {
    icon: BriefcaseBusiness,
    group: 'Business',
    items: [
      'Pricing, plans and policy answers from one source of truth',
      'Internal handbooks on an intranet page',
      'Booking and contact details for a chat widget',
    ],
  },
];

const comparison: ReadonlyArray<[string, string, string]> = [
  ['Where tools run', 'In the visitor’s browser', 'On a server you operate'],
  ['Infrastructure', 'Static files only', 'Tool server, process manager, monitoring'],
  ['Latency per call', 'A cached static fetch', 'A network round trip plus server work'],
  ['Privacy', 'Inputs stay on the device', 'Inputs are sent to the server'],
  ['Secrets and private data', 'Not possible: everything is public', 'Yes, behind authentication'],
  ['Writes and side effects', 'Read-only over published files', 'Anything the server can do'],
  ['Scaling', 'Free with the CDN', 'Capacity planning and cost'],
];

const fileTree = `client-side-mcp-tools/
├── README.md
├── example.ts
├── src/
│   └── mcpLocal.ts
└── resources/
    ├── about.json
    ├── services.json
    ├── projects.json
    ├── stack.json
    ├── contact.json
    ├── resources.json
    └── search-index.json`;

const usage = `import { callTool, handle } from './src/mcpLocal';

// What can the page do?
const { tools } = await handle('tools/list');

// Search the site's index, best matches first.
const hits = await callTool('search', { query: 'pricing', limit: 3 });

// Read one value out of a published JSON file.
const price = await callTool('read_json_path', {
  uri: '/content/services.json',
  path: 'sessions[1].price',
});`;

const chooseClient = [
  'The data is already public and read-only: prices, catalogues, docs, FAQs',
  'You want answers without hosting or paying for a tool server',
  'Privacy matters: what the visitor types must stay on their device',
  'The site is static or served from a CDN',
];

const chooseServer = [
  'The tool needs secrets, API keys or private data',
  'It writes: orders, bookings, database changes',
  'It calls other services or runs heavy computation',
  'Results must be audited or rate-limited centrally',
];

function DownloadButton({ children, size = 'lg' }: { children: string; size?: 'md' | 'lg' }) {
  return (
    <a
      href={STARTER_KIT_URL}
      download="client-side-mcp-tools.zip"
      className={buttonClasses('primary', size)}
    >
      <Download size={18} aria-hidden="true" />
      {children}
    </a>
  );
}

export function McpPage() {
  return (
    <Page title="Client-side MCP tools">
      <PageHeader
        command="cat mcp/README.md"
        title="Client-side MCP tools"
        lead="Tools in the style of the Model Context Protocol that run entirely in the browser: no tool server to host, and your data stays on the page. Give an assistant on your site search, resources and JSON reads over your own published files."
      >
        <ul className="mt-6 flex flex-wrap gap-2" aria-label="Facts">
          {badges.map((b, i) => (
            <li key={b}>
              <Badge tone={i === 0 ? 'green' : 'cyan'}>{b}</Badge>
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-center">
          <DownloadButton>Download ZIP Package</DownloadButton>
          <p className="font-mono text-xs text-dim">
            One TypeScript file, an example and sample data.{' '}
            <a href="#connect" className="text-term-cyan underline underline-offset-2">
              Or connect your assistant
            </a>
            .
          </p>
        </div>
      </PageHeader>

      <ConnectAssistant />

      <Section id="advantages" eyebrow="why" title="Advantages over server-side tools">
        <IconCards items={advantages} className="sm:grid-cols-2" iconClassName="text-term-green" />
      </Section>

      <Section id="applications" eyebrow="use cases" title="Real-world applications">
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {applications.map(({ icon: Icon, group, items }) => (
            <li key={group}>
              <Card className="h-full">
                <h3 className="flex items-center gap-2 font-semibold text-fg">
                  <Icon size={18} aria-hidden="true" className="text-term-cyan" />
                  {group}
                </h3>
                <ul className="mt-3 space-y-1.5">
                  {items.map((item) => (
                    <li key={item} className="flex gap-2 text-sm text-muted">
                      <span aria-hidden="true" className="font-mono text-term-green">
                        ›
                      </span>
                      {item}
                    </li>
                  ))}
                </ul>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="comparison" eyebrow="architecture" title="Client-side or server-side">
        <div className="mt-6 overflow-hidden rounded-lg border border-ink-700">
          <table className="w-full border-collapse text-left text-xs sm:text-sm">
            <caption className="sr-only">
              Client-side tools compared with server-side MCP tools
            </caption>
            <thead className="bg-ink-850 font-mono text-xs uppercase tracking-wider">
              <tr>
                <th scope="col" className="px-2 py-3 sm:px-4 text-dim">
                  Aspect
                </th>
                <th scope="col" className="px-2 py-3 sm:px-4 text-term-green">
                  Client-side tools
                </th>
                <th scope="col" className="px-2 py-3 sm:px-4 text-term-cyan">
                  Server-side MCP
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-ink-700">
              {comparison.map(([aspect, client, server]) => (
                <tr key={aspect}>
                  <th scope="row" className="px-2 py-3 sm:px-4 font-medium text-fg">
                    {aspect}
                  </th>
                  <td className="px-2 py-3 sm:px-4 text-muted">{client}</td>
                  <td className="px-2 py-3 sm:px-4 text-muted">{server}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      <Section
        id="implementation"
        eyebrow="implementation"
        title="What is in the package"
        lead="src/mcpLocal.ts holds four tools (resources/list, resources/read, search and read_json_path) behind callTool and an MCP-style handle(method, params), with no dependencies. example.ts runs a complete session, and resources/ carries this site's files as sample data."
      >
        <div className="mt-6 grid gap-5 lg:grid-cols-2">
          <TerminalWindow title="tree client-side-mcp-tools">
            <pre className="text-xs leading-relaxed whitespace-pre-wrap text-muted sm:text-sm">
              <code>{fileTree}</code>
            </pre>
          </TerminalWindow>
          <TerminalWindow title="usage.ts">
            <pre className="text-xs leading-relaxed break-words whitespace-pre-wrap text-fg sm:text-sm">
              <code>{usage}</code>
            </pre>
          </TerminalWindow>
        </div>
      </Section>

      <Section id="when" eyebrow="guidance" title="When to choose which">
        <div className="mt-6 grid gap-4 md:grid-cols-2">
          <Card className="border-term-green/40">
            <h3 className="font-semibold text-term-green">Choose client-side tools when</h3>
            <ul className="mt-3 space-y-2">
              {chooseClient.map((item) => (
                <li key={item} className="flex gap-2 text-sm text-fg">
                  <Check size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-term-green" />
                  {item}
                </li>
              ))}
            </ul>
          </Card>
          <Card className="border-term-cyan/40">
            <h3 className="font-semibold text-term-cyan">Choose a server-side MCP server when</h3>
            <ul className="mt-3 space-y-2">
              {chooseServer.map((item) => (
                <li key={item} className="flex gap-2 text-sm text-fg">
                  <Minus size={16} aria-hidden="true" className="mt-0.5 shrink-0 text-term-cyan" />
                  {item}
                </li>
              ))}
            </ul>
          </Card>
        </div>
        <p className="mt-4 text-sm text-muted">
          This site does both: the kit reads its public files, and{' '}
          <a href="#connect" className="text-term-cyan underline underline-offset-2">
            its MCP server
          </a>{' '}
          offers the same tools to assistants that connect to one, listed in the discovery document
          at{' '}
          <a
            href={DISCOVERY_PATH}
            className="font-mono text-term-cyan underline underline-offset-2"
          >
            {DISCOVERY_PATH}
          </a>{' '}
          and described by its{' '}
          <a
            href={SERVER_CARD_PATH}
            className="font-mono text-term-cyan underline underline-offset-2"
          >
            server card
          </a>
          .
        </p>
      </Section>

      <Section id="licence" eyebrow="licence" title="Licence and contributing">
        <Card className="mt-6 p-5 sm:p-6">
          <p className="text-muted">
            The starter kit is released under the MIT licence: use, copy, change and share it
            freely, in open and commercial work. Improvements are welcome on{' '}
            <ExternalLink
              href="https://github.com/ruvnet"
              className="text-term-cyan underline underline-offset-2"
            >
              GitHub
            </ExternalLink>
            ; questions about using it in your product are a good fit for a{' '}
            <Link
              to="/booking"
              onClick={scrollToTopSmooth}
              className="text-term-cyan underline underline-offset-2"
            >
              session
            </Link>
            .
          </p>
          <div className="mt-6">
            <DownloadButton size="md">Get the starter kit</DownloadButton>
          </div>
        </Card>
      </Section>
    </Page>
  );
}
