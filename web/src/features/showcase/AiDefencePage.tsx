import { Cpu } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { CodeBlock } from '@/components/ui/code-block';
import { Page } from '@/components/ui/page';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { Link } from '@/lib/router';
import { scrollToTopSmooth } from '@/lib/scroll';
import * as data from './data/ai-defence';
import {
  ClosingCta,
  DataTable,
  FeatureGrid,
  PackageLinks,
  Section,
  Snippets,
  StatTiles,
  StickyPackageBar,
} from './parts';

export function AiDefencePage() {
  const repo = data.links[0]?.href ?? 'https://github.com/ruvnet';
  return (
    <Page title={data.title}>
      <StickyPackageBar name={data.npmName} badges={data.badges} repoHref={repo} />

      <header className="mt-10 motion-safe:animate-fade-up">
        <p className="font-mono text-sm text-term-cyan">{data.tagline}</p>
        <h1 className="mt-3 text-3xl font-bold text-fg sm:text-4xl lg:text-5xl">{data.title}</h1>
        <p className="mt-4 max-w-3xl text-base text-muted sm:text-lg">{data.lead}</p>
        <PackageLinks links={data.links} className="mt-6" />
        <div className="mt-10">
          <StatTiles stats={data.heroStats} />
        </div>
      </header>

      <Section
        id="why"
        title="Why AI applications need their own defence"
        lead="Firewalls and input validation were built for code, not for language. These attacks arrive as ordinary-looking text."
      >
        <FeatureGrid items={data.why} columns={3} />
      </Section>

      <Section
        id="quick-start"
        title="Quick start"
        lead="Node 18 or later. Scan a prompt from the command line in one step, or run the service in front of your model."
      >
        <Snippets snippets={data.quickStart} />
      </Section>

      <Section id="features" title="Key features">
        <FeatureGrid items={data.keyFeatures} columns={3} />
      </Section>

      <Section
        id="commands"
        title="Command reference"
        lead="One command per layer. Use the arrow keys to move between the tabs."
      >
        <Tabs defaultValue={data.commandTabs[0]?.value}>
          <TabsList aria-label="Command groups">
            {data.commandTabs.map((tab) => (
              <TabsTrigger key={tab.value} value={tab.value}>
                {tab.label}
              </TabsTrigger>
            ))}
          </TabsList>
          {data.commandTabs.map((tab) => (
            <TabsContent key={tab.value} value={tab.value}>
              <p className="mb-4 max-w-3xl text-muted">{tab.summary}</p>
              <CodeBlock
                title={tab.snippet.title}
                code={tab.snippet.code}
                language={tab.snippet.language}
              />
            </TabsContent>
          ))}
        </Tabs>
      </Section>

      <Section
        id="proxy"
        title="Protect an existing API"
        lead="A small Express proxy in front of your model endpoint: prompts scoring 0.8 or more are refused, answers are sanitized on the way out."
      >
        <CodeBlock title="proxy.js" code={data.proxyExample} />
      </Section>

      <Section
        id="performance"
        title="Performance"
        lead="Most requests only pay for detection. The deeper layers run for the few that look suspicious."
      >
        <DataTable table={data.performance} />
      </Section>

      <Section
        id="layers"
        title="Security layers"
        lead="Each request passes the layers in order and stops as soon as the decision is clear."
      >
        <ol className="grid gap-3">
          {data.layers.map((layer, index) => (
            <li
              key={layer.name}
              className="flex gap-4 rounded-lg border border-ink-700 bg-ink-850/80 p-4 sm:items-center sm:p-5"
            >
              <span
                aria-hidden="true"
                className="inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-md border border-term-green/40 font-mono text-sm text-term-green"
              >
                {index + 1}
              </span>
              <div className="min-w-0 flex-1 sm:flex sm:items-baseline sm:gap-4">
                <h3 className="font-mono font-semibold text-fg sm:w-36 sm:shrink-0">
                  {layer.name}
                </h3>
                <p className="mt-1 text-sm text-muted sm:mt-0 sm:flex-1">{layer.text}</p>
                <p className="mt-2 font-mono text-xs text-term-cyan sm:mt-0 sm:shrink-0">
                  {layer.budget}
                </p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      <ClosingCta
        title="Put a defence in front of your model"
        text={
          <>
            AI Defence is MIT licensed and runs on Node 18+. It is built on AIMDS, the Rust and
            TypeScript platform that does the heavy lifting.
          </>
        }
        links={data.links}
      >
        <Link to="/aimds" onClick={scrollToTopSmooth} className={buttonClasses('outline')}>
          <Cpu size={16} aria-hidden="true" />
          AIMDS platform
        </Link>
      </ClosingCta>
      <footer className="mt-10 border-t border-ink-800 pt-6 font-mono text-xs text-dim">
        <p>
          aidefence v0.1.0 · MIT licence · Node 18+ · detection &lt; 10 ms · 27 threat patterns · 12
          jailbreak patterns
        </p>
      </footer>
    </Page>
  );
}
