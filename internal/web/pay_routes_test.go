package web

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing"
	"tribe/internal/billing/billingtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

const annualPrice = "price_tribe_web_annual"

// TestAnnualAndMonthlyMembersRoundTripThroughExportAndImport: a member on
// the annual price and one on the monthly price are both members; the
// export names each one's plan; imported into an empty site, their
// customers come back linked and reconcile restores both memberships on
// their own prices, so the second export says the same.
func TestAnnualAndMonthlyMembersRoundTripThroughExportAndImport(t *testing.T) {
	t.Parallel()
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			fake := billingtest.NewFake(t)
			env := billingEnv(fake.URL, "STRIPE_PRICE_ID_ANNUAL", annualPrice)
			urlA, dirA := e.New(t)
			a := newTestSite(t, storetest.Open(t, urlA, dirA), env)
			adminA := a.user(membersAdminEmail)
			now := time.Now().Unix()
			subs := map[string]billingtest.Sub{}
			for i, who := range []struct{ email, price, interval string }{
				{"annual@example.com", annualPrice, "year"}, {"monthly@example.com", billingPrice, "month"},
			} {
				u := a.user(who.email)
				customer := []string{"cus_Annual1", "cus_Monthly1"}[i]
				a.exec(`INSERT INTO billing_customers (user_id, stripe_customer_id) VALUES ($1, $2)`, u.id, customer)
				sub := billingtest.Sub{ID: "sub_" + customer, Customer: customer, Status: billing.StatusActive, Price: who.price,
					UserID: u.id, PeriodEnd: now + 30*24*3600, Created: now, Amount: 25000, Interval: who.interval}
				fake.PutSubscription(sub)
				subs[who.email] = sub
				if r := a.signed(billingtest.Event("evt_rt_"+customer, "customer.subscription.created", now, sub.Object())); r.status != 200 {
					t.Fatalf("webhook: %d %s", r.status, r.body)
				}
			}
			exported := readCSV(t, a.call(adminA, "GET", "/api/admin/export/members.csv", nil))
			want := byEmail(t, exported, "has_access", "plan", "stripe_customer_id")
			if want["annual@example.com"] != "has_access=yes plan=annual stripe_customer_id=cus_Annual1" ||
				want["monthly@example.com"] != "has_access=yes plan=monthly stripe_customer_id=cus_Monthly1" {
				t.Fatalf("export: %v", want)
			}

			urlB, dirB := e.New(t)
			dbB := storetest.Open(t, urlB, dirB)
			b := newTestSite(t, dbB, env)
			adminB := b.user(membersAdminEmail)
			if r, rep := b.importCSV(adminB, a.call(adminA, "GET", "/api/admin/export/members.csv", nil).body, false); r.status != 200 || len(rep.Refused) != 0 {
				t.Fatalf("import: %d %+v", r.status, rep)
			}
			svc := billing.New(dbB, b.cfg, billing.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
			rec, err := svc.Reconcile(context.Background(), true)
			if err != nil {
				t.Fatal(err)
			}
			if rec.StripeSubscriptions != 2 || rec.StripeMRR["usd"] != 25000+2083 {
				t.Fatalf("reconcile in the new site: %+v", rec)
			}
			got := byEmail(t, readCSV(t, b.call(adminB, "GET", "/api/admin/export/members.csv", nil)), "has_access", "plan", "stripe_customer_id")
			for email, w := range want {
				if strings.Contains(email, "@example.com") && got[email] != w {
					t.Errorf("%s: %s, want %s", email, got[email], w)
				}
			}
			// The tribe page offers both plans.
			st := b.call(testUser{}, "GET", "/api/tribe/status", nil)
			if st.status != 200 || !strings.Contains(st.body, `"plan":"annual"`) || !strings.Contains(st.body, `"plan":"monthly"`) {
				t.Fatalf("status: %d %s", st.status, st.body)
			}
		})
	}
}

// TestCheckoutPlanRoute: the annual plan is sold through the same route;
// an unknown plan is a 400 on the field plan.
func TestCheckoutPlanRoute(t *testing.T) {
	t.Parallel()
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			fake := billingtest.NewFake(t)
			url, dir := e.New(t)
			m := newTestSite(t, storetest.Open(t, url, dir), billingEnv(fake.URL, "STRIPE_PRICE_ID_ANNUAL", annualPrice))
			ada := m.user("ada@example.com")
			if r := m.call(ada, "POST", "/api/billing/checkout", map[string]string{"plan": "biennial"}); r.status != 400 || r.errField() != "plan" {
				t.Fatalf("unknown plan: %d %s", r.status, r.body)
			}
			r := m.call(ada, "POST", "/api/billing/checkout", map[string]string{"plan": "annual"})
			if r.status != 200 || r.json["url"] == nil {
				t.Fatalf("annual: %d %s", r.status, r.body)
			}
			for _, p := range fake.Sessions() {
				if p.Get("line_items[0][price]") != annualPrice || p.Get("allow_promotion_codes") != "true" {
					t.Fatalf("session %v", p)
				}
			}
		})
	}
}

