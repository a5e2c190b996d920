import { ShowcasePage } from './ShowcasePage';

export function MidstreamerPage() {
  return (
    <ShowcasePage
      title="Midstreamer"
      command="cat showcase/midstreamer.md"
      lead="Temporal analysis for streaming data: find patterns and changes in a stream while it is still flowing, not after it lands."
      badges={['temporal analysis', 'streaming', 'MIT']}
      install="npm install midstreamer"
      repoUrl="https://github.com/ruvnet"
    />
  );
}
