package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	ical "github.com/arran4/golang-ical"

	"tribe/internal/billing/billingtest"
	"tribe/internal/booking"
	"tribe/internal/mail"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// freeSlot is a free start of a type at least minDays ahead, as the slots
// route offers it.
func (m *testSite) freeSlot(typ string, minDays int, skip int) string {
	m.t.Helper()
	from := time.Now().AddDate(0, 0, minDays).Format(time.DateOnly)
	to := time.Now().AddDate(0, 0, minDays+20).Format(time.DateOnly)
	r := m.call(testUser{}, "GET", "/api/booking/slots?type="+typ+"&from="+from+"&to="+to+"&tz=Europe/Paris", nil)
	if r.status != 200 {
		m.t.Fatalf("slots: %d %s", r.status, r.body)
	}
	for _, d := range r.json["days"].([]any) {
		for _, s := range d.(map[string]any)["slots"].([]any) {
			if skip == 0 {
				return s.(string)
			}
			skip--
		}
	}
	m.t.Fatal("no free slot")
	return ""
}

func bookBody(typ, start, email string) map[string]string {
	return map[string]string{"type": typ, "start": start, "name": "Ada Lovelace", "email": email,
		"notes": "Agent memory", "time_zone": "Europe/Paris"}
}

// outboxMail is a queued message with its attachments.
type outboxMail struct {
	to, subject, text string
	files             []mail.Attachment
}

