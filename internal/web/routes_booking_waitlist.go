package web

import (
	"net/http"

	"tribe/internal/booking"
	"tribe/internal/httpx"
)

// The seat wait list of sold-out group dates (internal/booking,
// seatwaitlist.go) and the offers it mails: docs/api.md, "Group trainings
// by the seat". The offer link's token is the credential of the offer
// routes.
func (a *bookingAPI) registerWaitlist(g *registrar) {
	g.route("POST /api/booking/events/{id}/waitlist", anyone, a.joinWaitlist)
	g.route("GET /api/admin/booking/events/{id}/waitlist", admin, a.adminWaitlist)
	g.route("GET /api/booking/offers/{token}", anyone, a.showOffer)
	g.route("POST /api/booking/offers/{token}/checkout", anyone, a.takeOffer)
}

func (a *bookingAPI) joinWaitlist(w http.ResponseWriter, r *http.Request) error {
	client := clientKey(r, a.proxies)
	if err := limited(limitCheck{a.waitlist, client}); err != nil {
		return err
	}
	var in booking.WaitlistRequest
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	in.ClientAddr = client
	if _, err := a.booking.JoinWaitlist(r.Context(), r.PathValue("id"), in); err != nil {
		return err
	}
	// The same answer whether the address was in line already: the reply
	// tells a stranger nothing about who waits.
	httpx.WriteJSON(w, http.StatusCreated, SeatWaitlistJoined{Joined: true})
	return nil
}

func (a *bookingAPI) adminWaitlist(w http.ResponseWriter, r *http.Request) error {
	list, err := a.booking.Waitlist(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, SeatWaitlistReply{Waitlist: list})
	return nil
}

func (a *bookingAPI) showOffer(w http.ResponseWriter, r *http.Request) error {
	o, err := a.booking.ShowOffer(r.Context(), r.PathValue("token"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, OfferReply{Offer: o})
	return nil
}

func (a *bookingAPI) takeOffer(w http.ResponseWriter, r *http.Request) error {
	url, err := a.booking.TakeOffer(r.Context(), r.PathValue("token"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, OfferCheckout{CheckoutURL: url})
	return nil
}
