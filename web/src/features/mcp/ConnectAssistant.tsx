import { CodeBlock } from '@/components/ui/code-block';
import { Section } from '@/components/ui/section';
import { siteBaseUrl } from '@/lib/site-url';

/** Where the server publishes its MCP server card and its discovery document. */
export const SERVER_CARD_PATH = '/.well-known/mcp/server-card.json';
export const DISCOVERY_PATH = '/.well-known/mcp.json';

/** The name assistants show for the server. */
const SERVER_NAME = 'rUv';

/** The remote MCP server's address: the site's own /mcp. */
export function mcpServerUrl(base: string = siteBaseUrl()): string {
  return `${base}/mcp`;
}

/** A `servers` entry of the mcp.json file that VS Code and other clients read. */
export function mcpJsonConfig(url: string): string {
  return JSON.stringify({ servers: { [SERVER_NAME]: { type: 'http', url } } }, null, 2);
}

/** The Claude Code command that adds the server. */
export function claudeCodeCommand(url: string): string {
  return `claude mcp add --transport http ${SERVER_NAME} ${url}`;
}

const tools: ReadonlyArray<[string, string]> = [
  ['search', 'the knowledge base: services, the tribe, projects, the stack'],
  ['list_services', 'sessions, training and the tribe, with prices and booking links'],
  ['read_resource', 'one of the published JSON files, whole or by path'],
  ['read_json_path', 'one value, such as sessions[1].price'],
];

const link = 'font-mono text-term-cyan underline underline-offset-2';

/** "Connect your assistant": the site's remote MCP server and ready-to-paste configuration. */
export function ConnectAssistant() {
  const url = mcpServerUrl();
  return (
    <Section
      id="connect"
      eyebrow="remote server"
      title="Connect your assistant"
      lead="This site also runs a remote MCP server for assistants that connect to one: search, services with prices and booking links, and the same published files. It is free and read-only, with no account or key."
    >
      <div className="mt-6 grid gap-5 lg:grid-cols-2">
        <div className="min-w-0 space-y-5">
          <CodeBlock title="Server URL" code={url} />
          <CodeBlock title="Claude Code" language="shell" code={claudeCodeCommand(url)} />
          <div className="text-sm text-muted">
            <h3 className="font-semibold text-fg">What it offers</h3>
            <ul className="mt-2 space-y-1.5">
              {tools.map(([name, what]) => (
                <li key={name} className="flex gap-2">
                  <span aria-hidden="true" className="font-mono text-term-green">
                    ›
                  </span>
                  <span>
                    <code className="font-mono text-fg">{name}</code>: {what}
                  </span>
                </li>
              ))}
              <li className="flex gap-2">
                <span aria-hidden="true" className="font-mono text-term-green">
                  ›
                </span>
                <span>
                  the content files and knowledge-base documents as resources, and prompts to plan a
                  coaching session and to ask the knowledge base
                </span>
              </li>
            </ul>
          </div>
        </div>
        <div className="min-w-0 space-y-3">
          <CodeBlock title="mcp.json" code={mcpJsonConfig(url)} />
          <p className="text-sm text-muted">
            Add the entry under <code className="font-mono text-fg">servers</code> in{' '}
            <code className="font-mono text-fg">.vscode/mcp.json</code> or your client&apos;s
            mcp.json. The server speaks Streamable HTTP (protocol 2026-07-28 and the earlier
            versions). Clients that discover servers can read its{' '}
            <a href={SERVER_CARD_PATH} className={link}>
              server card
            </a>{' '}
            and the{' '}
            <a href={DISCOVERY_PATH} className={link}>
              discovery document
            </a>
            .
          </p>
        </div>
      </div>
    </Section>
  );
}
