import {
  AudioWaveform,
  CalendarClock,
  ChartSpline,
  GitCompare,
  Orbit,
  Radio,
  Terminal,
  TextSearch,
} from 'lucide-react';
import { type Feature, type FigureTable, packageLinks, type Snippet, type Stat } from '../types';

export const title = 'Midstreamer';

export const tagline = 'Temporal analysis for data in motion, in WebAssembly';

export const lead =
  'Midstreamer compares and analyses sequences while they are still streaming: LLM token streams, sensor readings, prices, user sessions. Its Rust algorithms compile to WebAssembly, so the same code runs in the browser, in Node.js and at the edge.';

export const badges = [
  'WebAssembly',
  'DTW · LCS · edit distance',
  '< 100 KB per target',
  'Rust + TypeScript',
  'CLI included',
] as const;

/** The npm package is midstreamer; its code lives in the midstream repository. */
export const links = packageLinks(
  'https://github.com/ruvnet/midstream',
  'midstreamer',
  'midstreamer-temporal-compare',
);

export const features: Feature[] = [
  {
    icon: GitCompare,
    title: 'Dynamic time warping',
    text: 'Match two sequences that follow the same shape at different speeds, such as a gesture done slowly or a price pattern stretched over days.',
  },
  {
    icon: TextSearch,
    title: 'LCS and edit distance',
    text: 'Longest common subsequence and Levenshtein distance for discrete streams: tokens, events, log lines.',
  },
  {
    icon: ChartSpline,
    title: 'Pattern detection',
    text: 'Find every place a known pattern occurs in a series, ranked by distance, with a threshold you choose.',
  },
  {
    icon: Orbit,
    title: 'Attractor analysis',
    text: 'Phase-space and Lyapunov-exponent estimates tell stable behaviour from drift and chaos.',
  },
  {
    icon: CalendarClock,
    title: 'Nanosecond scheduler',
    text: 'Schedule one-off and repeating tasks with nanosecond timestamps, driven from the animation frame in browsers.',
  },
  {
    icon: Radio,
    title: 'Streaming input',
    text: 'Analyse from standard input or watch a file as it grows, without loading the whole stream into memory.',
  },
  {
    icon: AudioWaveform,
    title: 'Meta-learning',
    text: 'Recurring patterns are scored over time, with confidence and improvement per iteration.',
  },
  {
    icon: Terminal,
    title: 'Command line',
    text: 'benchmark, compare, analyze, lcs and file commands, with no code needed to try it.',
  },
];

export const install: Snippet[] = [
  { title: 'npm', language: 'shell', code: 'npm install midstreamer' },
  {
    title: 'Rust (Cargo)',
    language: 'shell',
    code: 'cargo add midstreamer-temporal-compare',
  },
  {
    title: 'Try the CLI',
    language: 'shell',
    code:
      'npx midstreamer benchmark\n' +
      'npx midstreamer compare 1,2,3,4,5 1,2,2,3,4,5\n' +
      '# compare two sequences stored in files\n' +
      'npx midstreamer file baseline.csv today.csv',
  },
];

export const stats: Stat[] = [
  { value: '< 100 KB', label: 'WebAssembly per target', detail: 'web, bundler, Node.js' },
  { value: '3', label: 'Build targets' },
  { value: 'ns', label: 'Scheduler precision' },
  { value: '5', label: 'CLI commands' },
];

export const benchmarks: FigureTable = {
  caption: 'Algorithms measured by npx midstreamer benchmark',
  columns: ['Algorithm', 'Cost', 'Best for'],
  rows: [
    ['Dynamic time warping', 'O(n·m)', 'Same shape, different speed'],
    ['Longest common subsequence', 'O(n·m)', 'Shared order of events'],
    ['Edit distance', 'O(n·m)', 'Small insertions and deletions'],
    ['Pattern search', 'O(n·k) per window', 'Finding a known shape in a series'],
  ],
};
