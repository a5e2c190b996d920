package web

import (
	"crypto/rand"
	"encoding/base64"
	"log/slog"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"tribe/internal/booking"
	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/events"
	"tribe/internal/httpx"
	"tribe/internal/ratelimit"
)

// bookingAPI serves booking on the site: the types and their free slots,
// bookings made, viewed, moved and cancelled through their manage token,
// the Checkout cancel return, the booking page's live updates, and the
// owner's list, actions, settings and private feed. docs/api.md ("Booking")
// is their contract; internal/booking decides everything.
type bookingAPI struct {
	booking *booking.Service
	cfg     *config.Config
	hub     *events.Hub
	logger  *slog.Logger
	streams *httpx.Streams
	// proxies are TRIBE_TRUSTED_PROXIES: the open-hold limit per client
	// address reads the address as the rate limits do.
	proxies []netip.Prefix
	// book bounds booking attempts per client address, before the domain's
	// open-hold limits, so a flood of bad requests costs little.
	book *ratelimit.Limiter
	// buy bounds package checkouts per client address likewise
	// (routes_booking_credits.go).
	buy *ratelimit.Limiter
	// waitlist bounds wait list sign-ups per client address (an IPv4
	// address or an IPv6 /64).
	waitlist *ratelimit.Limiter
}

func newBookingAPI(cfg *config.Config, svc *booking.Service, hub *events.Hub, logger *slog.Logger, heartbeat time.Duration, share shareLimit) *bookingAPI {
	return &bookingAPI{
		booking: svc, cfg: cfg, hub: hub, logger: logger, proxies: cfg.TrustedProxies,
		streams:  httpx.NewStreams(heartbeat, eventsRetry),
		book:     ratelimit.New(20, 6*time.Second, share("booking-holds")),
		buy:      ratelimit.New(10, 6*time.Second, share("booking-packages")),
		waitlist: ratelimit.New(5, 10*time.Minute, share("booking-waitlist")),
	}
}

func (a *bookingAPI) register(g *registrar) error {
	g.route("GET /api/booking/types", anyone, a.types)
	g.route("GET /api/booking/slots", anyone, a.slots)
	g.route("POST /api/bookings", anyone, a.create)
	// The manage token is the credential of these.
	g.route("GET /api/bookings/{id}", anyone, a.get)
	g.route("GET /api/bookings/{id}/events", anyone, a.events)
	g.route("GET /api/bookings/{id}/calendar.ics", anyone, a.ics)
	g.route("POST /api/bookings/{id}/cancel", anyone, a.cancel)
	g.route("POST /api/bookings/{id}/reschedule", anyone, a.reschedule)
	g.route("GET /bookings/{id}/paid", anyone, a.checkoutPaid) // the one-time return id is the credential
	g.route("GET /bookings/{id}/checkout-cancelled", anyone, a.checkoutCancelled)

	g.route("GET /api/admin/bookings", admin, a.list)
	g.route("GET /api/admin/bookings/{id}", admin, a.adminGet)
	g.route("POST /api/admin/bookings/{id}/{action}", admin, a.act)
	g.route("GET /api/admin/booking/settings", admin, a.getSettings)
	g.route("PUT /api/admin/booking/settings", admin, a.putSettings)
	g.route("GET /api/admin/booking/feed", admin, a.getFeed)
	g.route("POST /api/admin/booking/feed", admin, a.createFeed)
	g.route("DELETE /api/admin/booking/feed", admin, a.deleteFeed)
	g.route("GET /api/admin/booking/calendars", admin, a.getCalendars) // routes_booking_calendars.go
	g.route("PUT /api/admin/booking/calendars", admin, a.putCalendars)
	g.route("GET /calendar/bookings/{file}", anyone, a.serveFeed) // the token is the credential
	a.registerEvents(g)
	a.registerCredits(g) // routes_booking_credits.go
	a.registerWaitlist(g)
	return nil
}

