import * as data from './data/midstreamer';
import { PackageShowcase } from './PackageShowcase';

export function MidstreamerPage() {
  return (
    <PackageShowcase
      title={data.title}
      command="npx midstreamer help"
      tagline={data.tagline}
      lead={data.lead}
      badges={data.badges}
      links={data.links}
      features={data.features}
      install={data.install}
      stats={data.stats}
      benchmarks={data.benchmarks}
      closing={{
        title: 'Analyse streams while they flow',
        text: 'Midstreamer is open source. Install it from npm, read the Rust crates on GitHub, or browse the other agent tools in the projects list.',
      }}
    />
  );
}
