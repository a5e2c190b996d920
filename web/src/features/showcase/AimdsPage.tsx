import { ArrowDown, ArrowRight, Shield } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CodeBlock } from '@/components/ui/code-block';
import { Page } from '@/components/ui/page';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import * as data from './data/aimds';
import {
  ClosingCta,
  DataTable,
  FeatureGrid,
  PackageLinks,
  Section,
  StatTiles,
  StickyPackageBar,
} from './parts';

function Architecture() {
  return (
    <figure className="rounded-xl border border-ink-700 bg-ink-950 p-4 sm:p-6">
      <ol className="flex flex-col items-stretch gap-2 lg:flex-row lg:items-center">
        {data.pipeline.map((stage, index) => (
          <li key={stage.name} className="flex flex-col items-center gap-2 lg:flex-1 lg:flex-row">
            <div className="w-full rounded-lg border border-term-green/40 bg-ink-850 px-3 py-3 text-center">
              <p className="font-mono text-sm font-semibold text-fg">{stage.name}</p>
              <p className="mt-0.5 font-mono text-xs text-term-cyan">{stage.detail}</p>
            </div>
            {index < data.pipeline.length - 1 ? (
              <>
                <ArrowDown size={16} aria-hidden="true" className="shrink-0 text-dim lg:hidden" />
                <ArrowRight
                  size={16}
                  aria-hidden="true"
                  className="hidden shrink-0 text-dim lg:block"
                />
              </>
            ) : null}
          </li>
        ))}
      </ol>
      <div className="mt-4 border-t border-dashed border-ink-700 pt-4">
        <p className="font-mono text-xs text-dim">Shared services</p>
        <ul className="mt-2 grid grid-cols-1 gap-2 sm:grid-cols-2 lg:grid-cols-4">
          {data.foundations.map((item) => (
            <li key={item.name} className="rounded-md border border-ink-700 px-3 py-2">
              <p className="font-mono text-sm text-fg">{item.name}</p>
              <p className="text-xs text-muted">{item.detail}</p>
            </li>
          ))}
        </ul>
      </div>
      <figcaption className="mt-4 text-sm text-muted">
        A request enters through the API gateway and passes detection, analysis, verification and
        response in order, leaving as soon as the decision is clear. Every layer reports to the
        shared metrics and audit services.
      </figcaption>
    </figure>
  );
}

export function AimdsPage() {
  const repo = data.links[0]?.href ?? 'https://github.com/ruvnet';
  return (
    <Page title={data.title}>
      <StickyPackageBar name="aimds" badges={data.badges} repoHref={repo} />

      <header className="mt-10 motion-safe:animate-fade-up">
        <p className="font-mono text-sm text-term-cyan">{data.fullName}</p>
        <h1 className="mt-3 text-3xl font-bold text-fg sm:text-4xl lg:text-5xl">{data.title}</h1>
        <p className="mt-4 max-w-3xl text-base text-muted sm:text-lg">{data.lead}</p>
        <PackageLinks links={data.links} className="mt-6" />
        <div className="mt-10">
          <StatTiles stats={data.heroStats} />
        </div>
      </header>

      <Section id="features" title="Features">
        <FeatureGrid items={data.features} columns={3} />
      </Section>

      <Section
        id="benchmarks"
        title="Benchmarks"
        lead="Budgets each layer is held to in the test suite. Clean traffic only pays for detection."
      >
        <DataTable table={data.benchmarks} />
      </Section>

      <Section id="architecture" title="Architecture">
        <Architecture />
      </Section>

      <Section
        id="libraries"
        title="Core libraries"
        lead="Four crates you can use together or on their own."
      >
        <ul className="grid gap-4 sm:grid-cols-2">
          {data.crates.map(({ name, icon: Icon, text, items }) => (
            <li key={name}>
              <Card className="h-full">
                <div className="flex items-center gap-3">
                  <Icon size={18} aria-hidden="true" className="text-term-green" />
                  <h3 className="font-mono font-semibold text-fg">{name}</h3>
                </div>
                <p className="mt-2 text-sm text-muted">{text}</p>
                <ul className="mt-3 space-y-1 text-sm text-muted">
                  {items.map((item) => (
                    <li key={item} className="flex gap-2">
                      <span aria-hidden="true" className="text-term-green">
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

      <Section
        id="quick-start"
        title="Quick start"
        lead="Use the Rust crates directly, or run the TypeScript gateway and call it over HTTP."
      >
        <Tabs defaultValue="rust">
          <TabsList aria-label="Quick start language">
            <TabsTrigger value="rust">Rust</TabsTrigger>
            <TabsTrigger value="typescript">TypeScript API</TabsTrigger>
          </TabsList>
          <TabsContent value="rust" className="grid gap-4">
            <p className="text-muted">Rust 1.85 or later, on a Tokio runtime.</p>
            <CodeBlock title="Add the crates" language="shell" code={data.rustQuickStart} />
            <CodeBlock title="src/main.rs" code={data.rustExample} />
          </TabsContent>
          <TabsContent value="typescript" className="grid gap-4">
            <p className="text-muted">
              TypeScript 5.0 or later. Start the gateway, then send each action an agent or user is
              about to take to <code className="font-mono text-term-cyan">POST /api/v1/defend</code>
              : it answers allow or deny with the reasons.
            </p>
            <CodeBlock title="Start the gateway" language="shell" code={data.tsQuickStart} />
            <CodeBlock title="request.json" code={data.defendRequest} />
            <CodeBlock title="Call it" language="shell" code={data.defendCurl} />
          </TabsContent>
        </Tabs>
      </Section>

      <Section id="use-cases" title="Use cases">
        <FeatureGrid items={data.useCases} columns={3} />
      </Section>

      <ClosingCta
        title="Defend your AI stack"
        text="AIMDS is open source under MIT or Apache-2.0, at your choice. Start from the crates, or use AI Defence for a ready-made Node.js package."
        links={data.links}
      >
        <Link to="/ai-defence" onClick={scrollToTopSmooth} className={buttonClasses('outline')}>
          <Shield size={16} aria-hidden="true" />
          AI Defence
        </Link>
      </ClosingCta>
    </Page>
  );
}
