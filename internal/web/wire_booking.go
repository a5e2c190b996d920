package web

import (
	"time"

	"tribe/internal/booking"
	"tribe/internal/inquiries"
)

// The booking routes' own request and response bodies (routes_booking.go).
// The web app's TypeScript for them is generated (tygo.yaml).

// BookingTypes answers GET /api/booking/types.
type BookingTypes struct {
	// PaymentsEnabled: paid types go to Stripe Checkout; otherwise they
	// become requests the owner confirms.
	PaymentsEnabled bool           `json:"payments_enabled"`
	Types           []booking.Type `json:"types"`
	// MemberPrices: the caller is a signed-in tribe member, who pays the
	// types' member_price where they have one.
	MemberPrices bool `json:"member_prices"`
	// NoShowPolicy is the owner's policy on missed calls (Admin → Booking
	// settings), "" for none.
	NoShowPolicy string `json:"no_show_policy"`
}

// BookingRequest is the body of POST /api/bookings.
type BookingRequest struct {
	Type     string `json:"type"`
	EventID  string `json:"event_id,omitempty"` // the occurrence, for a seated type
	Start    string `json:"start"`
	Name     string `json:"name"`
	Email    string `json:"email"`
	Notes    string `json:"notes"`
	TimeZone string `json:"time_zone"`
	// UseCredit books with a session package's credit: confirmed at once,
	// no Checkout (409 no_credit when none is left). The credits are the
	// signed-in member's, or those of the credits mail's CreditToken.
	UseCredit   bool   `json:"use_credit,omitempty"`
	CreditToken string `json:"credit_token,omitempty"`
}

// BookingView is a booking as its booker sees it (docs/api.md).
type BookingView struct {
	ID            string     `json:"id"`
	Type          string     `json:"type"`
	TypeName      string     `json:"type_name"`
	Status        string     `json:"status"`
	Start         time.Time  `json:"start"`
	End           time.Time  `json:"end"`
	Duration      int        `json:"duration"`
	ExpiresAt     *time.Time `json:"expires_at,omitempty"`
	Name          string     `json:"name"`
	Email         string     `json:"email"`
	Notes         string     `json:"notes"`
	TimeZone      string     `json:"time_zone"`
	OwnerName     string     `json:"owner_name"`
	OwnerTimeZone string     `json:"owner_time_zone"`
	ContactEmail  string     `json:"contact_email"`
	Amount        int64      `json:"amount"`
	Currency      string     `json:"currency"`
	PriceText     string     `json:"price_text"`
	Paid          bool       `json:"paid"`
	Refunded      int64      `json:"refunded"`
	// Discount is what a promotion code took off Amount at Checkout.
	Discount        int64      `json:"discount"`
	MeetingLink     string     `json:"meeting_link,omitempty"` // to the booker only inside the join window
	Room            string     `json:"room,omitempty"`         // a confirmed call's room: "open", "later" (see room_opens_at), "owner" (the owner sends the link), "ended"
	RoomOpensAt     *time.Time `json:"room_opens_at,omitempty"`
	CheckoutURL     string     `json:"checkout_url,omitempty"`
	RescheduleCount int        `json:"reschedule_count"`
	ReschedulesLeft int        `json:"reschedules_left"`
	CanChange       bool       `json:"can_change"`
	ChangeUntil     time.Time  `json:"change_until"`
	CancelledBy     string     `json:"cancelled_by,omitempty"`
	EventID         string     `json:"event_id,omitempty"` // a seat of a group training: cancel only, no move
	Credit          bool       `json:"credit,omitempty"`   // paid with a session package's credit
	CreatedAt       time.Time  `json:"created_at"`
}

// AdminBookingView is a booking as the owner sees it: the booker's view and
// the payment's details.
type AdminBookingView struct {
	BookingView   `tstype:",extends"`
	UserID        string                 `json:"user_id"`
	PaidAt        *time.Time             `json:"paid_at,omitempty"`
	PaymentIntent string                 `json:"payment_intent"`
	Refunds       []booking.RefundRecord `json:"refunds"`
	UpdatedAt     time.Time              `json:"updated_at"`
}

// BookingCreated answers POST /api/bookings.
type BookingCreated struct {
	Booking     BookingView `json:"booking"`
	Token       string      `json:"token"`
	ManageURL   string      `json:"manage_url"`
	CheckoutURL string      `json:"checkout_url,omitempty"`
}

