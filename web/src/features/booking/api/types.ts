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

/** A booking as its token holder sees it (docs/api.md, "The booking object"). */
export interface Booking {
  id: string;
  type: string;
  type_name: string;
  status: BookingStatus;
  /** UTC instants. */
  start: string;
  end: string;
  /** Minutes. */
  duration: number;
  /** Only while held: Checkout must be paid before it. */
  expires_at?: string;
  name: string;
  email: string;
  notes: string;
  /** The booker's zone. */
  time_zone: string;
  owner_name: string;
  owner_time_zone: string;
  /** Where to write when the booking can no longer be changed online. */
  contact_email: string;
  /** What the type cost when booked; 0 for a free call. */
  amount: number;
  currency: string;
  /** `amount` written for people: "$299.00". */
  price_text: string;
  paid: boolean;
  refunded: number;
  /** Only when confirmed and the owner set one. */
  meeting_link?: string;
  /** Only while held: the same Stripe page. */
  checkout_url?: string;
  reschedule_count: number;
  reschedules_left: number;
  /** The booker may still cancel or move it online (before `change_until`). */
  can_change: boolean;
  change_until?: string;
  cancelled_by?: 'booker' | 'owner';
  created_at: string;
}

/** A refund as the admin list shows it. */
export interface Refund {
  stripe_refund_id: string;
  amount: number;
  currency: string;
  created_at: string;
}

/** The admin's view of a booking. */
export interface AdminBooking extends Booking {
  user_id: string;
  paid_at?: string;
  payment_intent: string;
  refunds: Refund[];
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
  /** The manage token, given only now. */
  token: string;
  /** The booking's page with its token. */
  manage_url: string;
  /** Paid type with payments on: where to pay. */
  checkout_url?: string;
}

/** `GET /api/bookings/{id}?token=…` and the answers of its changes. */
export interface BookingView {
  booking: Booking;
  /** What a cancellation refunded. */
  refund?: { amount: number; currency: string } | null;
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
export interface RevenueTotal {
  currency: string;
  gross: number;
  refunded: number;
  net: number;
}

/** `GET /api/admin/bookings`. */
export interface AdminBookings {
  bookings: AdminBooking[];
  /** The month's money (this month of the owner's calendar by default). */
  revenue: { month: string; totals: RevenueTotal[] };
}

/** `GET|PUT /api/admin/booking/settings`. */
export interface SettingsBody {
  settings: BookingSettings;
}

export type AdminScope = 'upcoming' | 'past' | 'cancelled';
export type AdminAction = 'confirm' | 'decline' | 'cancel' | 'complete' | 'no-show';

/** The owner's private feed of every booking. */
export interface BookingFeedStatus {
  exists: boolean;
  created_at: string | null;
}

export interface BookingFeedCreated {
  url: string;
  created_at: string;
}