func (m *testSite) outbox() []outboxMail {
	m.t.Helper()
	rows, err := m.db.Read.QueryContext(context.Background(), `SELECT to_addr, subject, text_body, attachments FROM mail_outbox ORDER BY created_at, id`)
	if err != nil {
		m.t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	var out []outboxMail
	for rows.Next() {
		var o outboxMail
		var files string
		if err := rows.Scan(&o.to, &o.subject, &o.text, &files); err != nil {
			m.t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(files), &o.files); err != nil {
			m.t.Fatal(err)
		}
		out = append(out, o)
	}
	return out
}

func (m *testSite) mailsTo(to, subjectPrefix string) []outboxMail {
	var out []outboxMail
	for _, o := range m.outbox() {
		if o.to == to && strings.HasPrefix(o.subject, subjectPrefix) {
			out = append(out, o)
		}
	}
	return out
}

// invitation parses a mail's calendar attachment with an independent
// parser and returns its method and event.
func invitation(t *testing.T, o outboxMail) (string, *ical.VEvent) {
	t.Helper()
	if len(o.files) != 1 {
		t.Fatalf("%q has %d attachments, want the invitation", o.subject, len(o.files))
	}
	media, params, err := mime.ParseMediaType(o.files[0].ContentType)
	if err != nil || media != "text/calendar" {
		t.Fatalf("attachment type %q", o.files[0].ContentType)
	}
	cal, err := ical.ParseCalendar(bytes.NewReader(o.files[0].Data))
	if err != nil {
		t.Fatalf("parse %q: %v", o.subject, err)
	}
	method := ""
	for _, p := range cal.CalendarProperties {
		if p.IANAToken == "METHOD" {
			method = p.Value
		}
	}
	if method != params["method"] {
		t.Fatalf("METHOD %s in a part of method=%s", method, params["method"])
	}
	return method, cal.Events()[0]
}

func prop(ev *ical.VEvent, p ical.ComponentProperty) string {
	if v := ev.GetProperty(p); v != nil {
		return v.Value
	}
	return ""
}

// tokenIn returns the manage token of the first booking link in text.
func tokenIn(t *testing.T, text string) string {
	t.Helper()
	i := strings.Index(text, "/bookings/")
	if i < 0 {
		t.Fatalf("no booking link in %q", text)
	}
	link := strings.Fields(text[i:])[0]
	u, err := url.Parse("https://x" + link)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query().Get("token")
}

// A paid booking from press to refund: the hold gets one Checkout Session
// in payment mode that expires with it (a double click goes back to it),
// the signed completed event confirms it once however often Stripe sends
// it, the page's stream hears of it, an older expiry event changes nothing,
// both sides get the invitation, and cancelling refunds in full with
// METHOD:CANCEL.
func TestPaidBookingFromCheckoutToRefund(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		start := m.freeSlot("session-30", 3, 0)
		body := bookBody("session-30", start, "ada@example.com")
		browser := m.visitor(t, "")
		r := browser.do("POST", "/api/bookings", body)
		if r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		b := r.json["booking"].(map[string]any)
		id, tok := b["id"].(string), r.json["token"].(string)
		if b["status"] != "held" || b["price_text"] != "$299" || r.json["checkout_url"] == nil {
			t.Fatalf("booking %v, checkout %v", b, r.json["checkout_url"])
		}
		sessions := fake.Sessions()
		if len(sessions) != 1 {
			t.Fatalf("%d Checkout Sessions, want 1", len(sessions))
		}
		var sid string
		var p url.Values
		for k, v := range sessions {
			sid, p = k, v
		}
		// The hold is short; the session lives the least Stripe allows and
		// is closed by the sweep once the hold lapses.
		expires, _ := time.Parse(time.RFC3339, b["expires_at"].(string))
		sessionEnd, _ := strconv.ParseInt(p.Get("expires_at"), 10, 64)
		if held := time.Until(expires); held > 16*time.Minute || held < 14*time.Minute {
			t.Fatalf("hold of %v", held)
		}
		if open := time.Until(time.Unix(sessionEnd, 0)); open < 30*time.Minute || open > 32*time.Minute {
			t.Fatalf("Checkout Session open for %v", open)
		}
		if p.Get("mode") != "payment" || p.Get("metadata[booking_id]") != id ||
			p.Get("line_items[0][price_data][unit_amount]") != "29900" || p.Get("line_items[0][price_data][currency]") != "usd" ||
			!strings.HasPrefix(p.Get("success_url"), "https://ruv.example/bookings/"+id+"/paid?r=") ||
			!strings.HasPrefix(p.Get("cancel_url"), "https://ruv.example/bookings/"+id+"/checkout-cancelled?r=") {
			t.Fatalf("Checkout Session parameters %v", p)
		}

		// A double click in the same browser: the same hold and the same page.
		again := browser.do("POST", "/api/bookings", body)
		if again.status != 201 || again.json["checkout_url"] != r.json["checkout_url"] || len(fake.Sessions()) != 1 {
			t.Fatalf("second press: %d %v, %d sessions", again.status, again.json["checkout_url"], len(fake.Sessions()))
		}

		// The page's live stream.
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", m.srv.URL+"/api/bookings/"+id+"/events?token="+tok, nil)
		stream, err := http.DefaultClient.Do(req)
		if err != nil || stream.StatusCode != 200 {
			t.Fatalf("stream: %v %v", stream, err)
		}
		defer func() { _ = stream.Body.Close() }()
		names := make(chan string, 8)
		go func() {
			sc := bufio.NewScanner(stream.Body)
			for sc.Scan() {
				if n, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
					names <- n
				}
			}
		}()
		wait := func(name string) {
			t.Helper()
			for {
				select {
				case n := <-names:
					if n == name {
						return
					}
				case <-ctx.Done():
					t.Fatalf("no %q on the booking stream", name)
				}
			}
		}
		wait("ready")

		paid := billingtest.Event("evt_paid", "checkout.session.completed", time.Now().Unix(),
			billingtest.PaymentSession(sid, id, "pi_ada", "paid", 29900, "usd"))
		for range 2 { // the second delivery is a replay
			if r := m.signed(paid); r.status != 200 {
				t.Fatalf("webhook: %d %s", r.status, r.body)
			}
		}
		wait("booking")
		got := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token="+tok, nil)
		gb := got.json["booking"].(map[string]any)
		if gb["status"] != "confirmed" || gb["paid"] != true || gb["can_change"] != true {
			t.Fatalf("after payment: %v", got.body)
		}
		var events int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM payment_events WHERE id = 'evt_paid'`).Scan(&events)
		if events != 1 {
			t.Errorf("%d records of the event, want 1", events)
		}
		// An older expiry arriving late never undoes the payment.
		expired := billingtest.Event("evt_old_expiry", "checkout.session.expired", time.Now().Add(-time.Minute).Unix(),
			billingtest.PaymentSession(sid, id, "", "unpaid", 29900, "usd"))
		if r := m.signed(expired); r.status != 200 {
			t.Fatalf("expiry webhook: %d", r.status)
		}
		if s := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token="+tok, nil).json["booking"].(map[string]any)["status"]; s != "confirmed" {
			t.Fatalf("after a late expiry event: %v", s)
		}

		// Confirmation: one to the booker with the manage link, one to the
		// owner, each with REQUEST sequence 0.
		booker, owner := m.mailsTo("ada@example.com", "Confirmed:"), m.mailsTo(membersAdminEmail, "Booked:")
		if len(booker) != 1 || len(owner) != 1 {
			t.Fatalf("confirmations: %d to the booker, %d to the owner; outbox %v", len(booker), len(owner), m.outbox())
		}
		method, ev := invitation(t, booker[0])
		uid := prop(ev, ical.ComponentPropertyUniqueId)
		if method != "REQUEST" || prop(ev, ical.ComponentPropertySequence) != "0" || uid != "booking-"+id+"@ruv.example" {
			t.Fatalf("booker's invitation %s seq %s uid %s", method, prop(ev, ical.ComponentPropertySequence), uid)
		}
		if method, _ := invitation(t, owner[0]); method != "REQUEST" {
			t.Fatalf("owner's invitation %s", method)
		}
		mailed := tokenIn(t, booker[0].text)
		if r := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token="+url.QueryEscape(mailed), nil); r.status != 200 {
			t.Fatalf("the mailed manage link: %d", r.status)
		}

		// Cancelling refunds everything, once, and withdraws the invitation.
		c := m.call(testUser{}, "POST", "/api/bookings/"+id+"/cancel?token="+url.QueryEscape(mailed), nil)
		if c.status != 200 || c.json["refund"] == nil || c.json["refund"].(map[string]any)["amount"] != float64(29900) {
			t.Fatalf("cancel: %d %s", c.status, c.body)
		}
		refunds := fake.Refunds()
		if len(refunds) != 1 || refunds[0]["payment_intent"] != "pi_ada" || refunds[0]["amount"] != int64(29900) {
			t.Fatalf("refunds at Stripe: %v", refunds)
		}
		if cb := c.json["booking"].(map[string]any); cb["status"] != "cancelled" || cb["refunded"] != float64(29900) || cb["cancelled_by"] != "booker" {
			t.Fatalf("cancelled booking %v", cb)
		}
		refundEvent := billingtest.Event("evt_refund", "charge.refunded", time.Now().Unix(), billingtest.Charge("ch_ada", "pi_ada", 29900, 29900))
		if r := m.signed(refundEvent); r.status != 200 {
			t.Fatalf("charge.refunded: %d %s", r.status, r.body)
		}
		var recorded int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM booking_refunds WHERE booking_id = $1`, id).Scan(&recorded)
		if recorded != 1 {
			t.Errorf("%d refunds recorded, want 1", recorded)
		}
		cancelled := m.mailsTo("ada@example.com", "Cancelled:")
		if len(cancelled) != 1 {
			t.Fatalf("%d cancellation mails to the booker", len(cancelled))
		}
		method, ev = invitation(t, cancelled[0])
		if method != "CANCEL" || prop(ev, ical.ComponentPropertyStatus) != "CANCELLED" || prop(ev, ical.ComponentPropertySequence) != "1" ||
			prop(ev, ical.ComponentPropertyUniqueId) != uid {
			t.Fatalf("cancellation %s status %s seq %s", method, prop(ev, ical.ComponentPropertyStatus), prop(ev, ical.ComponentPropertySequence))
		}
		if len(m.mailsTo("ada@example.com", "Refund of $299")) != 1 {
			t.Errorf("no refund notice")
		}
		if len(m.mailsTo(membersAdminEmail, "Cancelled:")) != 1 {
			t.Errorf("the owner was not told of the cancellation")
		}
	})
}

