/**
 * The JSON of the booking endpoints (docs/api.md, "Booking"): the types generated from the Go wire
 * types (lib/api-types), with the statuses and modes narrowed to what the server writes. Amounts
 * are in the currency's smallest unit (cents); instants are RFC 3339.
 */
import type * as wire from '@/lib/api-types/booking';
import type * as inquiries from '@/lib/api-types/inquiries';
import type * as web from '@/lib/api-types/web';

/** A bookable type: `GET /api/booking/types`. */
export type BookingType = wire.Type;

/** `GET /api/booking/types`: the types, and whether payment is taken online. */
export type BookingTypes = web.BookingTypes;

/** One date of the visitor's calendar and its free starts. */
export type SlotDay = wire.Day;

/** `GET /api/booking/slots`. */
export type Slots = wire.Availability;

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
export type Booking = Omit<web.BookingView, 'status' | 'cancelled_by'> & {
  status: BookingStatus;
  cancelled_by?: 'booker' | 'owner';
};

/** The admin's view of a booking: the booker's, and the payment's details. */
export type AdminBooking = Booking & Omit<web.AdminBookingView, keyof web.BookingView>;

/** What `POST /api/bookings` takes. */
export type BookingInput = web.BookingRequest;

/** `201` of `POST /api/bookings`: the booking, its manage token and page, and Checkout if paid. */
export type BookingCreated = Omit<web.BookingCreated, 'booking'> & { booking: Booking };

/** `GET /api/bookings/{id}?token=…` and the answers of its changes (a cancel adds its refund). */
export interface BookingView {
  booking: Booking;
  refund?: web.RefundOwed | null;
}

/** One range of hours on the owner's clock, "09:00" to "17:00". */
export type HourRange = wire.Override['hours'][number];

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
export type Override = wire.Override;

/** `GET|PUT /api/admin/booking/settings`. */
export type BookingSettings = wire.Settings;

/** One currency's booking money in a month, smallest unit. */
export type RevenueTotal = wire.Revenue;

/** `GET /api/admin/bookings`: one list, and the month's money. */
export type AdminBookings = Omit<web.AdminBookingList, 'bookings'> & { bookings: AdminBooking[] };

/** `GET|PUT /api/admin/booking/settings`. */
export type SettingsBody = web.BookingSettingsReply;

export type AdminScope = wire.Scope;
export type AdminAction = 'confirm' | 'decline' | 'cancel' | 'complete' | 'no-show';

/** `GET /api/admin/booking/feed`: whether the owner's private feed of all bookings exists. */
export type BookingFeedStatus = web.FeedStatus;

/** `POST /api/admin/booking/feed`: the feed URL, shown once. */
export type BookingFeedCreated = web.FeedCreated;

/** One date of a group training, with its seats left (0 when full). */
export type BookingEvent = wire.Event;

/** `GET /api/booking/events` and `GET /api/admin/booking/events`. */
export type EventList = web.EventList;

/** The body of `POST /api/admin/booking/events`; 0 takes the type's length and seats. */
export type EventInput = wire.EventInput;

/** The body of `POST /api/admin/booking/events/{id}/message`. */
export type EventMessage = wire.EventMessage;

export type EventReply = web.EventReply;
export type EventPatch = web.EventPatch;
export type EventMove = web.EventMove;
export type EventCancelled = web.EventCancelled;
export type MessageSent = web.MessageSent;

/** `GET /api/admin/booking/events/{id}/attendees`: the seats, as admin bookings. */
export type AttendeeList = Omit<web.AttendeeList, 'attendees'> & { attendees: AdminBooking[] };

/** The statuses of an enterprise inquiry, in the order the owner works through them. */
export const INQUIRY_STATUSES = ['new', 'replied', 'won', 'lost'] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];

/** An enterprise inquiry as the owner sees it. */
export type Inquiry = Omit<inquiries.Inquiry, 'status'> & { status: InquiryStatus };
export type InquiryList = { inquiries: Inquiry[] };
export type InquiryReply = { inquiry: Inquiry };
export type InquiryPatch = Omit<inquiries.Patch, 'status'> & { status?: InquiryStatus };

/** A session package on sale: `GET /api/booking/packages` (prices in the smallest unit). */
export type SessionPackage = wire.Package;

/** `GET /api/booking/packages`: the packages, and whether the caller pays member prices. */
export type Packages = wire.PackagesReply;

/** A package bought, with the credits left: `GET /api/credits`, `GET /api/members/me/credits`. */
export type Credit = wire.Credit;

/** The credits of one address. */
export type Credits = wire.CreditsReply;
/** A package bought, in the owner's list (Admin → Booking). */
export type PackageSale = wire.PackageSale;
export type PackageSales = wire.PackageSalesReply;