// BookingReply answers the booker's routes that return one booking.
type BookingReply struct {
	Booking BookingView `json:"booking"`
}

// RefundOwed is the money a cancellation returns.
type RefundOwed struct {
	Amount   int64  `json:"amount"`
	Currency string `json:"currency"`
}

// BookingCancelled answers POST /api/bookings/{id}/cancel.
type BookingCancelled struct {
	Booking BookingView `json:"booking"`
	Refund  *RefundOwed `json:"refund" tstype:"RefundOwed | null,required"`
}

// RescheduleRequest is the body of POST /api/bookings/{id}/reschedule.
type RescheduleRequest struct {
	Start string `json:"start"`
}

// AdminBookingList answers GET /api/admin/bookings.
type AdminBookingList struct {
	Bookings []AdminBookingView `json:"bookings"`
	Revenue  MonthRevenue       `json:"revenue"`
	// OpenHolds is how many bookings wait for payment now; HoldsAlert is
	// true when that many suggest someone holds times without paying.
	OpenHolds  int  `json:"open_holds"`
	HoldsAlert bool `json:"holds_alert"`
}

// MonthRevenue is one month's booking money, per currency.
type MonthRevenue struct {
	Month  string            `json:"month"`
	Totals []booking.Revenue `json:"totals"`
}

// AdminBookingReply answers the admin routes that return one booking.
type AdminBookingReply struct {
	Booking AdminBookingView `json:"booking"`
	Refund  *RefundOwed      `json:"refund,omitempty"`
}

// BookingSettingsReply answers GET and PUT /api/admin/booking/settings.
type BookingSettingsReply struct {
	Settings booking.Settings `json:"settings"`
	// RoomWarning tells the owner that confirmed calls have no room to join.
	RoomWarning string `json:"room_warning,omitempty"`
}

// EventList answers GET /api/booking/events and GET /api/admin/booking/events.
type EventList struct {
	Events []booking.Event `json:"events"`
}

// EventReply answers the admin routes that return one occurrence.
type EventReply struct {
	Event booking.Event `json:"event"`
}

// EventPatch is the body of PATCH /api/admin/booking/events/{id}.
type EventPatch struct {
	Seats int `json:"seats"`
}

// EventMove is the body of POST /api/admin/booking/events/{id}/move: the
// date's new start (RFC 3339) and, when above 0, its new length in minutes.
type EventMove struct {
	Start    string `json:"start"`
	Duration int    `json:"duration,omitempty"`
}

// EventCancelled answers POST /api/admin/booking/events/{id}/cancel: the
// occurrence and the refunds its seats were owed.
type EventCancelled struct {
	Event   booking.Event `json:"event"`
	Refunds []RefundOwed  `json:"refunds"`
}

// AttendeeList answers GET /api/admin/booking/events/{id}/attendees.
type AttendeeList struct {
	Event     booking.Event      `json:"event"`
	Attendees []AdminBookingView `json:"attendees"`
}

// MessageSent answers POST /api/admin/booking/events/{id}/message.
type MessageSent struct {
	Sent int `json:"sent"`
}

// InquirySent answers POST /api/inquiries.
type InquirySent struct {
	ID        string    `json:"id"`
	CreatedAt time.Time `json:"created_at"`
}

// InquiryList answers GET /api/admin/inquiries.
type InquiryList struct {
	Inquiries []inquiries.Inquiry `json:"inquiries"`
}

// InquiryReply answers PATCH /api/admin/inquiries.
type InquiryReply struct {
	Inquiry inquiries.Inquiry `json:"inquiry"`
}

// SeatWaitlistJoined answers POST /api/booking/events/{id}/waitlist.
type SeatWaitlistJoined struct {
	Joined bool `json:"joined"`
}

// SeatWaitlistReply is a date's wait list in line order (admins).
type SeatWaitlistReply struct {
	Waitlist []*booking.WaitlistEntry `json:"waitlist" tstype:"booking.WaitlistEntry[]"`
}

// OfferReply is a seat offered from the wait list, as its link opens it.
type OfferReply struct {
	Offer *booking.Offer `json:"offer" tstype:"booking.Offer,required"`
}

// OfferCheckout is where to pay for an offered seat.
type OfferCheckout struct {
	CheckoutURL string `json:"checkout_url"`
}
