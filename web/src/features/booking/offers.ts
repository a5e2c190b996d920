import type { Services } from '@/content/types';

/** A one-to-one offer of the content file, as the booking page shows it. */
export interface Offer {
  id: string;
  name: string;
  /** Length of the call in minutes. */
  minutes: number;
  /** In the currency's major unit, as the content writes it. */
  price: number;
  /** What a signed-in tribe member pays, when lower; null when members pay the same. */
  memberPrice: number | null;
  currency: string;
  description: string;
  features: string[];
  /** Booked on the site; otherwise `link` is the owner's scheduler. */
  native: boolean;
  link: string;
  /** Sold by the seat of a date the owner scheduled (the group training): its default seats; 0 for a call. */
  seats: number;
}

/** The session or training option `id` of the content, or null when there is none. */
export function findOffer(services: Services, id: string): Offer | null {
  const session = services.sessions.find((s) => s.id === id);
  if (session) {
    return {
      id,
      name: session.name,
      minutes: session.duration,
      price: session.price,
      memberPrice: session.member_price ?? null,
      currency: session.currency ?? services.currency,
      description: session.description,
      features: session.features,
      native: session.booking === 'native',
      link: session.booking_link ?? '',
      seats: 0,
    };
  }
  const training = services.training.find((t) => t.id === id);
  if (training?.duration_minutes) {
    return {
      id,
      name: training.title,
      minutes: training.duration_minutes,
      price: training.price,
      memberPrice: training.member_price ?? null,
      currency: training.currency ?? services.currency,
      description: training.subtitle ?? '',
      features: training.features,
      native: training.booking === 'native',
      link: training.booking_link ?? '',
      seats: training.booking === 'native' ? (training.seats ?? 0) : 0,
    };
  }
  return null;
}

/** "30 minutes", "2 hours", "1 hour 30 minutes". */
export function durationText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  const hours = h === 0 ? '' : `${h} hour${h === 1 ? '' : 's'}`;
  const mins = m === 0 ? '' : `${m} minute${m === 1 ? '' : 's'}`;
  return [hours, mins].filter(Boolean).join(' ') || '0 minutes';
}

/** "12 months" for 365 days, "6 months" for 180, else days: how long a package's credits last. */
export function validityText(days: number): string {
  if (days % 365 === 0) return days === 365 ? '12 months' : `${days / 365} years`;
  if (days % 30 === 0) return days === 30 ? '1 month' : `${days / 30} months`;
  return days === 1 ? '1 day' : `${days} days`;
}
