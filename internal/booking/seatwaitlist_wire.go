package booking

import "time"

// The JSON of the seat wait list (seatwaitlist.go; docs/api.md, "Group
// trainings by the seat").

// The states of a wait list entry.
const (
	WaitWaiting = "waiting" // in line
	WaitOffered = "offered" // a seat is held for them (BookingID) until OfferExpiresAt
	WaitBooked  = "booked"  // they took the seat offered
	WaitLapsed  = "lapsed"  // the offer ran out unpaid
	WaitClosed  = "closed"  // the date was cancelled or has passed
)

// WaitlistEntry is one person in line for a seat of a date.
type WaitlistEntry struct {
	ID             string     `json:"id"`
	EventID        string     `json:"event_id"`
	Name           string     `json:"name"`
	Email          string     `json:"email"`
	Status         string     `json:"status"`
	Position       int        `json:"position"` // 1 for the first still waiting; 0 once no longer waiting
	BookingID      string     `json:"booking_id,omitempty"`
	OfferedAt      *time.Time `json:"offered_at,omitempty"`
	OfferExpiresAt *time.Time `json:"offer_expires_at,omitempty"`
	CreatedAt      time.Time  `json:"created_at"`
}

// WaitlistRequest is what a visitor sends to join a date's wait list.
type WaitlistRequest struct {
	Name       string `json:"name"`
	Email      string `json:"email"`
	TimeZone   string `json:"time_zone"` // for the dates in their mails; UTC when empty
	ClientAddr string `json:"-"`
}

// Offer is a seat held for someone from the wait list, as its link shows it.
type Offer struct {
	Event     Event     `json:"event"`
	Name      string    `json:"name"`
	ExpiresAt time.Time `json:"expires_at"`
}
