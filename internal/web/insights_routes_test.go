package web

import (
	"fmt"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestInsightsShowMRRAfterASubscriptionWebhook: a subscription's webhook
// lands in the ledger and the admin's insights show its MRR at once;
// cancelling at period end moves it to at risk instead of dropping it.
func TestInsightsShowMRRAfterASubscriptionWebhook(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		admin := m.user(membersAdminEmail)
		ada := m.user("ada@example.com")
		now := time.Now()
		today := now.UTC().Format(time.DateOnly)
		path := "/api/admin/insights?from=" + now.UTC().AddDate(0, 0, -29).Format(time.DateOnly) + "&to=" + today

		if r := m.call(admin, "GET", path, nil); r.status != 200 || r.json["totals"].(map[string]any)["committed_mrr"] != 0.0 {
			t.Fatalf("before: %d %s", r.status, r.body)
		}
		sub := billingtest.Sub{ID: "sub_ada", Customer: "cus_ada", Status: "active", Price: billingPrice, UserID: ada.id,
			PeriodEnd: now.Unix() + 30*24*3600, Created: now.Unix(), Amount: 2500}
		if r := m.signed(billingtest.Event("evt_ins_1", "customer.subscription.created", now.Unix()-5, sub.Object())); r.status != 200 {
			t.Fatalf("webhook: %d %s", r.status, r.body)
		}
		r := m.call(admin, "GET", path, nil)
		totals := r.json["totals"].(map[string]any)
		if r.status != 200 || totals["committed_mrr"] != 2500.0 || totals["paying"] != 1.0 || r.json["currency"] != "usd" {
			t.Fatalf("after the webhook: %d %s", r.status, r.body)
		}
		sub.CancelAtPeriodEnd = true
		if r := m.signed(billingtest.Event("evt_ins_2", "customer.subscription.updated", now.Unix()-2, sub.Object())); r.status != 200 {
			t.Fatalf("webhook: %d %s", r.status, r.body)
		}
		totals = m.call(admin, "GET", path, nil).json["totals"].(map[string]any)
		if totals["committed_mrr"] != 0.0 || totals["at_risk_mrr"] != 2500.0 {
			t.Fatalf("after cancel at period end: %v", totals)
		}
	})
}

// TestInsightsRefuseBadRanges: every malformed or unreasonable range is a
// 400 naming its field.
func TestInsightsRefuseBadRanges(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin := m.user(membersAdminEmail)
		today := time.Now().UTC()
		day := func(d int) string { return today.AddDate(0, 0, d).Format(time.DateOnly) }
		for _, c := range []struct {
			query, field string
		}{
			{"from=2026-02-30&to=" + day(0), "from"},
			{"from=" + day(-3), "to"},
			{"from=yesterday&to=" + day(0), "from"},
			{"from=" + day(-1) + "&to=" + day(-2), "from"},
			{"from=" + day(-10) + "&to=" + day(1), "to"},
			{"from=" + day(-731) + "&to=" + day(0), "from"},
		} {
			r := m.call(admin, "GET", "/api/admin/insights?"+c.query, nil)
			if r.status != 400 || r.errField() != c.field {
				t.Errorf("%s: %d %s, want 400 on %s", c.query, r.status, r.body, c.field)
			}
		}
		if r := m.call(admin, "GET", fmt.Sprintf("/api/admin/insights?from=%s&to=%s", day(-730), day(0)), nil); r.status != 200 {
			t.Errorf("731 days: %d %s", r.status, r.body)
		}
		if r := m.call(admin, "GET", "/api/admin/insights", nil); r.status != 200 || r.json["to"] != day(0) || r.json["from"] != day(-29) {
			t.Errorf("no range (the last 30 days): %d %s", r.status, r.body)
		}
	})
}