func (a *bookingAPI) view(b *booking.Booking, st booking.Settings) BookingView {
	now := a.booking.Now()
	until := b.Start.Add(-time.Duration(st.Cutoff) * time.Minute)
	v := BookingView{
		ID: b.ID, Type: b.Type, TypeName: a.booking.TypeName(b.Type), Status: b.Status, Start: b.Start.UTC(), End: b.End.UTC(),
		Duration: int(b.End.Sub(b.Start) / time.Minute), Name: b.Name, Email: b.Email, Notes: b.Notes, TimeZone: b.TimeZone,
		OwnerName: st.OwnerName, OwnerTimeZone: st.TimeZone, ContactEmail: st.OwnerEmail,
		Amount: b.Amount, Currency: b.Currency, PriceText: content.FormatMinor(b.Amount, b.Currency),
		Paid: b.PaidAt != nil, Refunded: b.Refunded, Discount: b.Discount, RescheduleCount: b.RescheduleCount,
		ReschedulesLeft: max(booking.MaxReschedules-b.RescheduleCount, 0), ChangeUntil: until.UTC(),
		CanChange:   (b.Status == booking.StatusConfirmed || b.Status == booking.StatusRequested) && now.Before(until),
		CancelledBy: b.CancelledBy, EventID: b.EventID, CreatedAt: b.CreatedAt, Credit: b.Credit,
	}
	switch b.Status {
	case booking.StatusHeld:
		v.ExpiresAt, v.CheckoutURL = b.ExpiresAt, b.CheckoutURL
	case booking.StatusConfirmed:
		v.Room, v.RoomOpensAt, v.MeetingLink = roomState(b, now)
	}
	return v
}

// roomState is what the booker's page says of a confirmed call's room: the
// link only inside the join window (the invitation carries it before),
// when it opens, or that the owner sends one.
func roomState(b *booking.Booking, now time.Time) (state string, opens *time.Time, link string) {
	switch {
	case !now.Before(b.End):
		return "ended", nil, ""
	case b.MeetingLink == "":
		return "owner", nil, ""
	case booking.RoomOpen(b, now):
		return "open", nil, b.MeetingLink
	}
	at := b.Start.Add(-booking.JoinEarly).UTC()
	return "later", &at, ""
}

func (a *bookingAPI) adminView(r *http.Request, b *booking.Booking, st booking.Settings, refunds bool) (AdminBookingView, error) {
	v := AdminBookingView{BookingView: a.view(b, st), UserID: b.UserID, PaidAt: b.PaidAt, PaymentIntent: b.PaymentIntentID,
		UpdatedAt: b.UpdatedAt, Refunds: []booking.RefundRecord{}}
	// The owner sees the room of any booking that has one.
	v.MeetingLink = b.MeetingLink
	if refunds && b.Refunded > 0 {
		list, err := a.booking.RefundsOf(r.Context(), b.ID)
		if err != nil {
			return v, err
		}
		v.Refunds = list
	}
	return v, nil
}

