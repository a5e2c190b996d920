package web

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/content"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// The holes found attacking the booking flow, over HTTP (issue 29).

// visitor is a browser of its own coming from client (an X-Forwarded-For
// address; proxiedEnv makes the site trust the test's loopback proxy).
func (m *testSite) visitor(t *testing.T, client string) *browser {
	b := newBrowser(t, m.srv)
	b.from = client
	return b
}

// proxiedEnv is billingEnv behind a trusted loopback proxy, so each test
// visitor can come from an address of its own.
func proxiedEnv(apiBase string) map[string]string {
	return billingEnv(apiBase, "TRIBE_TRUSTED_PROXIES", "127.0.0.1")
}

// A repeated POST /api/bookings with someone's type, start and e-mail
// answered 201 with their booking and a new manage token, from anywhere.
// Only the browser that made the hold gets it back now (its hold cookie);
// a stranger gets the 409 of any taken time, with no token.
func TestStrangerRepeatingSomeonesBookingGetsA409(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, proxiedEnv(fake.URL))
		start := m.freeSlot("session-30", 3, 0)
		ada, stranger := m.visitor(t, "203.0.113.10"), m.visitor(t, "198.51.100.20")
		r := ada.do("POST", "/api/bookings", bookBody("session-30", start, "ada@example.com"))
		if r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		cookie := r.header.Get("Set-Cookie")
		if !strings.Contains(cookie, holdCookie+"=") || !strings.Contains(cookie, "HttpOnly") || !strings.Contains(cookie, "SameSite=Strict") {
			t.Fatalf("hold cookie %q", cookie)
		}
		taken := stranger.do("POST", "/api/bookings", bookBody("session-30", start, "someone@example.com"))
		for _, email := range []string{"ada@example.com", "ADA@example.com "} {
			s := stranger.do("POST", "/api/bookings", bookBody("session-30", start, email))
			if s.status != 409 || s.errCode() != "slot_taken" || s.json["token"] != nil || s.errMessage() != taken.errMessage() {
				t.Fatalf("stranger with %q: %d %s; a taken time answers %d %s", email, s.status, s.body, taken.status, taken.body)
			}
		}
		// The same browser's second press: the same hold and payment page.
		again := ada.do("POST", "/api/bookings", bookBody("session-30", start, "ada@example.com"))
		if again.status != 201 || again.json["checkout_url"] != r.json["checkout_url"] || len(fake.Sessions()) != 1 {
			t.Fatalf("second press: %d %s, %d sessions", again.status, again.body, len(fake.Sessions()))
		}
	})
}

// One IPv6 /64 made 164 holds: the limits keyed on the full address.
// Bookings and inquiries from one /64 now share one allowance.
func TestOneIPv6SlashSixtyFourIsOneClient(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, proxiedEnv(fake.URL))
		status := 0
		n := 0
		for ; n < 12; n++ {
			v := m.visitor(t, fmt.Sprintf("2001:db8:42:7:%x::1", n+1))
			r := v.do("POST", "/api/bookings", bookBody("session-15", m.freeSlot("session-15", 3+n, 0), fmt.Sprintf("p%d@example.com", n)))
			if status = r.status; status != 201 {
				break
			}
		}
		if status != 429 || n != 5 {
			t.Fatalf("holds from one /64: %d, then %d; want 5, then 429", n, status)
		}
		if r := m.visitor(t, "2001:db8:42:8::1").do("POST", "/api/bookings", bookBody("session-15", m.freeSlot("session-15", 30, 0), "next@example.com")); r.status != 201 {
			t.Fatalf("another /64: %d %s", r.status, r.body)
		}

		for n = 0; n < 20; n++ {
			v := m.visitor(t, fmt.Sprintf("2001:db8:43:7::%x", n+1))
			r := v.do("POST", "/api/inquiries", map[string]any{"name": "Grace", "email": fmt.Sprintf("g%d@fleet.example", n),
				"company": "Fleet", "team_size": 12, "message": "Training.", "preferred_start": ""})
			if status = r.status; status != 201 {
				break
			}
		}
		if status != 429 || n != 10 {
			t.Fatalf("inquiries from one /64: %d, then %d; want 10, then 429", n, status)
		}
	})
}

