package booking

import (
	"tribe/internal/content"
)

// The ways a type is booked.
const (
	ModeNative   = "native"   // on this site
	ModeExternal = "external" // on the scheduler at BookingLink
)

// Type is one bookable offer, as the content describes it.
type Type struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Minutes int    `json:"duration"` // length of the call
	Price   int64  `json:"price"`    // in the currency's smallest unit (cents); 0 is free
	// MemberPrice, when above 0, is what a signed-in tribe member pays
	// (the server decides who is one).
	MemberPrice int64  `json:"member_price,omitempty"`
	Currency    string `json:"currency"`
	Mode        string `json:"mode"`
	BookingLink string `json:"booking_link,omitempty"` // external types only
	// Seats, when above 0, makes the type seated: it is booked one seat of
	// an occurrence the owner scheduled (events.go), Seats being an
	// occurrence's default size, instead of a free slot.
	Seats int `json:"seats,omitempty"`
}

// Seated reports whether the type is booked by the seat.
func (t Type) Seated() bool { return t.Seats > 0 }

// Free reports whether the type is confirmed without payment.
func (t Type) Free() bool { return t.Price == 0 }

// TypesFrom lists the content's offers that have a booking: the one-to-one
// sessions, then the training options, natively booked ones and those with
// an external link. An offer with neither is not bookable and not listed.
func TypesFrom(site *content.Site) []Type {
	sv := site.Services
	currency := func(c string) string {
		if c == "" {
			return sv.Currency
		}
		return c
	}
	var out []Type
	add := func(id, name string, minutes int, price, member float64, cur, booking, link string, seats int) {
		if booking == content.InquiryBooking {
			return // asked about through the inquiry form, not booked
		}
		t := Type{ID: id, Name: name, Minutes: minutes, Currency: currency(cur), Seats: seats}
		t.Price = content.MinorUnits(price, t.Currency)
		if booking == content.NativeBooking && member > 0 {
			t.MemberPrice = content.MinorUnits(member, t.Currency)
		}
		switch {
		case booking == content.NativeBooking:
			t.Mode = ModeNative
		case link != "":
			t.Mode, t.BookingLink = ModeExternal, link
		default:
			return
		}
		out = append(out, t)
	}
	for _, s := range sv.Sessions {
		add(s.ID, s.Name, s.Duration, s.Price, s.MemberPrice, s.Currency, s.Booking, s.BookingLink, 0)
	}
	for _, t := range sv.Training {
		seats := 0
		if t.Booking == content.NativeBooking {
			seats = t.Seats
		}
		add(t.ID, t.Title, t.DurationMinutes, t.Price, t.MemberPrice, t.Currency, t.Booking, t.BookingLink, seats)
	}
	return out
}
