import { CodeBlock } from '@/components/ui/code-block';
import { Page } from '@/components/ui/page';
import {
  BadgeList,
  ClosingCta,
  DataTable,
  FeatureGrid,
  PackageLinks,
  Section,
  Snippets,
  StatTiles,
} from './parts';
import type { Feature, FigureTable, PackageLink, Snippet, Stat } from './types';

export interface PackageShowcaseProps {
  title: string;
  /** The shell line drawn above the heading. */
  command: string;
  tagline: string;
  lead: string;
  badges: readonly string[];
  links: readonly PackageLink[];
  features: readonly Feature[];
  install: readonly Snippet[];
  usage?: Snippet;
  stats: readonly Stat[];
  benchmarks: FigureTable;
  closing: { title: string; text: string };
}

/** The layout of a single-package page: hero, features, install, benchmarks, links. */
export function PackageShowcase(props: PackageShowcaseProps) {
  return (
    <Page title={props.title}>
      <header className="motion-safe:animate-fade-up">
        <p className="font-mono text-sm text-dim" aria-hidden="true">
          <span className="text-term-green">ruv@io</span>:<span className="text-term-cyan">~</span>${' '}
          {props.command}
        </p>
        <h1 className="mt-3 text-3xl font-bold text-fg sm:text-4xl lg:text-5xl">{props.title}</h1>
        <p className="mt-3 font-mono text-base text-term-cyan sm:text-lg">{props.tagline}</p>
        <p className="mt-4 max-w-3xl text-base text-muted sm:text-lg">{props.lead}</p>
        <BadgeList badges={props.badges} className="mt-6" />
        <PackageLinks links={props.links} className="mt-6" />
      </header>

      <Section id="features" title="Features">
        <FeatureGrid items={props.features} columns={4} />
      </Section>

      <Section id="install" title="Install">
        <Snippets snippets={props.install} />
        {props.usage ? (
          <CodeBlock
            className="mt-4"
            title={props.usage.title}
            code={props.usage.code}
            language={props.usage.language}
          />
        ) : null}
      </Section>

      <Section id="benchmarks" title="Benchmarks">
        <StatTiles stats={props.stats} />
        <div className="mt-6">
          <DataTable table={props.benchmarks} />
        </div>
      </Section>

      <ClosingCta title={props.closing.title} text={props.closing.text} links={props.links} />
    </Page>
  );
}
