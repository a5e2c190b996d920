/**
 * The content the top of Home needs (the console slot): sessions and the tribe offer. Home's top
 * is in the entry chunk, so only these parts of services.json are bundled there (named JSON
 * imports are tree-shaken); the rest of Home reads ./home-sections from its own chunk.
 */
import { currency, neural_trader, packages, sessions, tribe } from '@content/services.json';
import { injectedContent } from './override';
import type { Services } from './types';

export interface ConsoleContent {
  currency: string;
  sessions: Services['sessions'];
  tribe: Services['tribe'];
}

const bundled: ConsoleContent = { currency, sessions, tribe };

/** The console slot's content: the site owner's when the server injected it, else the bundled. */
export function consoleContent(): ConsoleContent {
  const injected = injectedContent();
  if (injected === null) return bundled;
  const { services } = injected;
  return { currency: services.currency, sessions: services.sessions, tribe: services.tribe };
}

/** What the console's first transcript quotes (`services` and `booking`), without the other files. */
export type ConsoleQuoted = Pick<
  Services,
  'currency' | 'sessions' | 'neural_trader' | 'tribe' | 'packages'
>;

/**
 * The services content the console's first transcript quotes: the site owner's when the server
 * injected it, else the bundled parts, so the console's first view needs no other content file.
 */
export function consoleQuoted(): ConsoleQuoted {
  return injectedContent()?.services ?? { currency, sessions, neural_trader, tribe, packages };
}