// Leaving Checkout: the cancel URL expires the session through Stripe's API
// and frees the time at once, for someone else to book.
func TestCheckoutCancelURLExpiresTheSessionAndFreesTheSlot(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		start := m.freeSlot("session-60", 3, 0)
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-60", start, "ada@example.com"))
		if r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		id, tok := r.json["booking"].(map[string]any)["id"].(string), r.json["token"].(string)
		if r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-60", start, "bo@example.com")); r.status != 409 || r.errCode() != "slot_taken" {
			t.Fatalf("the held time for someone else: %d %s", r.status, r.body)
		}
		back := m.call(testUser{}, "GET", "/bookings/"+id+"/checkout-cancelled?token="+tok, nil)
		if back.status != 303 || back.header.Get("Location") != "/book/session-60?cancelled=1" {
			t.Fatalf("cancel return: %d %s", back.status, back.header.Get("Location"))
		}
		if exp := fake.Expired(); len(exp) != 1 {
			t.Fatalf("sessions expired at Stripe: %v", exp)
		}
		if r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-60", start, "bo@example.com")); r.status != 201 {
			t.Fatalf("the freed time: %d %s", r.status, r.body)
		}
		// A wrong token changes nothing and says nothing.
		if back := m.call(testUser{}, "GET", "/bookings/"+id+"/checkout-cancelled?token=wrong", nil); back.status != 303 || back.header.Get("Location") != "/booking" {
			t.Fatalf("wrong token: %d %s", back.status, back.header.Get("Location"))
		}
	})
}

