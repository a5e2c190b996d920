import { CodeBlock } from '@/components/ui/code-block';
import { Page } from '@/components/ui/page';
import { TypedText } from '@/components/ui/typed-text';
import * as data from './data/agentic-payments';
import {
  BadgeList,
  ClosingCta,
  FeatureGrid,
  PackageLinks,
  Section,
  Snippets,
  StatTiles,
} from './parts';

export function AgenticPaymentsPage() {
  return (
    <Page title={data.title}>
      <header className="motion-safe:animate-fade-up">
        <p className="font-mono text-sm text-dim" aria-hidden="true">
          <span className="text-term-green">ruv@io</span>:<span className="text-term-cyan">~</span>$
          npx agentic-payments --help
        </p>
        <h1 className="mt-3 text-3xl font-bold text-fg sm:text-4xl lg:text-5xl">
          <TypedText text={data.title} speed={60} delay={400} />
        </h1>
        <p className="mt-3 font-mono text-base text-term-cyan sm:text-lg">{data.tagline}</p>
        <p className="mt-4 max-w-3xl text-base text-muted sm:text-lg">{data.lead}</p>
        <BadgeList badges={data.badges} className="mt-6" />
        <PackageLinks links={data.links} className="mt-6" />
      </header>

      <Section
        id="install"
        title="Install"
        lead="TypeScript for Node.js and the browser, or the Rust crate."
      >
        <Snippets snippets={data.install} />
      </Section>

      <Section
        id="protocols"
        title="Four payment protocols, one library"
        lead="Agents meet merchants and assistants in different ways. agentic-payments speaks all four so a mandate signed once works everywhere."
      >
        <FeatureGrid items={data.protocols} columns={2} />
      </Section>

      <Section
        id="features"
        title="What a mandate controls"
        lead="Spending caps, time windows and merchant rules are part of the signed mandate, so they cannot be changed after the holder signs."
      >
        <FeatureGrid items={data.features} columns={3} />
      </Section>

      <Section
        id="assistant"
        title="Use it from your AI assistant"
        lead="The built-in MCP server gives Claude and other assistants payment tools over stdio, or over HTTP with server-sent events for remote clients."
      >
        <div className="grid gap-6 lg:grid-cols-[3fr_2fr] lg:items-start">
          <div className="grid gap-4">
            {data.mcpCommands.map((s) => (
              <CodeBlock key={s.title} title={s.title} code={s.code} language={s.language} />
            ))}
          </div>
          <dl className="grid grid-cols-3 gap-2 sm:gap-3">
            {data.mcpStats.map((s) => (
              <div
                key={s.label}
                className="flex min-w-0 flex-col rounded-lg border border-ink-700 bg-ink-850/80 px-2 py-3 text-center sm:p-4"
              >
                <dt className="order-2 font-mono text-xs text-fg sm:text-sm">{s.label}</dt>
                <dd className="order-1 font-mono text-3xl font-bold text-term-green">{s.value}</dd>
                <dd className="order-3 mt-1 text-xs text-dim">{s.detail}</dd>
              </div>
            ))}
          </dl>
        </div>
      </Section>

      <Section
        id="performance"
        title="Performance"
        lead="Cryptography is not the slow part of a purchase. Figures are typical for a modern laptop."
      >
        <StatTiles stats={data.performance} />
      </Section>

      <Section
        id="use-cases"
        title="Use cases"
        lead="Example budgets: $500 weekly for a shopping agent, $10K daily for ad spend, $50K monthly for procurement."
      >
        <FeatureGrid items={data.useCases} columns={4} />
      </Section>

      <Section
        id="quick-start"
        title="Quick start"
        lead="Install, create a mandate, sign it with the holder’s key and start the server that agents and merchants talk to."
      >
        <CodeBlock title="Terminal" language="shell" code={data.quickStart} />
      </Section>

      <ClosingCta
        title="Let your agents pay, within limits you sign"
        text="agentic-payments is open source under the MIT licence. Read the code, try the quick start, or see the other agent tools in the projects list."
        links={data.links}
      />
    </Page>
  );
}
