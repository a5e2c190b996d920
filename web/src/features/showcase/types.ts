import type { LucideIcon } from 'lucide-react';

/** A card with an icon, a title and a sentence or two. */
export interface Feature {
  icon: LucideIcon;
  title: string;
  text: string;
  /** Short mono label in the card's corner, e.g. a protocol acronym or a latency. */
  tag?: string;
}

/** A headline figure: the value large, the label under it. */
export interface Stat {
  value: string;
  label: string;
  detail?: string;
}

export type RegistryKind = 'github' | 'npm' | 'crates';

/** Where a package lives: code host, npm or crates.io. */
export interface PackageLink {
  kind: RegistryKind;
  href: string;
  label: string;
}

/** A table of figures; the first column names the row. */
export interface FigureTable {
  caption: string;
  columns: readonly string[];
  rows: ReadonlyArray<readonly string[]>;
}

/** A code sample shown in a CodeBlock. */
export interface Snippet {
  title: string;
  code: string;
  language?: 'shell' | 'code';
}

/**
 * The links every package page offers: the code host (a full URL, since some packages live in
 * another repository or a sub-folder), and the npm package and Rust crate when there is one.
 */
export function packageLinks(repoUrl: string, npm?: string, crate?: string): PackageLink[] {
  const links: PackageLink[] = [{ kind: 'github', href: repoUrl, label: 'GitHub' }];
  if (npm) links.push({ kind: 'npm', href: `https://www.npmjs.com/package/${npm}`, label: 'npm' });
  if (crate) {
    links.push({ kind: 'crates', href: `https://crates.io/crates/${crate}`, label: 'crates.io' });
  }
  return links;
}
