package web

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing"
	"tribe/internal/billing/billingtest"
	"tribe/internal/store/storetest"
)

const annualPrice = "price_tribe_web_annual"

// TestAnnualAndMonthlyMembersRoundTripThroughExportAndImport: a member on
// the annual price and one on the monthly price are both members; the
// export names each one's plan; imported into an empty site, their
// customers come back linked and reconcile restores both memberships on
// their own prices, so the second export says the same.
func TestAnnualAndMonthlyMembersRoundTripThroughExportAndImport(t *testing.T) {
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
