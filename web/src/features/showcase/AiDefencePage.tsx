import { ShowcasePage } from './ShowcasePage';

export function AiDefencePage() {
  return (
    <ShowcasePage
      title="AI Defence"
      command="cat showcase/ai-defence.md"
      lead="A security framework for AI applications: detects prompt injection, jailbreaks, PII leaks and multimodal threats, analyses behaviour, verifies policies formally and responds adaptively."
      badges={['v0.1.0', 'MIT', 'Node 18+']}
      install="npm install aidefence"
      repoUrl="https://github.com/ruvnet"
    />
  );
}
