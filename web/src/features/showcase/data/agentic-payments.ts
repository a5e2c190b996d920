import {
  Ban,
  Bot,
  Building2,
  CalendarClock,
  ClipboardCheck,
  Code2,
  FileCheck2,
  Fingerprint,
  KeyRound,
  ListFilter,
  Megaphone,
  ReceiptText,
  Repeat,
  ShieldCheck,
  ShoppingCart,
  Store,
  TrendingUp,
  Users,
  Wallet,
  Zap,
} from 'lucide-react';
import { type Feature, packageLinks, type Snippet, type Stat } from '../types';

export const title = 'Agentic Payments';

export const tagline = 'Autonomous payment authorization for AI agents';

export const lead =
  'Give an agent a budget, not your card. agentic-payments lets a person sign a spending mandate once (how much, how often, where and until when) and lets agents spend inside it, with every payment verified against the signature, every step tracked and large purchases approved by several agents at once.';

export const badges = [
  '31K+ downloads',
  'v2.1.8',
  'MIT',
  'Production Ready',
  '< 200 KB bundle',
  'TypeScript + Rust',
] as const;

/** The repository the npm package names as its source. */
export const links = packageLinks(
  'https://github.com/agentic-catalog/agentic-payments',
  'agentic-payments',
  'agentic-payments',
);

export const install: Snippet[] = [
  { title: 'npm', language: 'shell', code: 'npm install agentic-payments' },
  { title: 'Rust (Cargo)', language: 'shell', code: 'cargo add agentic-payments' },
];

export const protocols: Feature[] = [
  {
    icon: Bot,
    tag: 'MCP',
    title: 'Model Context Protocol',
    text: 'Payment tools for AI assistants: create and sign mandates, check budgets and verify payments from inside a conversation with Claude or any MCP client.',
  },
  {
    icon: KeyRound,
    tag: 'AP2',
    title: 'Agent Payments Protocol',
    text: 'Intent, cart and payment mandates as verifiable credentials signed with Ed25519, carrying the holder’s authority from “buy this” to checkout.',
  },
  {
    icon: ShoppingCart,
    tag: 'ACP',
    title: 'Agentic Commerce Protocol',
    text: 'A REST checkout flow for agent purchases that stays compatible with the card providers’ existing checkout: create, update and complete sessions.',
  },
  {
    icon: Fingerprint,
    tag: 'TAP',
    title: 'Trusted Agent Protocol',
    text: 'Agent identity over QUIC with RFC 9421 HTTP Message Signatures, so a merchant knows which agent is calling and on whose behalf before it accepts an order.',
  },
];

export const features: Feature[] = [
  {
    icon: FileCheck2,
    title: 'Signed spending mandates',
    text: 'A holder signs what an agent may spend: an amount cap per payment and per period, in one currency. Nothing outside the mandate verifies.',
  },
  {
    icon: CalendarClock,
    title: 'Time windows and auto-expiry',
    text: 'Mandates carry a start, an end and optional hours of use. They expire on their own; there is no forgotten standing permission.',
  },
  {
    icon: ListFilter,
    title: 'Merchant rules',
    text: 'Allow or block merchants and categories, so a grocery agent cannot buy electronics and a travel agent only books approved carriers.',
  },
  {
    icon: Ban,
    title: 'Instant revocation',
    text: 'Revoke a mandate and the very next verification fails, across every agent holding it. No waiting for an expiry date.',
  },
  {
    icon: ClipboardCheck,
    title: 'Intent and cart mandates',
    text: 'An intent mandate says what the person wants (“running shoes under $150”); a cart mandate pins the exact items and total they approved.',
  },
  {
    icon: ReceiptText,
    title: 'Payment tracking',
    text: 'Each payment is followed from authorization to capture, including partial captures, voids and refunds, with a timestamped record of every step.',
  },
  {
    icon: Users,
    title: 'Multi-agent consensus',
    text: 'Byzantine fault-tolerant approval: large payments need 67%+ of the verifying agents to agree, for example 3 of 4 agents above $25K.',
  },
  {
    icon: ShieldCheck,
    title: 'Ed25519 throughout',
    text: 'Mandates, approvals and receipts are signed and verified with Ed25519 keys, so any party can check who authorized what.',
  },
  {
    icon: Code2,
    title: 'TypeScript and Rust',
    text: 'One mandate format for Node.js, browsers and Rust services. The JavaScript bundle stays under 200 KB.',
  },
];

export const mcpCommands: Snippet[] = [
  {
    title: 'stdio (local assistants)',
    language: 'shell',
    code: 'npx -y agentic-payments mcp',
  },
  {
    title: 'HTTP/SSE (remote clients)',
    language: 'shell',
    code: 'npx -y agentic-payments mcp \\\n  --transport http --port 3000',
  },
];

export const mcpStats: Stat[] = [
  { value: '10', label: 'tools', detail: 'mandates, payments, consensus' },
  { value: '3', label: 'resources', detail: 'mandates, payments, audit log' },
  { value: '2', label: 'prompts', detail: 'guided mandate and checkout' },
];

export const performance: Stat[] = [
  { value: '~2 ms', label: 'Ed25519 signing' },
  { value: '~3 ms', label: 'Signature verification' },
  { value: '< 1 ms', label: 'Mandate validation' },
  { value: '67%+', label: 'Consensus threshold', detail: '3 of 4 agents over $25K' },
];

export const useCases: Feature[] = [
  {
    icon: ShoppingCart,
    title: 'E-commerce shopping',
    text: 'A shopping agent restocks the household within a $500 weekly mandate and only at approved stores.',
  },
  {
    icon: TrendingUp,
    title: 'Algorithmic trading',
    text: 'Trading agents fund positions inside per-trade and daily caps, with every order signed and traceable.',
  },
  {
    icon: Megaphone,
    title: 'Ad campaigns',
    text: 'Media-buying agents shift spend between channels hour by hour without crossing a $10K daily limit.',
  },
  {
    icon: Building2,
    title: 'Enterprise procurement',
    text: 'Purchasing agents work to a $50K monthly budget; any order over $25K needs 3 of 4 approving agents.',
  },
  {
    icon: Repeat,
    title: 'Subscriptions',
    text: 'Renewals run on their own while the price holds; a change outside the mandate stops for a person.',
  },
  {
    icon: Store,
    title: 'Store management',
    text: 'Inventory agents reorder from approved suppliers when stock runs low, inside category rules.',
  },
  {
    icon: Wallet,
    title: 'AP/AR automation',
    text: 'Finance agents match invoices, pay vendors on time and reconcile captures against receipts.',
  },
  {
    icon: Zap,
    title: 'Mandate authorization & fraud prevention',
    text: 'Unsigned, expired, revoked or out-of-rule payments fail verification before any money moves.',
  },
];

export const quickStart =
  '# 1. Install\n' +
  'npm install agentic-payments\n' +
  '\n' +
  '# 2. Create a weekly mandate for a shopping agent\n' +
  'npx agentic-payments mandate create \\\n' +
  '  --agent shopping-agent-01 \\\n' +
  '  --holder alice@example.com \\\n' +
  '  --amount 500 \\\n' +
  '  --currency USD \\\n' +
  '  --period weekly\n' +
  '\n' +
  '# 3. Sign it with the holder’s Ed25519 key\n' +
  'npx agentic-payments mandate sign \\\n' +
  '  --file mandate.json \\\n' +
  '  --private-key ./keys/alice.ed25519\n' +
  '\n' +
  '# 4. Start the payment server\n' +
  'npx agentic-payments server --port 3000';
