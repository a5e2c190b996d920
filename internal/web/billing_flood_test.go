package web

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"tribe/internal/billing"
	"tribe/internal/billing/billingtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// flood sends n concurrent requests as u and counts the answers by status;
// every 429 must say when to come back.
func (m *testSite) flood(u testUser, path string, n int) map[int]int {
	m.t.Helper()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		counts = map[int]int{}
	)
	start := make(chan struct{})
	for range n {
		wg.Go(func() {
			<-start
			r := m.call(u, "POST", path, nil)
			if r.status == 429 {
				if s, err := strconv.Atoi(r.header.Get("Retry-After")); err != nil || s < 1 {
					m.t.Errorf("429 without a usable Retry-After: %q", r.header.Get("Retry-After"))
				}
			}
			mu.Lock()
			counts[r.status]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	return counts
}

// TestRefreshFloodCannotSpendTheStripeQuota: 200 refreshes in 0.3 s used to
// make 200 Stripe calls, spending the quota everyone's checkout needs. Now a
// member's refreshes are limited (429 with Retry-After) and the ones let
// through at the same moment share one Stripe call; the portal likewise.
func TestRefreshFloodCannotSpendTheStripeQuota(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		fake.Delay = 300 * time.Millisecond // the calls let through overlap
		m := newTestSite(t, db, billingEnv(fake.URL))
		ada, bob := m.user("ada@example.com"), m.user("bob@example.com")
		for _, u := range []testUser{ada, bob} {
			m.exec(`INSERT INTO billing_customers (user_id, stripe_customer_id) VALUES ($1, $2)`, u.id, "cus_"+u.id)
			m.exec(`INSERT INTO subscriptions (user_id, status, stripe_customer_id, stripe_subscription_id) VALUES ($1, 'active', $2, $3)`,
				u.id, "cus_"+u.id, "sub_"+u.id)
		}

		counts := m.flood(ada, "/api/billing/refresh", 200)
		if counts[200] < 1 || counts[200] > 20 || counts[429] != 200-counts[200] {
			t.Fatalf("refresh answers %v, want at most 20 served and the rest 429", counts)
		}
		if n := fake.Requests("GET /v1/subscriptions"); n < 1 || n > 2 {
			t.Fatalf("%d Stripe calls for %d refreshes served at once, want 1 (or 2)", n, counts[200])
		}
		// Another member is not held back by Ada's flood.
		if r := m.call(bob, "POST", "/api/billing/refresh", nil); r.status != 200 {
			t.Fatalf("Bob's refresh: %d %s", r.status, r.body)
		}

		counts = m.flood(ada, "/api/billing/portal", 50)
		if counts[200] < 1 || counts[200] > 5 || counts[429] != 50-counts[200] {
			t.Fatalf("portal answers %v, want at most 5 served and the rest 429", counts)
		}
		if n := fake.Requests("POST /v1/billing_portal/sessions"); n < 1 || n > 2 {
			t.Fatalf("%d portal sessions for %d portal requests served at once", n, counts[200])
		}
	})
}

// TestSeatHoldRefusalSaysWhenToComeBack: the hold rule's 429 used to come
// without Retry-After, so a client could only guess when to try again. A
// fourth open checkout from one address is refused until the first of the
// three ends (31 minutes), and the answer says so.
func TestSeatHoldRefusalSaysWhenToComeBack(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		m := newTestSite(t, db, billingEnv(fake.URL))
		for _, email := range []string{"ada@example.com", "bob@example.com", "cy@example.com"} {
			if r := m.call(m.user(email), "POST", "/api/billing/checkout", nil); r.status != 200 {
				t.Fatalf("checkout of %s: %d %s", email, r.status, r.body)
			}
		}
		r := m.call(m.user("dee@example.com"), "POST", "/api/billing/checkout", nil)
		if r.status != 429 || r.errCode() != "rate_limited" {
			t.Fatalf("a fourth hold from one address: %d %s", r.status, r.body)
		}
		s, err := strconv.Atoi(r.header.Get("Retry-After"))
		if ttl := int(billing.CheckoutTTL.Seconds()); err != nil || s < ttl-60 || s > ttl {
			t.Fatalf("Retry-After %q, want about %d seconds", r.header.Get("Retry-After"), ttl)
		}
	})
}