// A payment that arrives after its hold lapsed and someone else took the
// time (Cal.com #29958, #22126): refunded in full through the Refunds API
// with the booking's idempotency key, and the booker gets an apology with
// the three nearest free times; a replay makes no second refund.
func TestLatePaymentOnALostSlotIsRefundedWithAnApology(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		start := m.freeSlot("session-30", 3, 0)
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", start, "slow@example.com"))
		if r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		id := r.json["booking"].(map[string]any)["id"].(string)
		var sid string
		for k := range fake.Sessions() {
			sid = k
		}
		// The hold lapses; someone else books the time.
		m.exec(`UPDATE bookings SET expires_at = $1 WHERE id = $2`, store.At(time.Now().Add(-time.Minute)), id)
		if r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", start, "quick@example.com")); r.status != 201 {
			t.Fatalf("the lapsed time for someone else: %d %s", r.status, r.body)
		}
		paid := billingtest.Event("evt_late", "checkout.session.completed", time.Now().Unix(),
			billingtest.PaymentSession(sid, id, "pi_slow", "paid", 29900, "usd"))
		for _, evID := range []string{"evt_late", "evt_late_again"} {
			ev := bytes.Replace(paid, []byte(`"evt_late"`), []byte(`"`+evID+`"`), 1)
			if r := m.signed(ev); r.status != 200 {
				t.Fatalf("webhook %s: %d %s", evID, r.status, r.body)
			}
		}
		refunds := fake.Refunds()
		if len(refunds) != 1 || refunds[0]["payment_intent"] != "pi_slow" || refunds[0]["amount"] != int64(29900) {
			t.Fatalf("refunds %v, want one of 29900 for pi_slow", refunds)
		}
		var status string
		var refunded int64
		_ = db.Read.QueryRow(`SELECT status, (SELECT COALESCE(SUM(amount), 0) FROM booking_refunds WHERE booking_id = $1) FROM bookings WHERE id = $1`, id).Scan(&status, &refunded)
		if status != "expired" || refunded != 29900 {
			t.Fatalf("late payment: %s, refunded %d", status, refunded)
		}
		var confirmed int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM bookings WHERE status = 'confirmed' AND paid_at IS NOT NULL AND id = $1`, id).Scan(&confirmed)
		if confirmed != 0 {
			t.Fatal("a confirmed booking on a lost time")
		}
		sorry := m.mailsTo("slow@example.com", "Sorry:")
		if len(sorry) != 1 || strings.Count(sorry[0].text, "https://ruv.example/book/session-30?start=") != 3 {
			t.Fatalf("apology: %v", sorry)
		}
	})
}

// Bad input gets a 4xx naming the field and writes nothing; the open-hold
// limit answers 429 with Retry-After; a wrong token and an unknown booking
// get the same 404.
func TestBookingRefusals(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		start := m.freeSlot("session-30", 3, 0)
		for _, c := range []struct {
			name  string
			body  map[string]string
			field string
		}{
			{"unknown type", bookBody("nope", start, "a@example.com"), "type"},
			{"offer asked about, not booked", bookBody("enterprise", start, "a@example.com"), "type"},
			{"group training without a date", bookBody("group", start, "a@example.com"), "event_id"},
			{"not a time", bookBody("session-30", "tomorrow", "a@example.com"), "start"},
			{"past", bookBody("session-30", "2020-01-06T15:00:00Z", "a@example.com"), "start"},
			{"bad address", bookBody("session-30", start, "not-an-address"), "email"},
			{"bad zone", func() map[string]string {
				b := bookBody("session-30", start, "a@example.com")
				b["time_zone"] = "Mars/Base"
				return b
			}(), "time_zone"},
			{"long notes", func() map[string]string {
				b := bookBody("session-30", start, "a@example.com")
				b["notes"] = strings.Repeat("x", 2001)
				return b
			}(), "notes"},
		} {
			r := m.call(testUser{}, "POST", "/api/bookings", c.body)
			if r.status != 400 || r.errField() != c.field {
				t.Errorf("%s: %d %s, want 400 on %s", c.name, r.status, r.body, c.field)
			}
		}
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM bookings`).Scan(&n)
		if n != 0 {
			t.Fatalf("%d bookings written by bad requests", n)
		}
		// Payments off: a request. Three open ones per address, then 429.
		for i := range 3 {
			r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3, 0), "many@example.com"))
			if r.status != 201 || r.json["booking"].(map[string]any)["status"] != "requested" || r.json["checkout_url"] != nil {
				t.Fatalf("request %d: %d %s", i, r.status, r.body)
			}
		}
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3, 0), "many@example.com"))
		if r.status != 429 || r.header.Get("Retry-After") == "" {
			t.Fatalf("fourth open booking: %d %s (Retry-After %q)", r.status, r.body, r.header.Get("Retry-After"))
		}
		wrong := m.call(testUser{}, "GET", "/api/bookings/"+store.NewID()+"?token=abc", nil)
		var anyID string
		_ = db.Read.QueryRow(`SELECT id FROM bookings LIMIT 1`).Scan(&anyID)
		wrongToken := m.call(testUser{}, "GET", "/api/bookings/"+anyID+"?token=abc", nil)
		if wrong.status != 404 || wrongToken.status != 404 || wrong.body != wrongToken.body {
			t.Fatalf("unknown booking %d %s; wrong token %d %s: want the same 404", wrong.status, wrong.body, wrongToken.status, wrongToken.body)
		}
	})
}

