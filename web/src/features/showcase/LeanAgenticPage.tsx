import * as data from './data/lean-agentic';
import { PackageShowcase } from './PackageShowcase';

export function LeanAgenticPage() {
  return (
    <PackageShowcase
      title={data.title}
      command="npx lean-agentic --help"
      tagline={data.tagline}
      lead={data.lead}
      badges={data.badges}
      links={data.links}
      features={data.features}
      install={data.install}
      usage={{ title: 'example.mjs', code: data.usage }}
      stats={data.stats}
      benchmarks={data.benchmarks}
      closing={{
        title: 'Proofs your agents can check',
        text: 'lean-agentic is open source. Install it from npm or crates.io, read the kernel on GitHub, or browse the other agent tools in the projects list.',
      }}
    />
  );
}
