import { ShowcasePage } from './ShowcasePage';

export function AimdsPage() {
  return (
    <ShowcasePage
      title="AIMDS"
      command="cat showcase/aimds.md"
      lead="The AI manipulation defence platform behind AI Defence: Rust core libraries with a TypeScript API, built for low-latency detection, analysis and response."
      badges={['v2.1.1', 'dual licence', 'Rust 1.85+', 'TypeScript 5.0+', '98.3% test coverage']}
      repoUrl="https://github.com/ruvnet"
    />
  );
}
