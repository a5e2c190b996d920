package web

import (
	"net/http"

	"tribe/internal/booking"
	"tribe/internal/errs"
	"tribe/internal/httpx"
)

// Session packages and credits (internal/booking/credits.go): the packages
// on sale, buying one through Checkout, the Checkout return, and the
// credits of a mailed link or of the signed-in member. docs/api.md
// ("Session packages and credits") is their contract.

func (a *bookingAPI) registerCredits(g *registrar) {
	g.route("GET /api/booking/packages", anyone, a.packages)
	g.route("POST /api/booking/packages/{id}/checkout", anyone, a.buyPackage)
	g.route("GET /bookings/packages/{id}/paid", anyone, a.packagePaid) // the one-time return id is the credential
	g.route("GET /api/credits", anyone, a.credits)                     // the mailed token is the credential
	g.route("GET /api/members/me/credits", member, a.myCredits)
	g.route("GET /api/admin/booking/packages", admin, a.packageSales)
}

// packageSales is the owner's list of the packages bought (Admin → Booking).
func (a *bookingAPI) packageSales(w http.ResponseWriter, r *http.Request) error {
	sales, err := a.booking.PackageSales(r.Context())
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "private, no-store")
	httpx.WriteJSON(w, http.StatusOK, booking.PackageSalesReply{Purchases: sales})
	return nil
}

func (a *bookingAPI) packages(w http.ResponseWriter, r *http.Request) error {
	member := false
	if p := caller(r); p != nil {
		var err error
		if member, err = a.booking.MemberPricing(r.Context(), p.UserID); err != nil {
			return err
		}
	}
	w.Header().Set("Cache-Control", "private, no-store") // member prices depend on who asks
	httpx.WriteJSON(w, http.StatusOK, booking.PackagesReply{Packages: a.booking.Packages(), MemberPrices: member,
		PaymentsEnabled: a.booking.PaymentsEnabled()})
	return nil
}

func (a *bookingAPI) buyPackage(w http.ResponseWriter, r *http.Request) error {
	client := clientKey(r, a.proxies)
	if err := limited(limitCheck{a.buy, client}); err != nil {
		return err
	}
	var in booking.PackageCheckoutRequest
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	buy := booking.PackagePurchase{Package: r.PathValue("id"), Name: in.Name, Email: in.Email, ClientAddr: client}
	if p := caller(r); p != nil {
		buy.UserID = p.UserID
	}
	u, err := a.booking.BuyPackage(r.Context(), buy)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, booking.PackageCheckoutReply{CheckoutURL: u})
	return nil
}

// packagePaid is the package Checkout's success URL: its one-time return id
// becomes a credits link, and the buyer goes on to the credits page (which
// shows the credits once the payment's webhook has granted them). A used or
// wrong id goes to the booking page; the credits mail has the link.
func (a *bookingAPI) packagePaid(w http.ResponseWriter, r *http.Request) error {
	back := "/booking#packages"
	email, token, err := a.booking.ExchangePackageReturn(r.Context(), r.PathValue("id"), r.URL.Query().Get("r"))
	switch {
	case err == nil:
		back = a.booking.CreditsURL(email, token) + "&paid=1"
	case !errs.Is(err, errs.NotFound):
		a.logger.Error("booking: package Checkout success return", "err", err)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, back, http.StatusSeeOther)
	return nil
}

func (a *bookingAPI) credits(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	out, err := a.booking.CreditsByToken(r.Context(), q.Get("email"), q.Get("token"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *bookingAPI) myCredits(w http.ResponseWriter, r *http.Request) error {
	out, err := a.booking.CreditsOfUser(r.Context(), caller(r).UserID)
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}