// Manage tokens travelled to Stripe in success_url and cancel_url. The
// session now carries a one-time return id, which the return page
// exchanges for a token once.
func TestManageTokensNeverTravelToStripe(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3, 0), "ada@example.com"))
		if r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		id, tok := r.json["booking"].(map[string]any)["id"].(string), r.json["token"].(string)
		var p url.Values
		for _, v := range fake.Sessions() {
			p = v
		}
		success, cancel := p.Get("success_url"), p.Get("cancel_url")
		if strings.Contains(success+cancel, tok) || strings.Contains(success+cancel, "token=") ||
			!strings.HasPrefix(success, "https://ruv.example/bookings/"+id+"/paid?r=") ||
			!strings.HasPrefix(cancel, "https://ruv.example/bookings/"+id+"/checkout-cancelled?r=") {
			t.Fatalf("return URLs %q %q", success, cancel)
		}
		path := strings.TrimPrefix(success, "https://ruv.example")
		back := m.call(testUser{}, "GET", path, nil)
		loc := back.header.Get("Location")
		if back.status != 303 || !strings.HasPrefix(loc, "https://ruv.example/bookings/"+id+"?token=") {
			t.Fatalf("success return: %d %q", back.status, loc)
		}
		u, _ := url.Parse(loc)
		if g := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token="+url.QueryEscape(u.Query().Get("token")), nil); g.status != 200 {
			t.Fatalf("the exchanged token: %d", g.status)
		}
		// Once only: the id does not make a second token.
		if again := m.call(testUser{}, "GET", path, nil); again.status != 303 || strings.Contains(again.header.Get("Location"), "token=") {
			t.Fatalf("second use: %d %q", again.status, again.header.Get("Location"))
		}
	})
}

// A booker who cancels an unpaid hold through the manage page left its
// Checkout Session open, payable. It is expired at Stripe first now.
func TestBookerCancellingAHoldExpiresItsCheckoutSession(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3, 0), "ada@example.com"))
		if r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		id, tok := r.json["booking"].(map[string]any)["id"].(string), r.json["token"].(string)
		var sid string
		for k := range fake.Sessions() {
			sid = k
		}
		c := m.call(testUser{}, "POST", "/api/bookings/"+id+"/cancel?token="+url.QueryEscape(tok), nil)
		if c.status != 200 || c.json["booking"].(map[string]any)["status"] != "cancelled" {
			t.Fatalf("cancel: %d %s", c.status, c.body)
		}
		if exp := fake.Expired(); len(exp) != 1 || exp[0] != sid {
			t.Fatalf("sessions expired at Stripe: %v, want [%s]", exp, sid)
		}
	})
}

// A paid completion whose amount is not the booking's answered 500 on
// every delivery. It is refunded whole and answered 200, and confirms
// nothing.
func TestPaymentOfAnotherAmountIsRefundedAndAnswered200(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3, 0), "ada@example.com"))
		if r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		id, tok := r.json["booking"].(map[string]any)["id"].(string), r.json["token"].(string)
		var sid string
		for k := range fake.Sessions() {
			sid = k
		}
		paid := billingtest.Event("evt_cheap", "checkout.session.completed", time.Now().Unix(),
			billingtest.PaymentSession(sid, id, "pi_cheap", "paid", 100, "usd"))
		if w := m.signed(paid); w.status != 200 {
			t.Fatalf("webhook: %d %s", w.status, w.body)
		}
		refunds := fake.Refunds()
		if len(refunds) != 1 || refunds[0]["payment_intent"] != "pi_cheap" || refunds[0]["amount"] != int64(100) {
			t.Fatalf("refunds at Stripe: %v", refunds)
		}
		if s := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token="+url.QueryEscape(tok), nil).json["booking"].(map[string]any)["status"]; s != "held" {
			t.Fatalf("booking after a payment of another amount: %v", s)
		}
	})
}