func (a *bookingAPI) types(w http.ResponseWriter, r *http.Request) error {
	st, err := a.booking.LoadSettings(r.Context())
	if err != nil {
		return err
	}
	out := BookingTypes{PaymentsEnabled: a.booking.PaymentsEnabled(), Types: a.booking.Types(), NoShowPolicy: st.NoShowPolicy}
	if p := caller(r); p != nil {
		if out.MemberPrices, err = a.booking.MemberPricing(r.Context(), p.UserID); err != nil {
			return err
		}
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *bookingAPI) slots(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	av, err := a.booking.Slots(r.Context(), q.Get("type"), q.Get("from"), q.Get("to"), q.Get("tz"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, av)
	return nil
}

// holdCookie carries the secret of the browser that makes holds: only
// that browser gets its open hold (and a manage token) back on a repeated
// press. HttpOnly, so the page's scripts never see it; Strict, so no other
// site's form can press for it.
const holdCookie = "tribe_hold"

// holdKey is the browser's hold secret, set now if it has none.
func (a *bookingAPI) holdKey(w http.ResponseWriter, r *http.Request) string {
	if c, err := r.Cookie(holdCookie); err == nil && len(c.Value) >= 32 && len(c.Value) <= 64 {
		return c.Value
	}
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	key := base64.RawURLEncoding.EncodeToString(b[:])
	http.SetCookie(w, &http.Cookie{
		Name: holdCookie, Value: key, Path: "/api/bookings", MaxAge: 7 * 24 * 3600, HttpOnly: true,
		Secure: strings.HasPrefix(a.cfg.BaseURL, "https://"), SameSite: http.SameSiteStrictMode,
	})
	return key
}

func (a *bookingAPI) create(w http.ResponseWriter, r *http.Request) error {
	client := clientKey(r, a.proxies)
	if err := limited(limitCheck{a.book, client}); err != nil {
		return err
	}
	var in BookingRequest
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	req := booking.Request{Type: in.Type, EventID: in.EventID, Start: in.Start, Name: in.Name, Email: in.Email, Notes: in.Notes,
		TimeZone: in.TimeZone, ClientAddr: client, HoldKey: a.holdKey(w, r), UseCredit: in.UseCredit, CreditToken: in.CreditToken}
	if p := caller(r); p != nil {
		req.UserID = p.UserID
	}
	c, err := a.booking.Reserve(r.Context(), req)
	if err != nil {
		return err // the open-booking limits carry their Retry-After
	}
	st, err := a.booking.LoadSettings(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, BookingCreated{
		Booking: a.view(c.Booking, st), Token: c.Token, ManageURL: a.booking.ManageURL(c.Booking.ID, c.Token),
		CheckoutURL: c.CheckoutURL,
	})
	return nil
}

// manageToken is the manage token of a booker's request.
func manageToken(r *http.Request) string { return r.URL.Query().Get("token") }

func (a *bookingAPI) reply(w http.ResponseWriter, r *http.Request, b *booking.Booking) error {
	st, err := a.booking.LoadSettings(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, BookingReply{Booking: a.view(b, st)})
	return nil
}

func (a *bookingAPI) get(w http.ResponseWriter, r *http.Request) error {
	b, err := a.booking.FindByToken(r.Context(), r.PathValue("id"), manageToken(r))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "no-store")
	return a.reply(w, r, b)
}

func (a *bookingAPI) ics(w http.ResponseWriter, r *http.Request) error {
	b, err := a.booking.FindByToken(r.Context(), r.PathValue("id"), manageToken(r))
	if err != nil {
		return err
	}
	if b.Status != booking.StatusConfirmed {
		return errs.New(errs.Conflict, "Only a confirmed booking can be added to a calendar.")
	}
	st, err := a.booking.LoadSettings(r.Context())
	if err != nil {
		return err
	}
	body := a.booking.Invitation(b, st, booking.MethodRequest, a.booking.ManageURL(b.ID, manageToken(r)))
	w.Header().Set("Content-Disposition", `attachment; filename="booking.ics"`)
	writeCalendar(w, body)
	return nil
}

func (a *bookingAPI) cancel(w http.ResponseWriter, r *http.Request) error {
	b, refund, err := a.booking.CancelAsBooker(r.Context(), r.PathValue("id"), manageToken(r))
	if err != nil {
		return err
	}
	st, err := a.booking.LoadSettings(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, BookingCancelled{Booking: a.view(b, st), Refund: owed(refund)})
	return nil
}

func owed(r *booking.Refund) *RefundOwed {
	if r == nil {
		return nil
	}
	return &RefundOwed{Amount: r.Amount, Currency: r.Currency}
}

func (a *bookingAPI) reschedule(w http.ResponseWriter, r *http.Request) error {
	var in RescheduleRequest
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	b, err := a.booking.Reschedule(r.Context(), r.PathValue("id"), manageToken(r), in.Start)
	if err != nil {
		return err
	}
	return a.reply(w, r, b)
}

// checkoutPaid is Stripe Checkout's success URL: its one-time return id
// becomes a manage token, and the booker goes on to the booking's page. A
// used or wrong id goes to the page without one (its mail has the link).
func (a *bookingAPI) checkoutPaid(w http.ResponseWriter, r *http.Request) error {
	id := r.PathValue("id")
	back := "/bookings/" + url.PathEscape(id)
	token, err := a.booking.ExchangeReturn(r.Context(), id, r.URL.Query().Get("r"))
	switch {
	case err == nil:
		back = a.booking.ManageURL(id, token)
	case !errs.Is(err, errs.NotFound):
		a.logger.Error("booking: Checkout success return", "err", err)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Referrer-Policy", "no-referrer")
	http.Redirect(w, r, back, http.StatusSeeOther)
	return nil
}

// checkoutCancelled is Stripe Checkout's cancel URL: the session is expired
// and the hold released, then the visitor goes back to the booking page of
// the type. A wrong return id changes nothing and goes to the booking page.
func (a *bookingAPI) checkoutCancelled(w http.ResponseWriter, r *http.Request) error {
	back := "/booking"
	b, err := a.booking.CancelCheckout(r.Context(), r.PathValue("id"), r.URL.Query().Get("r"), manageToken(r))
	switch {
	case err == nil:
		back = "/book/" + b.Type + "?cancelled=1"
	case !errs.Is(err, errs.NotFound):
		a.logger.Error("booking: Checkout cancel return", "err", err)
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, back, http.StatusSeeOther)
	return nil
}

// events streams a booking's changes to its page, opened with the token.
func (a *bookingAPI) events(w http.ResponseWriter, r *http.Request) error {
	b, err := a.booking.FindByToken(r.Context(), r.PathValue("id"), manageToken(r))
	if err != nil {
		return err
	}
	// The site's other notices are not this page's.
	onlyBooking := func(topic string) bool { return topic == events.TopicBooking }
	return relayNotices(w, r, notices{hub: a.hub, streams: a.streams, logger: a.logger}, events.BookingStream(b.ID), onlyBooking, nil)
}

// --- admins

func (a *bookingAPI) list(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	st, err := a.booking.LoadSettings(r.Context())
	if err != nil {
		return err
	}
	month := q.Get("month")
	if month == "" {
		loc, err := content.LoadZone(st.TimeZone)
		if err != nil {
			loc = time.UTC
		}
		month = a.booking.Now().In(loc).Format("2006-01")
	}
	revenue, err := a.booking.MonthRevenue(r.Context(), month)
	if err != nil {
		return err
	}
	list, err := a.booking.List(r.Context(), booking.Filter{Scope: q.Get("scope"), Type: q.Get("type"), Email: q.Get("email"), Limit: 500})
	if err != nil {
		return err
	}
	holds, err := a.booking.OpenHolds(r.Context())
	if err != nil {
		return err
	}
	out := AdminBookingList{Bookings: make([]AdminBookingView, 0, len(list)), Revenue: MonthRevenue{Month: month, Totals: revenue},
		OpenHolds: holds, HoldsAlert: holds >= booking.HoldsAlertAt}
	for _, b := range list {
		v, err := a.adminView(r, b, st, false)
		if err != nil {
			return err
		}
		out.Bookings = append(out.Bookings, v)
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *bookingAPI) adminReply(w http.ResponseWriter, r *http.Request, b *booking.Booking, refund *booking.Refund) error {
	st, err := a.booking.LoadSettings(r.Context())
	if err != nil {
		return err
	}
	v, err := a.adminView(r, b, st, true)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, AdminBookingReply{Booking: v, Refund: owed(refund)})
	return nil
}

func (a *bookingAPI) adminGet(w http.ResponseWriter, r *http.Request) error {
	b, err := a.booking.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	return a.adminReply(w, r, b, nil)
}

func (a *bookingAPI) act(w http.ResponseWriter, r *http.Request) error {
	ctx, id := r.Context(), r.PathValue("id")
	var (
		b      *booking.Booking
		refund *booking.Refund
		err    error
	)
	switch r.PathValue("action") {
	case "confirm":
		b, err = a.booking.ConfirmRequest(ctx, id)
	case "decline":
		b, err = a.booking.Decline(ctx, id)
	case "cancel":
		b, refund, err = a.booking.CancelAsOwner(ctx, id)
	case "complete", "completed":
		b, err = a.booking.Complete(ctx, id)
	case "no-show":
		b, err = a.booking.NoShow(ctx, id)
	default:
		return errs.New(errs.NotFound, "There is no such booking action; use confirm, decline, cancel, completed or no-show.")
	}
	if err != nil {
		return err
	}
	return a.adminReply(w, r, b, refund)
}

func (a *bookingAPI) getSettings(w http.ResponseWriter, r *http.Request) error {
	st, err := a.booking.LoadSettings(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, BookingSettingsReply{Settings: st, RoomWarning: st.RoomWarning()})
	return nil
}

func (a *bookingAPI) putSettings(w http.ResponseWriter, r *http.Request) error {
	var in booking.Settings
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	st, err := a.booking.SaveSettings(r.Context(), in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, BookingSettingsReply{Settings: st, RoomWarning: st.RoomWarning()})
	return nil
}

func (a *bookingAPI) getFeed(w http.ResponseWriter, r *http.Request) error {
	at, err := a.booking.FeedCreated(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, FeedStatus{Exists: at != nil, CreatedAt: at})
	return nil
}

func (a *bookingAPI) createFeed(w http.ResponseWriter, r *http.Request) error {
	tok, created, err := a.booking.CreateFeed(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, FeedCreated{URL: a.cfg.BaseURL + "/calendar/bookings/" + tok + ".ics", CreatedAt: created})
	return nil
}

func (a *bookingAPI) deleteFeed(w http.ResponseWriter, r *http.Request) error {
	if err := a.booking.DeleteFeed(r.Context()); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *bookingAPI) serveFeed(w http.ResponseWriter, r *http.Request) error {
	tok, ok := strings.CutSuffix(r.PathValue("file"), ".ics")
	if !ok {
		return errNoCalendar
	}
	body, err := a.booking.FeedCalendar(r.Context(), tok)
	if err != nil {
		return err
	}
	w.Header().Set("X-Robots-Tag", "noindex")
	writeCalendar(w, body)
	return nil
}
