package web

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// packageSession is the one Checkout Session opened since before (a set of
// ids already seen), with its form.
func packageSession(t *testing.T, fake *billingtest.Fake, before map[string]bool) (string, url.Values) {
	t.Helper()
	var id string
	var form url.Values
	for k, v := range fake.Sessions() {
		if !before[k] {
			if id != "" {
				t.Fatalf("more than one new Checkout Session")
			}
			id, form = k, v
		}
	}
	if id == "" {
		t.Fatal("no Checkout Session opened")
	}
	return id, form
}

func seen(fake *billingtest.Fake) map[string]bool {
	out := map[string]bool{}
	for k := range fake.Sessions() {
		out[k] = true
	}
	return out
}

func creditsLeft(t *testing.T, r reply) int {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("credits: %d %s", r.status, r.body)
	}
	n := 0
	for _, c := range r.json["credits"].([]any) {
		n += int(c.(map[string]any)["remaining"].(float64))
	}
	return n
}

// A package from the buy button to a booking: one Checkout Session in
// payment mode with promotion codes allowed, the credits granted once
// however often the webhook is replayed (what was really paid recorded),
// the success return leading to the credits page once, a booking with a
// credit confirmed at once without Checkout, and a refund in Stripe taking
// the unspent credits away while the booking stands.
func TestPackageFromCheckoutToCreditsToABooking(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		list := m.call(testUser{}, "GET", "/api/booking/packages", nil)
		pk := list.json["packages"].([]any)[0].(map[string]any)
		if list.status != 200 || pk["id"] != "deep-dive-4" || pk["type"] != "session-30" || pk["count"] != float64(4) ||
			pk["price"] != float64(99900) || pk["member_price"] != float64(89900) || pk["currency"] != "USD" ||
			pk["valid_days"] != float64(365) || list.json["member_prices"] != false {
			t.Fatalf("packages: %d %s", list.status, list.body)
		}

		r := m.call(testUser{}, "POST", "/api/booking/packages/deep-dive-4/checkout", map[string]string{"name": "Ada Lovelace", "email": "ada@EXAMPLE.com"})
		if r.status != 201 || !strings.HasPrefix(fmt.Sprint(r.json["checkout_url"]), "https://checkout.stripe.test/") {
			t.Fatalf("checkout: %d %s", r.status, r.body)
		}
		sid, form := packageSession(t, fake, nil)
		ref := form.Get("metadata[booking_id]")
		purchase, ok := strings.CutPrefix(ref, "package-")
		if !ok || form.Get("mode") != "payment" || form.Get("allow_promotion_codes") != "true" ||
			form.Get("line_items[0][price_data][unit_amount]") != "99900" || form.Get("customer_email") != "ada@example.com" ||
			!strings.HasPrefix(form.Get("success_url"), "https://ruv.example/bookings/packages/"+purchase+"/paid?r=") {
			t.Fatalf("Checkout Session parameters %v", form)
		}
		// Nothing granted before the payment.
		if n := len(m.mailsTo("ada@example.com", "Your credits")); n != 0 {
			t.Fatalf("%d credits mails before payment", n)
		}

		// Paid with a promotion code ($799 of $999), delivered three times.
		paid := billingtest.Event("evt_pkg_paid", "checkout.session.completed", time.Now().Unix(),
			billingtest.PaymentSession(sid, ref, "pi_pkg", "paid", 79900, "usd"))
		for range 3 {
			if r := m.signed(paid); r.status != 200 {
				t.Fatalf("webhook: %d %s", r.status, r.body)
			}
		}
		// The same payment as a new event id (Stripe's retries keep the id,
		// but an async success follows a completion) grants nothing more.
		again := billingtest.Event("evt_pkg_async", "checkout.session.async_payment_succeeded", time.Now().Unix(),
			billingtest.PaymentSession(sid, ref, "pi_pkg", "paid", 79900, "usd"))
		if r := m.signed(again); r.status != 200 {
			t.Fatalf("webhook: %d %s", r.status, r.body)
		}
		mails := m.mailsTo("ada@example.com", "Your credits: 4 Deep Dives")
		if len(mails) != 1 {
			t.Fatalf("%d credits mails, want 1", len(mails))
		}
		var paidAmount int64
		_ = db.Read.QueryRow(`SELECT amount_paid FROM credit_purchases WHERE id = $1`, purchase).Scan(&paidAmount)
		if paidAmount != 79900 {
			t.Fatalf("amount paid recorded %d, want 79900", paidAmount)
		}
		link := mails[0].text[strings.Index(mails[0].text, "https://ruv.example/bookings/credits?"):]
		u, _ := url.Parse(strings.Fields(link)[0])
		token := u.Query().Get("token")
		if u.Query().Get("email") != "ada@example.com" || token == "" {
			t.Fatalf("credits link %s", u)
		}
		var stored int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM credit_tokens WHERE token_hash = $1`, token).Scan(&stored)
		if stored != 0 {
			t.Fatal("a credits token is stored as it was mailed")
		}
		if n := creditsLeft(t, m.call(testUser{}, "GET", "/api/credits?"+u.RawQuery, nil)); n != 4 {
			t.Fatalf("%d credits, want 4", n)
		}
		for _, bad := range []string{"email=ada%40example.com&token=nope", "email=eve%40example.com&token=" + url.QueryEscape(token), "token=" + url.QueryEscape(token)} {
			if r := m.call(testUser{}, "GET", "/api/credits?"+bad, nil); r.status != 404 {
				t.Fatalf("credits with %s: %d", bad, r.status)
			}
		}

		// Back from Checkout: the return id opens the credits page once.
		ret := strings.TrimPrefix(form.Get("success_url"), "https://ruv.example")
		back := m.call(testUser{}, "GET", ret, nil)
		loc := back.header.Get("Location")
		if back.status != 303 || !strings.HasPrefix(loc, "https://ruv.example/bookings/credits?email=ada%40example.com&token=") || !strings.HasSuffix(loc, "&paid=1") {
			t.Fatalf("success return: %d %s", back.status, loc)
		}
		if back := m.call(testUser{}, "GET", ret, nil); back.status != 303 || back.header.Get("Location") != "/booking#packages" {
			t.Fatalf("second use of the return: %d %s", back.status, back.header.Get("Location"))
		}

		// Booking with a credit: confirmed at once, no Checkout.
		before := len(fake.Sessions())
		body := map[string]any{"type": "session-30", "start": m.freeSlot("session-30", 3, 0), "name": "Ada Lovelace",
			"email": "ada@example.com", "notes": "", "time_zone": "Europe/Paris", "use_credit": true, "credit_token": token}
		b := m.call(testUser{}, "POST", "/api/bookings", body)
		if b.status != 201 || b.json["checkout_url"] != nil {
			t.Fatalf("book with a credit: %d %s", b.status, b.body)
		}
		if bk := b.json["booking"].(map[string]any); bk["status"] != "confirmed" || bk["credit"] != true || bk["paid"] != false {
			t.Fatalf("booked with a credit: %v", bk)
		}
		if len(fake.Sessions()) != before {
			t.Fatal("a booking with a credit opened Checkout")
		}
		if len(m.mailsTo("ada@example.com", "Confirmed:")) != 1 {
			t.Fatal("no confirmation of the booking made with a credit")
		}
		if n := creditsLeft(t, m.call(testUser{}, "GET", "/api/credits?"+u.RawQuery, nil)); n != 3 {
			t.Fatalf("%d credits after a booking, want 3", n)
		}

		// Refunded in Stripe's dashboard: the three unspent credits go.
		refund := billingtest.Event("evt_pkg_refund", "charge.refunded", time.Now().Unix(), billingtest.Charge("ch_pkg", "pi_pkg", 79900, 79900))
		if r := m.signed(refund); r.status != 200 {
			t.Fatalf("charge.refunded: %d %s", r.status, r.body)
		}
		if n := creditsLeft(t, m.call(testUser{}, "GET", "/api/credits?"+u.RawQuery, nil)); n != 0 {
			t.Fatalf("%d credits after the refund, want 0", n)
		}
		body["start"] = m.freeSlot("session-30", 3, 4)
		if r := m.call(testUser{}, "POST", "/api/bookings", body); r.status != 409 || r.errCode() != "no_credit" {
			t.Fatalf("book after the refund: %d %s", r.status, r.body)
		}
		id := b.json["booking"].(map[string]any)["id"].(string)
		if s := m.call(testUser{}, "GET", "/api/bookings/"+id+"?token="+url.QueryEscape(b.json["token"].(string)), nil).json["booking"].(map[string]any)["status"]; s != "confirmed" {
			t.Fatalf("the booking made with a spent credit is %v", s)
		}
	})
}

// The server decides who pays member prices: a member with tribe access
// pays them for a call and a package; a signed-in non-member and a visitor
// pay the full price whatever they send; a member's credits are theirs when
// signed in, without a token.
func TestMemberPricesAreTheServersToDecide(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		mem, other := m.user("member@example.com"), m.user("other@example.com")
		m.subscribe(mem, "active")

		if r := m.call(mem, "GET", "/api/booking/types", nil); r.json["member_prices"] != true {
			t.Fatalf("types for a member: %s", r.body)
		}
		if r := m.call(other, "GET", "/api/booking/packages", nil); r.json["member_prices"] != false {
			t.Fatalf("packages for a non-member: %s", r.body)
		}
		for i, c := range []struct {
			who  testUser
			want string
		}{{mem, "44900"}, {other, "49900"}, {testUser{}, "49900"}} {
			before := seen(fake)
			body := map[string]any{"type": "session-60", "start": m.freeSlot("session-60", 3, 4*i), "name": "Ada Lovelace",
				"email": fmt.Sprintf("booker%d@example.com", i), "notes": "", "time_zone": "Europe/Paris"}
			if c.want != "44900" {
				// A page that claims the member price is not believed.
				body["member_price"], body["amount"], body["price"] = true, 44900, 44900
			}
			r := m.call(c.who, "POST", "/api/bookings", body)
			if r.status == 400 && r.errCode() == "bad_json" {
				delete(body, "member_price")
				delete(body, "amount")
				delete(body, "price")
				r = m.call(c.who, "POST", "/api/bookings", body)
			}
			if r.status != 201 {
				t.Fatalf("book as %d: %d %s", i, r.status, r.body)
			}
			_, form := packageSession(t, fake, before)
			if got := form.Get("line_items[0][price_data][unit_amount]"); got != c.want {
				t.Fatalf("caller %d charged %s, want %s", i, got, c.want)
			}
			if bk := r.json["booking"].(map[string]any); bk["amount"] != mustFloat(c.want) {
				t.Fatalf("caller %d: booking amount %v", i, bk["amount"])
			}
		}
		for _, c := range []struct {
			who  testUser
			want string
		}{{mem, "89900"}, {other, "99900"}} {
			before := seen(fake)
			r := m.call(c.who, "POST", "/api/booking/packages/deep-dive-4/checkout", map[string]any{"name": "Ada", "email": "member@example.com", "member_price": true})
			if r.status == 400 {
				r = m.call(c.who, "POST", "/api/booking/packages/deep-dive-4/checkout", map[string]any{"name": "Ada", "email": "member@example.com"})
			}
			if r.status != 201 {
				t.Fatalf("package checkout: %d %s", r.status, r.body)
			}
			sid, form := packageSession(t, fake, before)
			if got := form.Get("line_items[0][price_data][unit_amount]"); got != c.want {
				t.Fatalf("package charged %s, want %s", got, c.want)
			}
			if c.who == mem {
				paid := billingtest.Event("evt_member_pkg", "checkout.session.completed", time.Now().Unix(),
					billingtest.PaymentSession(sid, form.Get("metadata[booking_id]"), "pi_member", "paid", 89900, "usd"))
				if r := m.signed(paid); r.status != 200 {
					t.Fatalf("webhook: %d %s", r.status, r.body)
				}
			}
		}
		// Signed in, the member's credits need no token; another account's
		// session does not open them.
		if n := creditsLeft(t, m.call(mem, "GET", "/api/members/me/credits", nil)); n != 4 {
			t.Fatalf("the member's credits: %d", n)
		}
		if n := creditsLeft(t, m.call(other, "GET", "/api/members/me/credits", nil)); n != 0 {
			t.Fatalf("another account sees %d credits", n)
		}
		if r := m.call(testUser{}, "GET", "/api/members/me/credits", nil); r.status != 401 {
			t.Fatalf("anonymous: %d", r.status)
		}
		body := map[string]any{"type": "session-30", "start": m.freeSlot("session-30", 3, 0), "name": "Member",
			"email": "member@example.com", "notes": "", "time_zone": "Europe/Paris", "use_credit": true}
		if r := m.call(other, "POST", "/api/bookings", body); r.status != 409 || r.errCode() != "no_credit" {
			t.Fatalf("another account spends the member's credit: %d %s", r.status, r.body)
		}
		if r := m.call(mem, "POST", "/api/bookings", body); r.status != 201 || r.json["booking"].(map[string]any)["status"] != "confirmed" {
			t.Fatalf("the member books with a credit: %d %s", r.status, r.body)
		}
		if n := creditsLeft(t, m.call(mem, "GET", "/api/members/me/credits", nil)); n != 3 {
			t.Fatalf("the member's credits after booking: %d", n)
		}
	})
}

func mustFloat(s string) float64 {
	var f float64
	_, _ = fmt.Sscan(s, &f)
	return f
}

// Against stripe-mock, Stripe's own API description: the package's
// Checkout Session (payment mode, promotion codes allowed) is accepted.
func TestPackageCheckoutAgainstStripeMock(t *testing.T) {
	t.Parallel()
	mock := billingtest.StripeMock(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, billingEnv(mock.URL))
		r := m.call(testUser{}, "POST", "/api/booking/packages/strategy-3/checkout", map[string]string{"name": "Ada Lovelace", "email": "ada@example.com"})
		if r.status != 201 || !strings.HasPrefix(fmt.Sprint(r.json["checkout_url"]), "https://") {
			t.Fatalf("checkout: %d %s", r.status, r.body)
		}
		if r := m.call(testUser{}, "POST", "/api/booking/packages/nope/checkout", map[string]string{"name": "Ada", "email": "ada@example.com"}); r.status != 404 {
			t.Fatalf("an unknown package: %d", r.status)
		}
		if r := m.call(testUser{}, "POST", "/api/booking/packages/strategy-3/checkout", map[string]string{"name": "", "email": "ada@example.com"}); r.status != 400 || r.errField() != "name" {
			t.Fatalf("no name: %d %s", r.status, r.body)
		}
	})
}

// A package sold shows in the owner's insights as package revenue (what
// was really paid) and in Admin → Booking's list; the booking made with
// its credit adds no booking revenue (the money counts once); a refund in
// Stripe subtracts it in the month and marks the purchase refunded with no
// credits left.
func TestPackageSalesInInsightsAndTheAdminList(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		admin := m.user(membersAdminEmail)
		if r := m.call(admin, "GET", "/api/admin/booking/packages", nil); r.status != 200 || len(r.json["purchases"].([]any)) != 0 {
			t.Fatalf("no purchases: %d %s", r.status, r.body)
		}
		// One checkout left unpaid is not a purchase.
		for _, who := range []string{"eve@example.com", "ada@example.com"} {
			if r := m.call(testUser{}, "POST", "/api/booking/packages/deep-dive-4/checkout", map[string]string{"name": "Ada Lovelace", "email": who}); r.status != 201 {
				t.Fatalf("checkout: %d %s", r.status, r.body)
			}
		}
		var sid, ref string
		for k, v := range fake.Sessions() {
			if v.Get("customer_email") == "ada@example.com" {
				sid, ref = k, v.Get("metadata[booking_id]")
			}
		}
		if r := m.signed(billingtest.Event("evt_sale_paid", "checkout.session.completed", time.Now().Unix(),
			billingtest.PaymentSession(sid, ref, "pi_sale", "paid", 79900, "usd"))); r.status != 200 {
			t.Fatalf("webhook: %d %s", r.status, r.body)
		}
		link := m.mailsTo("ada@example.com", "Your credits")[0].text
		link = link[strings.Index(link, "https://ruv.example/bookings/credits?"):]
		u, _ := url.Parse(strings.Fields(link)[0])
		b := m.call(testUser{}, "POST", "/api/bookings", map[string]any{"type": "session-30", "start": m.freeSlot("session-30", 3, 0),
			"name": "Ada Lovelace", "email": "ada@example.com", "notes": "", "time_zone": "Europe/Paris",
			"use_credit": true, "credit_token": u.Query().Get("token")})
		if b.status != 201 {
			t.Fatalf("book with a credit: %d %s", b.status, b.body)
		}

		today := time.Now().UTC()
		path := "/api/admin/insights?from=" + today.AddDate(0, 0, -1).Format(time.DateOnly) + "&to=" + today.Format(time.DateOnly)
		totals := func() map[string]any {
			t.Helper()
			r := m.call(admin, "GET", path, nil)
			if r.status != 200 || r.json["currency"] != "usd" {
				t.Fatalf("insights: %d %s", r.status, r.body)
			}
			return r.json["totals"].(map[string]any)
		}
		tot := totals()
		if tot["packages_sold"] != 1.0 || tot["packages_revenue"] != 79900.0 || tot["packages_refunded"] != 0.0 ||
			tot["packages_net"] != 79900.0 || tot["bookings_gross"] != 0.0 || tot["one_off_net"] != 79900.0 {
			t.Fatalf("insights after a sale and a credit booking: %v", tot)
		}
		sale := func() map[string]any {
			t.Helper()
			r := m.call(admin, "GET", "/api/admin/booking/packages", nil)
			list := r.json["purchases"].([]any)
			if r.status != 200 || len(list) != 1 {
				t.Fatalf("purchases: %d %s", r.status, r.body)
			}
			return list[0].(map[string]any)
		}
		p := sale()
		if p["email"] != "ada@example.com" || p["name"] != "Ada Lovelace" || p["package"] != "deep-dive-4" || p["credits"] != 4.0 ||
			p["spent"] != 1.0 || p["left"] != 3.0 || p["amount_paid"] != 79900.0 || p["currency"] != "USD" || p["status"] != "paid" {
			t.Fatalf("the purchase: %v", p)
		}

		if r := m.signed(billingtest.Event("evt_sale_refund", "charge.refunded", time.Now().Unix(),
			billingtest.Charge("ch_sale", "pi_sale", 79900, 79900))); r.status != 200 {
			t.Fatalf("charge.refunded: %d %s", r.status, r.body)
		}
		tot = totals()
		if tot["packages_sold"] != 1.0 || tot["packages_refunded"] != 79900.0 || tot["packages_net"] != 0.0 || tot["one_off_net"] != 0.0 {
			t.Fatalf("insights after the refund: %v", tot)
		}
		if p := sale(); p["status"] != "refunded" || p["spent"] != 1.0 || p["left"] != 0.0 {
			t.Fatalf("the refunded purchase: %v", p)
		}
	})
}