// TestSeatWaitlistRoutes: the wait list takes sign-ups only for a sold-out
// date, answers the same for an address already in line, is limited per
// client, and only an admin reads it; the offer link of an unknown token
// shows nothing.
func TestSeatWaitlistRoutes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		admin := m.user(membersAdminEmail)
		id := m.scheduleGroup(admin, 10, 1)["id"].(string)
		join := func(email string) reply {
			return m.call(testUser{}, "POST", "/api/booking/events/"+id+"/waitlist",
				map[string]string{"name": "Wanda", "email": email, "time_zone": "Europe/Paris"})
		}
		if r := join("early@example.com"); r.status != 409 {
			t.Fatalf("joining a date with seats: %d %s", r.status, r.body)
		}
		if r := m.call(testUser{}, "POST", "/api/bookings", seatBody(id, "grace@example.com")); r.status != 201 {
			t.Fatalf("seat: %d %s", r.status, r.body)
		}
		first := join("wanda@example.com")
		if first.status != 201 || first.body != join("WANDA@example.com").body {
			t.Fatalf("join: %d %s", first.status, first.body)
		}
		if r := join("not-an-address"); r.status != 400 || r.errField() != "email" {
			t.Fatalf("bad address: %d %s", r.status, r.body)
		}
		var last reply
		for i := range 4 {
			last = join(fmt.Sprintf("flood%d@example.com", i))
		}
		if last.status != 429 || last.header.Get("Retry-After") == "" {
			t.Fatalf("flood from one client: %d %s", last.status, last.body)
		}
		if r := m.call(testUser{}, "GET", "/api/admin/booking/events/"+id+"/waitlist", nil); r.status != 401 && r.status != 403 {
			t.Fatalf("stranger reads the list: %d", r.status)
		}
		if r := m.call(m.user("member@example.com"), "GET", "/api/admin/booking/events/"+id+"/waitlist", nil); r.status != 403 {
			t.Fatalf("member reads the list: %d", r.status)
		}
		list := m.call(admin, "GET", "/api/admin/booking/events/"+id+"/waitlist", nil)
		entries, _ := list.json["waitlist"].([]any)
		if list.status != 200 || len(entries) != 2 || !strings.Contains(list.body, "wanda@example.com") || !strings.Contains(list.body, `"position":1`) {
			t.Fatalf("list: %d %s", list.status, list.body)
		}
		if r := m.call(testUser{}, "GET", "/api/booking/offers/"+strings.Repeat("x", 43), nil); r.status != 404 {
			t.Fatalf("unknown offer: %d %s", r.status, r.body)
		}
		if r := m.call(testUser{}, "POST", "/api/booking/offers/"+strings.Repeat("x", 43)+"/checkout", nil); r.status != 404 {
			t.Fatalf("unknown offer checkout: %d %s", r.status, r.body)
		}
	})
}

// TestOutcomeRoutesAreAdminOnlyAndAfterTheStart: no-show and completed
// are the owner's, and refused before the call's start.
func TestOutcomeRoutesAreAdminOnlyAndAfterTheStart(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin := m.user(membersAdminEmail)
		r := m.call(testUser{}, "POST", "/api/bookings", bookBody("session-30", m.freeSlot("session-30", 2, 0), "ada@example.com"))
		if r.status != 201 {
			t.Fatalf("book: %d %s", r.status, r.body)
		}
		id := r.json["booking"].(map[string]any)["id"].(string)
		for _, action := range []string{"no-show", "completed"} {
			if r := m.call(testUser{}, "POST", "/api/admin/bookings/"+id+"/"+action, nil); r.status != 401 && r.status != 403 {
				t.Fatalf("stranger %s: %d", action, r.status)
			}
			if r := m.call(m.user(action+"@example.com"), "POST", "/api/admin/bookings/"+id+"/"+action, nil); r.status != 403 {
				t.Fatalf("member %s: %d", action, r.status)
			}
			if r := m.call(admin, "POST", "/api/admin/bookings/"+id+"/"+action, nil); r.status != 409 {
				t.Fatalf("admin %s before the start: %d %s", action, r.status, r.body)
			}
		}
	})
}

// TestNoShowPolicyShownOnTheBookingPage: the owner's policy is saved with
// the settings, checked, and served with the types.
func TestNoShowPolicyShownOnTheBookingPage(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin := m.user(membersAdminEmail)
		st := m.call(admin, "GET", "/api/admin/booking/settings", nil).json["settings"].(map[string]any)
		st["no_show_policy"] = strings.Repeat("x", 1001)
		if r := m.call(admin, "PUT", "/api/admin/booking/settings", st); r.status != 400 || r.errField() != "no_show_policy" {
			t.Fatalf("too long: %d %s", r.status, r.body)
		}
		st["no_show_policy"] = "  Missed calls without 24 hours' notice are not refunded.  "
		if r := m.call(admin, "PUT", "/api/admin/booking/settings", st); r.status != 200 {
			t.Fatalf("save: %d %s", r.status, r.body)
		}
		types := m.call(testUser{}, "GET", "/api/booking/types", nil)
		if types.json["no_show_policy"] != "Missed calls without 24 hours' notice are not refunded." {
			t.Fatalf("types: %s", types.body)
		}
	})
}
