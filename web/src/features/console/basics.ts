/**
 * The part of the console's command set that its first view needs: the output types, the first
 * transcript's answers (`services` and `booking`, from the services content alone) and Tab
 * completion. Everything else (commands.ts, with every content file, search and the AI stream)
 * loads when the console is first used, so a visit to Home does not download it.
 */

import { formatPrice } from '@/content/format';
import type { Services } from '@/content/types';

/** How a block of output is coloured. */
export type Tone = 'output' | 'muted' | 'error' | 'accent';

/** A link shown under a block: inside the site (`to`) or outward (`external`). */
export interface ConsoleLink {
  href: string;
  label: string;
  external: boolean;
}

/** One block of output. */
export interface Block {
  text: string;
  tone: Tone;
  link?: ConsoleLink;
}

/** What a running command tells the console. `append` adds text to the last block (a stream). */
export type ConsoleEvent =
  | { kind: 'print'; block: Block; streaming?: boolean }
  | { kind: 'append'; text: string }
  | { kind: 'end-stream' }
  | { kind: 'clear' };

/** Every command name Tab completes, in help order. */
export const COMMAND_NAMES = [
  'help',
  'commands',
  'about',
  'services',
  'pricing',
  'projects',
  'stack',
  'tech',
  'tools',
  'skills',
  'contact',
  'github',
  'linkedin',
  'booking',
  'slots',
  'search',
  'ask',
  'ai',
  'resources/list',
  'resources/read',
  'tools/list',
  'tools/call',
  'seed-kb',
  'clear',
] as const;

/** A block of output. */
export function out(text: string, tone: Tone = 'output', link?: ConsoleLink): Block {
  return link ? { text, tone, link } : { text, tone };
}

/** The parts of the services content that `services` and `booking` quote. */
export type ServicesQuoted = Pick<
  Services,
  'currency' | 'sessions' | 'neural_trader' | 'tribe' | 'packages'
>;

/** What `services` (and `pricing`) answer. */
export function servicesAnswer(services: ServicesQuoted): Block[] {
  const { currency, sessions, neural_trader: nt, tribe } = services;
  const lines = ['One-on-one sessions:'];
  for (const s of sessions) {
    const popular = s.popular ? '  ★ most popular' : '';
    const member = s.member_price
      ? `  (member price ${formatPrice(s.member_price, s.currency ?? currency)})`
      : '';
    lines.push(
      `  ${s.duration} min  ${s.name}  ${formatPrice(s.price, s.currency ?? currency)}${member}${popular}`,
    );
  }
  const packages = services.packages ?? [];
  if (packages.length > 0) {
    lines.push('Session packages (paid once, book each call with a credit):');
    for (const p of packages) {
      const cur = p.currency ?? currency;
      const member = p.member_price ? `, member price ${formatPrice(p.member_price, cur)}` : '';
      lines.push(
        `  ${p.name}  ${formatPrice(p.price, cur)}${member}, valid ${validityText(p.valid_days)}`,
      );
    }
  }
  lines.push(
    `${nt.name} training:`,
    `  group session  ${formatPrice(nt.group_sessions.price, currency)} (${nt.group_sessions.duration}, ${nt.group_sessions.capacity})`,
    `  private training  ${formatPrice(nt.private_training.price, currency)} (${nt.private_training.note})`,
    `  enterprise package  ${formatPrice(nt.enterprise_package.price, currency)} (${nt.enterprise_package.description})`,
    `${tribe.name}: ${formatPrice(tribe.price_monthly, tribe.currency)}/month, live sessions of ${tribe.session_length}, ${tribe.session_cadence}, cohorts of about ${tribe.cohort_size}.`,
  );
  return [out(lines.join('\n')), out("Type 'booking' to book a session.", 'muted')];
}

/** "12 months" for 365 days, "6 months" for 180, else days: a package's validity. */
export function validityText(days: number): string {
  if (days % 365 === 0) return days === 365 ? '12 months' : `${days / 365} years`;
  if (days % 30 === 0) return days === 30 ? '1 month' : `${days / 30} months`;
  return days === 1 ? '1 day' : `${days} days`;
}

/** The site's booking page, where `booking` and an offer that cannot be booked point. */
export const BOOKING_PAGE: ConsoleLink = {
  href: '/booking',
  label: 'Go to booking page',
  external: false,
};

/** What `booking` answers. */
export function bookingAnswer(services: ServicesQuoted): Block[] {
  const link = BOOKING_PAGE;
  const cheapest = Math.min(...services.sessions.map((s) => s.price));
  return [
    out(
      `Sessions are booked and paid on this site, from ${formatPrice(cheapest, services.currency)}. Type 'slots' for the next free times.`,
      'output',
      link,
    ),
  ];
}

/** The command names that start with `prefix` (case-insensitive), for Tab. */
export function completions(prefix: string): string[] {
  const p = prefix.trimStart().toLowerCase();
  if (p === '' || /\s/.test(p)) return [];
  return COMMAND_NAMES.filter((name) => name.startsWith(p));
}

/** The longest text every string in `names` starts with. */
export function commonPrefix(names: string[]): string {
  if (names.length === 0) return '';
  let prefix = names[0] ?? '';
  for (const name of names) {
    while (!name.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  return prefix;
}

/**
 * A local command's answer, or its failure message when the content it reads is broken (only an
 * injected content file can be): the page itself still shows.
 */
export function answerOrFailure(noun: string, answer: () => Block[]): Block[] {
  try {
    return answer();
  } catch {
    return [out(`Failed to load ${noun} information`, 'error')];
  }
}