// After the cut-off the booker cannot cancel or move online, and the answer
// says how to reach the owner.
func TestAfterTheCutoffTheBookerIsToldWhomToWrite(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		adminUser := m.user(membersAdminEmail)
		st := m.call(adminUser, "GET", "/api/admin/booking/settings", nil).json["settings"].(map[string]any)
		st["cutoff_minutes"] = 30 * 24 * 60
		if r := m.call(adminUser, "PUT", "/api/admin/booking/settings", st); r.status != 200 {
			t.Fatalf("settings: %d %s", r.status, r.body)
		}
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3, 0), "late@example.com"))
		id, tok := r.json["booking"].(map[string]any)["id"].(string), r.json["token"].(string)
		for _, action := range []string{"cancel", "reschedule"} {
			c := m.call(testUser{}, "POST", "/api/bookings/"+id+"/"+action+"?token="+tok, map[string]string{"start": m.freeSlot("session-30", 5, 0)})
			if c.status != 409 || !strings.Contains(c.body, "can no longer be changed online") || !strings.Contains(c.body, membersAdminEmail) {
				t.Errorf("%s after the cut-off: %d %s", action, c.status, c.body)
			}
		}
		if r.json["booking"].(map[string]any)["can_change"] != false {
			t.Errorf("can_change before any change: %v", r.json["booking"])
		}
	})
}

func (r reply) errField() string {
	e, _ := r.json["error"].(map[string]any)
	s, _ := e["field"].(string)
	return s
}

// The booking's Stripe calls, through the real client against stripe-mock
// (which checks every parameter against Stripe's API description): a
// payment-mode Checkout Session with an inline price, its expiry, and a
// refund recorded from Stripe's answer.
func TestBookingPaymentsAgainstStripeMock(t *testing.T) {
	t.Parallel()
	mock := billingtest.StripeMock(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, billingEnv(mock.URL))
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3, 0), "ada@example.com"))
		if r.status != 201 || !strings.HasPrefix(fmt.Sprint(r.json["checkout_url"]), "https://") {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		id := r.json["booking"].(map[string]any)["id"].(string)
		bk := m.s.Services.Booking
		b, err := bk.Get(context.Background(), id)
		if err != nil || b.CheckoutSessionID == "" {
			t.Fatalf("booking %+v, %v", b, err)
		}
		if err := m.s.Services.Billing.ExpireCheckout(context.Background(), b.CheckoutSessionID); err != nil {
			t.Fatalf("expire at stripe-mock: %v", err)
		}
		paid := billingtest.Event("evt_mock_paid", "checkout.session.completed", time.Now().Unix(),
			billingtest.PaymentSession(b.CheckoutSessionID, id, "pi_mock", "paid", 29900, "usd"))
		if r := m.signed(paid); r.status != 200 {
			t.Fatalf("webhook: %d %s", r.status, r.body)
		}
		admin := m.user(membersAdminEmail)
		c := m.call(admin, "POST", "/api/admin/bookings/"+id+"/cancel", nil)
		if c.status != 200 {
			t.Fatalf("owner cancel: %d %s", c.status, c.body)
		}
		refunds := c.json["booking"].(map[string]any)["refunds"].([]any)
		if len(refunds) != 1 || !strings.HasPrefix(refunds[0].(map[string]any)["stripe_refund_id"].(string), "re_") {
			t.Fatalf("refund recorded from stripe-mock's answer: %s", c.body)
		}
	})
}

