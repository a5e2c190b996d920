/**
 * The JSON of the booking endpoints (docs/api.md, "Booking"), as the server writes it. Amounts
 * are in the currency's smallest unit (cents); instants are RFC 3339.
 */

/** A bookable type: `GET /api/booking/types`. */
export interface BookingType {
  id: string;
  name: string;
  /** Length of the call in minutes. */
  duration: number;
  /** Smallest currency unit; 0 is a free call, confirmed at once. */
  price: number;
  currency: string;
  mode: 'native' | 'external';
  booking_link?: string;
}

/** `GET /api/booking/types`. */
export interface BookingTypes {
  types: BookingType[];
  /** Online payment is configured: a paid type goes to Checkout, otherwise it is a request. */
  payments_enabled?: boolean;
}

/** One date of the visitor's calendar and its free starts. */
export interface SlotDay {
  /** YYYY-MM-DD in the asked zone. */
  date: string;
  /** RFC 3339 instants written with the asked zone's offset. */
  slots: string[];
}

/** `GET /api/booking/slots`. */
export interface Slots {
  time_zone: string;
  days: SlotDay[];
}

export const BOOKING_STATUSES = [
  'held',
  'requested',
  'confirmed',
  'cancelled',
  'expired',
  'declined',
  'completed',
  'no_show',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** A booking as its booker and the owner see it. */
export interface Booking {
  id: string;
  type: string;
  /** The type's name, when the server adds it. */
  type_name?: string;
  status: BookingStatus;
  start: string;
  end: string;
  /** A hold's end: Checkout must be paid before it. */
  expires_at?: string;
  name: string;
  email: string;
  notes: string;
  /** The booker's zone. */
  time_zone: string;
  amount: number;
  currency: string;
  refunded: number;
  paid_at?: string;
  /** Only for a confirmed booking, to its booker and the owner. */
  meeting_link?: string;
  reschedule_count: number;
  cancelled_by?: string;
  created_at: string;
  updated_at: string;
}

/** What `POST /api/bookings` takes. */
export interface BookingInput {
  type: string;
  start: string;
  name: string;
  email: string;
  notes: string;
  time_zone: string;
}

/** `201` of `POST /api/bookings`. */
export interface BookingCreated {
  booking: Booking;
  /** Paid type with payments on: where to pay. */
  checkout_url?: string;
  /** The manage token, given only now. */
  token?: string;
  /** The booking's page with its token. */
  manage_url?: string;
}

/** `GET /api/bookings/{id}?token=…`: a booking seen through its manage link. */
export interface BookingView {
  booking: Booking;
  /** The owner's zone, for "the owner's time". */
  owner_time_zone?: string;
  /** Where to write after the cut-off. */
  owner_email?: string;
  owner_name?: string;
  /** Before this instant the booker may move or cancel online. */
  change_until?: string;
  /** Whether moving or cancelling online is still possible now. */
  can_change?: boolean;
  /** Whether a move is still possible (at most two). */
  can_reschedule?: boolean;
  /** The invitation as a file (.ics). */
  ics_url?: string;
}

/** One range of hours on the owner's clock, "09:00" to "17:00". */
export interface HourRange {
  start: string;
  end: string;
}

export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Other hours on one date; no hours is a day off. */
export interface Override {
  date: string;
  hours: HourRange[];
}

/** `GET|PUT /api/admin/booking/settings`. */
export interface BookingSettings {
  time_zone: string;
  weekly_hours: Partial<Record<Weekday, HourRange[]>>;
  overrides: Override[];
  slot_step_minutes: number;
  buffer_before_minutes: number;
  buffer_after_minutes: number;
  minimum_notice_minutes: number;
  window_days: number;
  max_per_day: number;
  cutoff_minutes: number;
  owner_name: string;
  owner_email: string;
  meeting_link: string;
}

/** One currency's booking money in a month, smallest unit. */
export interface Revenue {
  currency: string;
  gross: number;
  refunded: number;
  net: number;
}

/** `GET /api/admin/bookings`. */
export interface AdminBookings {
  bookings: Booking[];
  /** This month's money, per currency. */
  revenue?: Revenue[];
  /** The owner's zone, to show times on the owner's clock. */
  time_zone?: string;
}

export type AdminScope = 'upcoming' | 'past' | 'cancelled';
export type AdminAction = 'confirm' | 'decline' | 'cancel' | 'complete' | 'no-show';

/** The owner's private feed of every booking. */
export interface BookingFeedStatus {
  exists: boolean;
  created_at?: string;
}

export interface BookingFeedCreated {
  url: string;
  created_at: string;
}