// The owner is alerted when holds pile up: a count on Admin → Booking and
// a gauge on /metrics.
func TestOpenHoldsShowOnAdminAndMetrics(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, proxiedEnv(fake.URL))
		for i := range 2 {
			v := m.visitor(t, fmt.Sprintf("203.0.113.%d", i+1))
			if r := v.do("POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 3+i, 0), fmt.Sprintf("p%d@example.com", i))); r.status != 201 {
				t.Fatalf("book: %d %s", r.status, r.body)
			}
		}
		list := m.call(m.user(membersAdminEmail), "GET", "/api/admin/bookings", nil)
		if list.status != 200 || list.json["open_holds"] != float64(2) || list.json["holds_alert"] != false {
			t.Fatalf("admin list: %d open_holds %v alert %v", list.status, list.json["open_holds"], list.json["holds_alert"])
		}
		if body := m.call(testUser{}, "GET", "/metrics", nil).body; !strings.Contains(body, "tribe_booking_open_holds 2") {
			t.Fatalf("no open-holds gauge in /metrics")
		}
	})
}

// The members import gave a membership (and a Stripe customer) to an
// existing account whose address was never confirmed: whoever made it
// with someone else's address got the member's access. Such a row is
// refused until the owner of the address confirms it.
func TestMembersImportGivesNothingToAnUnconfirmedAccount(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		adm := m.user(membersAdminEmail)
		squat := m.user("grace@example.com", unconfirmed)
		file := "full_name,email,complimentary,stripe_customer_id\r\nGrace Hopper,grace@example.com,yes,cus_Grace1\r\n"
		r, rep := m.importCSV(adm, file, false)
		if r.status != 200 || len(rep.Refused) != 1 || !strings.Contains(rep.Refused[0].Reason, "never confirmed") || rep.Updated != 0 {
			t.Fatalf("import onto an unconfirmed account: %d %+v", r.status, rep)
		}
		var n int
		_ = db.Read.QueryRow(`SELECT (SELECT COUNT(*) FROM subscriptions WHERE user_id = $1) + (SELECT COUNT(*) FROM billing_customers WHERE user_id = $1)`,
			squat.id).Scan(&n)
		if n != 0 {
			t.Fatalf("the unconfirmed account got a membership or a customer")
		}
		// Once the address is proven, the same file applies.
		m.exec(`UPDATE users SET email_confirmed_at = $1 WHERE id = $2`, store.Now(), squat.id)
		if r, rep := m.importCSV(adm, file, false); r.status != 200 || rep.Updated != 1 || len(rep.Refused) != 0 {
			t.Fatalf("after confirmation: %d %+v", r.status, rep)
		}
		var customer string
		_ = db.Read.QueryRow(`SELECT stripe_customer_id FROM billing_customers WHERE user_id = $1`, squat.id).Scan(&customer)
		if customer != "cus_Grace1" {
			t.Fatalf("customer %q", customer)
		}
	})
}

// An account stored without a usable password hash (an empty one, as an
// older import wrote) made sign-in answer 500, telling which addresses
// were imported. It answers 401 like any wrong password.
func TestSignInToAnAccountWithoutAPasswordAnswers401(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		u := m.user("imported@example.com")
		m.exec(`UPDATE users SET password_hash = '' WHERE id = $1`, u.id)
		wrong := m.call(testUser{}, "POST", "/api/auth/signin", map[string]string{"email": "nobody@example.com", "password": "whatever-it-is"})
		r := m.call(testUser{}, "POST", "/api/auth/signin", map[string]string{"email": "imported@example.com", "password": "whatever-it-is"})
		if r.status != 401 || r.status != wrong.status || r.errCode() != wrong.errCode() || r.errMessage() != wrong.errMessage() {
			t.Fatalf("sign-in without a password: %d %s; unknown address: %d %s", r.status, r.body, wrong.status, wrong.body)
		}
	})
}

