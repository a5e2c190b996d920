import { ShowcasePage } from './ShowcasePage';

export function AgenticPaymentsPage() {
  return (
    <ShowcasePage
      title="Agentic Payments"
      command="cat showcase/agentic-payments.md"
      lead="A payments library for AI agents: signed spending mandates with caps, time windows and merchant rules, instant revocation and automatic expiry, and multi-agent consensus for large purchases."
      badges={['31K+ downloads', 'v2.1.8', 'MIT', 'TypeScript + Rust', 'under 200 KB bundle']}
      install="npm install agentic-payments"
      repoUrl="https://github.com/ruvnet"
    />
  );
}
