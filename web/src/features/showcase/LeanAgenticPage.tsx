import { ShowcasePage } from './ShowcasePage';

export function LeanAgenticPage() {
  return (
    <ShowcasePage
      title="Lean Agentic"
      command="cat showcase/lean-agentic.md"
      lead="A theorem-prover package that lets agents state and check proofs, so their reasoning can be verified rather than trusted."
      badges={['theorem proving', 'MIT']}
      install="npm install lean-agentic"
      repoUrl="https://github.com/ruvnet"
    />
  );
}