// Names could hold bidirectional overrides (U+202E and friends), which
// reorder what lists and mails show after them. Every form that takes a
// name refuses them, through the one name rule, naming the field.
func TestNamesRefuseBidirectionalOverrides(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		for _, bad := range []string{"Ada \u202Egpj.exe", "Ada \u2066Lovelace\u2069", "Ada \u202ALovelace"} {
			booking := bookBody("session-30", m.freeSlot("session-30", 3, 0), "ada@example.com")
			booking["name"] = bad
			forms := []struct {
				path, field string
				body        any
			}{
				{"/api/bookings", "name", booking},
				{"/api/auth/signup", "full_name", map[string]string{"full_name": bad, "email": "new@example.com", "password": "long enough"}},
				{"/api/waitlist", "full_name", map[string]string{"full_name": bad, "email": "wait@example.com"}},
				{"/api/inquiries", "name", map[string]any{"name": bad, "email": "g@fleet.example", "company": "Fleet", "team_size": 3, "message": "Training.", "preferred_start": ""}},
				{"/api/inquiries", "company", map[string]any{"name": "Grace", "email": "g@fleet.example", "company": bad, "team_size": 3, "message": "Training.", "preferred_start": ""}},
			}
			for _, f := range forms {
				if r := m.call(testUser{}, "POST", f.path, f.body); r.status != 400 || r.errField() != f.field {
					t.Errorf("%s with %q: %d %s", f.path, bad, r.status, r.body)
				}
			}
		}
		var n int
		_ = db.Read.QueryRow(`SELECT (SELECT COUNT(*) FROM bookings) + (SELECT COUNT(*) FROM inquiries) + (SELECT COUNT(*) FROM users)`).Scan(&n)
		if n != 0 {
			t.Fatalf("%d rows written from refused names", n)
		}
	})
}

// Holds were 31 minutes, the least a Checkout Session lives. A hold is 15
// minutes now, and the sweep closes its session at Stripe once it lapses,
// so the lapsed hold cannot be paid and its time is free again.
func TestLapsedHoldClosesItsCheckoutSession(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		start := m.freeSlot("session-30", 3, 0)
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", start, "ada@example.com"))
		if r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		id := r.json["booking"].(map[string]any)["id"].(string)
		var sid string
		for k := range fake.Sessions() {
			sid = k
		}
		m.exec(`UPDATE bookings SET expires_at = $1 WHERE id = $2`, store.At(time.Now().Add(-time.Second)), id)
		for range 2 { // the second sweep finds nothing left to close
			if err := m.s.Services.Booking.Sweep(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		if exp := fake.Expired(); len(exp) != 1 || exp[0] != sid {
			t.Fatalf("sessions expired at Stripe: %v, want [%s]", exp, sid)
		}
		if again := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", start, "bo@example.com")); again.status != 201 {
			t.Fatalf("the lapsed time: %d %s", again.status, again.body)
		}
	})
}

// Many IPv4 addresses, each with an address of its own, held every time of
// a day. Unpaid holds now take at most half of a day: the other half stays
// offered and bookable.
func TestHoldSquattingFromManyIPv4sOverHTTPLeavesHalfTheDay(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, proxiedEnv(fake.URL))
		svc := m.s.Services.Booking
		st, err := svc.LoadSettings(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		st.TimeZone = "Europe/Paris"
		st.WeeklyHours = map[string][]content.HourRange{}
		for _, d := range []string{"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"} {
			st.WeeklyHours[d] = []content.HourRange{{Start: "09:00", End: "12:00"}}
		}
		st.SlotStep, st.BufferBefore, st.BufferAfter, st.MaxPerDay = 30, 0, 0, 0
		if _, err := svc.SaveSettings(t.Context(), st); err != nil {
			t.Fatal(err)
		}
		day := time.Now().AddDate(0, 0, 4).Format(time.DateOnly)
		slots := func() []any {
			r := m.call(testUser{}, "GET", "/api/booking/slots?type=session-30&from="+day+"&to="+day+"&tz=Europe/Paris", nil)
			return r.json["days"].([]any)[0].(map[string]any)["slots"].([]any)
		}
		offered := slots()
		if len(offered) != 6 {
			t.Fatalf("%d times offered on a three-hour day", len(offered))
		}
		won := 0
		for i, s := range offered {
			v := m.visitor(t, fmt.Sprintf("198.51.100.%d", i+1))
			r := v.do("POST", "/api/bookings", bookBody("session-30", s.(string), fmt.Sprintf("squat%d@example.com", i)))
			switch {
			case r.status == 201:
				won++
			case r.status != 409 || r.errCode() != "slot_taken":
				t.Fatalf("hold %d: %d %s", i, r.status, r.body)
			}
		}
		if left := slots(); won != 3 || len(left) != 3 {
			t.Fatalf("%d holds, %d times left of 6; want 3 and 3", won, len(left))
		}
	})
}
