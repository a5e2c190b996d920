import {
  Binary,
  BrainCircuit,
  Feather,
  FileSignature,
  Globe,
  Layers,
  Plug,
  Sigma,
} from 'lucide-react';
import { type Feature, type FigureTable, packageLinks, type Snippet, type Stat } from '../types';

export const title = 'Lean Agentic';

export const tagline = 'A WebAssembly theorem prover for AI agents';

export const lead =
  'lean-agentic brings a small, auditable proof kernel with dependent types to anywhere JavaScript runs. Agents can state a property, build a proof term and have it checked, so a claim like “this transformation keeps the meaning” is verified rather than trusted.';

export const badges = [
  'WebAssembly',
  'Dependent types',
  '150x faster equality',
  '< 100 KB',
  '10 MCP tools',
  'Rust + TypeScript',
] as const;

export const links = packageLinks(
  'https://github.com/agenticsorg/lean-agentic',
  'lean-agentic',
  'lean-agentic',
);

export const features: Feature[] = [
  {
    icon: Sigma,
    title: 'Dependent types',
    text: 'A kernel in the style of Lean 4: types can mention values, so specifications live in the types and the checker enforces them.',
  },
  {
    icon: Binary,
    title: 'Hash-consing',
    text: 'Identical terms are stored once and share an id, so checking two terms for equality is a pointer comparison: about 150x faster than walking their structure.',
  },
  {
    icon: Layers,
    title: 'Arena allocation',
    text: 'Terms live in a compact arena with zero-copy access, which keeps memory flat during long proof searches.',
  },
  {
    icon: Feather,
    title: 'Under 100 KB',
    text: 'The WebAssembly build is small enough to ship in a web page, a browser extension or an edge function.',
  },
  {
    icon: Plug,
    title: 'MCP server, 10 tools',
    text: 'Claude Code and other MCP clients can create terms, type-check, prove and verify through ten tools.',
  },
  {
    icon: FileSignature,
    title: 'Signed proofs',
    text: 'Proof certificates can be signed with Ed25519, so another agent can check who proved what, and that it has not changed.',
  },
  {
    icon: BrainCircuit,
    title: 'Agent memory',
    text: 'Optional vector search and episodic memory let an agent reuse lemmas and strategies that worked before.',
  },
  {
    icon: Globe,
    title: 'Runs everywhere',
    text: 'Browser, Node.js, Deno and Bun from one npm package; the same kernel as a Rust crate for native code.',
  },
];

export const install: Snippet[] = [
  { title: 'npm', language: 'shell', code: 'npm install lean-agentic' },
  { title: 'Rust (Cargo)', language: 'shell', code: 'cargo add lean-agentic' },
  {
    title: 'MCP server for Claude Code',
    language: 'shell',
    code: 'claude mcp add lean-agentic -- npx -y lean-agentic mcp start',
  },
];

export const usage =
  "import { createDemo } from 'lean-agentic';\n" +
  '\n' +
  'const prover = createDemo();\n' +
  '\n' +
  '// The identity function, λx:Type. x, built and type-checked in the kernel.\n' +
  'console.log(prover.createIdentity());\n' +
  '\n' +
  '// Two identical terms get the same id: equality is O(1).\n' +
  'console.log(prover.demonstrateHashConsing());';

export const stats: Stat[] = [
  { value: '150x', label: 'Faster term equality', detail: 'hash-consed vs structural' },
  { value: 'O(1)', label: 'Equality check', detail: 'one id comparison' },
  { value: '< 100 KB', label: 'WebAssembly bundle' },
  { value: '10', label: 'MCP tools' },
];

export const benchmarks: FigureTable = {
  caption: 'How lean-agentic compares two terms',
  columns: ['Operation', 'lean-agentic', 'Structural'],
  rows: [
    ['Equality of identical terms', 'O(1)', 'O(size of term)'],
    ['Relative speed', '150x', '1x'],
    ['Storage of repeated subterms', 'Once', 'Per copy'],
  ],
};