// With no room saved Admin warns the owner; with a template each confirmed
// call has its own room, which its manage page keeps back until the join
// window (the invitation carries it), shows nobody without the token, and
// the owner always sees.
func TestManagePageShowsTheRoomOnlyInTheJoinWindowToTheTokenHolder(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		adminUser := m.user(membersAdminEmail)
		got := m.call(adminUser, "GET", "/api/admin/booking/settings", nil)
		if w, _ := got.json["room_warning"].(string); !strings.Contains(w, "No room address is set") {
			t.Fatalf("no warning without a room: %s", got.body)
		}
		st := got.json["settings"].(map[string]any)
		st["meeting_link"] = "https://meet.jit.si/ruv-{room}{room}"
		if r := m.call(adminUser, "PUT", "/api/admin/booking/settings", st); r.status != 400 || r.errField() != "meeting_link" || !strings.Contains(r.body, "at most once") {
			t.Fatalf("two rooms: %d %s", r.status, r.body)
		}
		st["meeting_link"] = "https://meet.jit.si/ruv-{room}"
		r := m.call(adminUser, "PUT", "/api/admin/booking/settings", st)
		if _, warned := r.json["room_warning"]; r.status != 200 || warned {
			t.Fatalf("save: %d %s", r.status, r.body)
		}

		r = m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3, 0), "ada@example.com"))
		id, tok := r.json["booking"].(map[string]any)["id"].(string), r.json["token"].(string)
		time.Sleep(2 * time.Millisecond) // the confirmation is a change of its own time
		if c := m.call(adminUser, "POST", "/api/admin/bookings/"+id+"/confirm", nil); c.status != 200 {
			t.Fatalf("confirm: %d %s", c.status, c.body)
		}
		admin := m.call(adminUser, "GET", "/api/admin/bookings/"+id, nil)
		link, _ := admin.json["booking"].(map[string]any)["meeting_link"].(string)
		if !strings.HasPrefix(link, "https://meet.jit.si/ruv-") || len(link) != len("https://meet.jit.si/ruv-")+26 {
			t.Fatalf("owner's view of the room: %s", admin.body)
		}
		page := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token="+tok, nil)
		b := page.json["booking"].(map[string]any)
		start, _ := time.Parse(time.RFC3339, b["start"].(string))
		opens, _ := time.Parse(time.RFC3339, fmt.Sprint(b["room_opens_at"]))
		if b["room"] != "later" || b["meeting_link"] != nil || !opens.Equal(start.Add(-15*time.Minute)) || strings.Contains(page.body, link) {
			t.Fatalf("manage page days ahead: %s", page.body)
		}
		if c := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token=wrong", nil); c.status < 400 || strings.Contains(c.body, link) {
			t.Fatalf("without the token: %d %s", c.status, c.body)
		}
		if mails := m.mailsTo("ada@example.com", "Confirmed:"); len(mails) != 1 || !strings.Contains(mails[0].text, link) {
			t.Fatalf("confirmation: %+v", mails)
		} else if _, ev := invitation(t, mails[0]); prop(ev, ical.ComponentPropertyUrl) != link {
			t.Fatalf("invitation URL %q", prop(ev, ical.ComponentPropertyUrl))
		}
	})
}

// The room state of a confirmed call at each moment around it.
func TestRoomStateFollowsTheJoinWindow(t *testing.T) {
	t.Parallel()
	start := time.Date(2030, time.March, 2, 17, 0, 0, 0, time.UTC)
	b := &booking.Booking{Start: start, End: start.Add(time.Hour), MeetingLink: "https://meet.jit.si/ruv-abc"}
	for _, c := range []struct {
		at          time.Time
		state, link string
	}{
		{start.Add(-time.Hour), "later", ""},
		{start.Add(-15 * time.Minute), "open", b.MeetingLink},
		{start.Add(59 * time.Minute), "open", b.MeetingLink},
		{start.Add(time.Hour), "ended", ""},
	} {
		state, _, link := roomState(b, c.at)
		if state != c.state || link != c.link {
			t.Errorf("at %v: %s %q, want %s %q", c.at.Sub(start), state, link, c.state, c.link)
		}
	}
	if state, _, _ := roomState(&booking.Booking{Start: start, End: start.Add(time.Hour)}, start); state != "owner" {
		t.Errorf("without a room: %s", state)
	}
}
