import type { AdminScope } from './types';

/** TanStack Query keys of booking, one per resource; every key starts with `booking`. */
export const bookingKeys = {
  all: ['booking'] as const,
  types: ['booking', 'types'] as const,
  /** Every month of slots of every type and zone. */
  slotsAll: ['booking', 'slots'] as const,
  slots: (type: string, from: string, to: string, tz: string) =>
    ['booking', 'slots', { type, from, to, tz }] as const,
  booking: (id: string) => ['booking', 'booking', id] as const,
  /** The session packages on sale. */
  packages: ['booking', 'packages'] as const,
  /** The credits of an address ('' for the signed-in member's). */
  credits: (email: string) => ['booking', 'credits', email] as const,
  /** The dates of a seated type (group training) with their seats left. */
  eventsAll: ['booking', 'events'] as const,
  events: (type: string) => ['booking', 'events', type] as const,
  admin: ['booking', 'admin'] as const,
  adminList: (scope: AdminScope) => ['booking', 'admin', 'list', scope] as const,
  settings: ['booking', 'admin', 'settings'] as const,
  feed: ['booking', 'admin', 'feed'] as const,
  adminEvents: ['booking', 'admin', 'events'] as const,
  attendees: (id: string) => ['booking', 'admin', 'events', id, 'attendees'] as const,
  inquiries: ['booking', 'admin', 'inquiries'] as const,
  /** The packages bought, for the owner. */
  packageSales: ['booking', 'admin', 'packages'] as const,
};
