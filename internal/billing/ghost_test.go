package billing

// One test per failure class that other membership software shipped with
// (the names carry Ghost's issue numbers), each shown impossible here. The
// double-click class (#16057) is in checkout_test.go.

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestGhost19706EventsOutOfOrderOrInParallel: an older event never
// overwrites newer state, whether it arrives late or at the same time as
// newer ones; events from the same second are settled by reading Stripe.
func TestGhost19706EventsOutOfOrderOrInParallel(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		var seq eventSeq
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		t0 := e.clock.Now().Unix()

		// Late: updated (t0+20, scheduled to cancel) arrives before created
		// (t0, incomplete).
		newer := m.sub
		newer.CancelAtPeriodEnd = true
		older := m.sub
		older.Status = StatusIncomplete
		e.mustDeliver(seq.subEvent("updated", t0+20, newer))
		if changed := e.mustDeliver(seq.subEvent("created", t0, older)); len(changed) != 0 {
			t.Fatalf("older event changed %v", changed)
		}
		if s := e.sub(m.id); s.Status != StatusActive || !s.CancelAtPeriodEnd {
			t.Fatalf("older event overwrote newer state: %+v", s)
		}

		// Parallel: 24 events of one subscription, delivered at once in a
		// random order; the newest one's state must remain.
		statuses := []string{StatusActive, StatusPastDue, StatusUnpaid, StatusActive, StatusPaused, StatusActive}
		var bodies [][]byte
		var last billingtest.Sub
		for i := range 24 {
			s := m.sub
			s.Status = statuses[i%len(statuses)]
			s.CancelAtPeriodEnd = i%3 == 0
			s.PeriodEnd = m.sub.PeriodEnd + int64(i)
			bodies = append(bodies, seq.subEvent("updated", t0+100+int64(i), s))
			last = s
		}
		rand.Shuffle(len(bodies), func(i, j int) { bodies[i], bodies[j] = bodies[j], bodies[i] })
		var wg sync.WaitGroup
		for _, b := range bodies {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := e.deliver(b); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		s := e.sub(m.id)
		if s.Status != last.Status || s.CancelAtPeriodEnd != last.CancelAtPeriodEnd || s.CurrentPeriodEnd.Unix() != last.PeriodEnd {
			t.Fatalf("after parallel delivery %+v, want the newest %+v", s, last)
		}

		// Same second: two events at t0+200 say different things; their order
		// is unknown, so Stripe's current state decides.
		a, b := m.sub, m.sub
		a.Status, b.Status = StatusPastDue, StatusActive
		current := m.sub
		current.Status = StatusActive
		current.CancelAtPeriodEnd = true
		fake.PutSubscription(current)
		e.mustDeliver(seq.subEvent("updated", t0+200, a))
		e.mustDeliver(seq.subEvent("updated", t0+200, b))
		if s := e.sub(m.id); s.Status != StatusActive || !s.CancelAtPeriodEnd {
			t.Fatalf("same-second events: %+v, want Stripe's current state", s)
		}
		if fake.Requests("GET /v1/subscriptions/sub_a") != 1 {
			t.Fatalf("Stripe read %d times for the tie", fake.Requests("GET /v1/subscriptions/sub_a"))
		}
	})
}

// TestGhost11695PayingWithAnotherEmailLinksTheSameMember: the address typed
// at checkout never decides who paid; the customer and the user_id metadata
// do, so no second member appears and the account with that address stays
// free.
func TestGhost11695PayingWithAnotherEmailLinksTheSameMember(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, billingtest.NewFake(t).URL, 50)
		var seq eventSeq
		ada := e.user("ada@example.com", "Ada")
		other := e.user("ada.billing@example.com", "Someone Else")
		t0 := e.clock.Now().Unix()
		// A customer this database has never seen, with the other address;
		// only the metadata names Ada.
		sub := billingtest.Sub{ID: "sub_x", Customer: "cus_unknown", Status: StatusActive, Price: testPrice, UserID: ada,
			PeriodEnd: t0 + 30*24*3600, Created: t0}
		if changed := e.mustDeliver(seq.subEvent("created", t0, sub)); len(changed) != 1 || changed[0] != ada {
			t.Fatalf("changed %v", changed)
		}
		if !e.sub(ada).Active() || e.sub(other) != nil || e.count() != 1 {
			t.Fatalf("ada %+v, other %+v, count %d", e.sub(ada), e.sub(other), e.count())
		}
		// The customer is now Ada's: later events without metadata find her.
		if c, _ := customerOf(e.ctx, db.Read, ada); c != "cus_unknown" {
			t.Fatalf("customer of ada %q", c)
		}
		sub.UserID = ""
		sub.ID = "sub_y" // even a new subscription of that customer
		sub.Status = StatusActive
		e.mustDeliver(seq.subEvent("updated", t0+5, sub))
		if e.sub(other) != nil || e.count() != 1 {
			t.Fatalf("the other address became a member: %+v", e.sub(other))
		}
		// Nothing links a subscription by address alone.
		orphan := billingtest.Sub{ID: "sub_z", Customer: "cus_z", Status: StatusActive, Price: testPrice, Created: t0}
		if changed := e.mustDeliver(seq.subEvent("created", t0, orphan)); len(changed) != 0 || e.count() != 1 {
			t.Fatalf("a subscription of nobody changed %v", changed)
		}
	})
}

// TestGhost20243ForeignPriceIgnored: in a Stripe account shared with other
// products, subscriptions to any price but STRIPE_PRICE_ID are not the
// tribe's, even for a member's own customer.
func TestGhost20243ForeignPriceIgnored(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		var seq eventSeq
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		t0 := e.clock.Now().Unix()
		phantom := billingtest.Sub{ID: "sub_course", Customer: "cus_a", Status: StatusActive, Price: "price_video_course",
			UserID: m.id, PeriodEnd: t0 + 3600, Created: t0}
		for _, typ := range []string{"created", "updated", "resumed"} {
			if changed := e.mustDeliver(seq.subEvent(typ, t0, phantom)); len(changed) != 0 {
				t.Fatalf("%s of a foreign price changed %v", typ, changed)
			}
		}
		if e.sub(m.id) != nil || e.count() != 0 {
			t.Fatalf("phantom subscription: %+v", e.sub(m.id))
		}
		fake.PutSubscription(phantom)
		if s, err := e.svc.Refresh(e.ctx, m.id); err != nil || s != nil {
			t.Fatalf("refresh found the phantom: %+v %v", s, err)
		}
		// A member's real subscription is not disturbed by a phantom one.
		e.mustDeliver(seq.subEvent("created", t0+1, m.sub))
		phantom.Status = StatusCanceled
		e.mustDeliver(seq.subEvent("deleted", t0+2, phantom))
		if s := e.sub(m.id); !s.Active() || s.StripeSubscriptionID != "sub_a" {
			t.Fatalf("real subscription after a phantom's deletion: %+v", s)
		}
	})
}

// TestGhost29806CancelAtPeriodEndReflected: scheduling a cancellation, by
// cancel_at_period_end or by a cancel_at date (the portal's way in current
// API versions), shows as "cancels soon" with the end date, sends one
// confirmation, and resuming clears it.
func TestGhost29806CancelAtPeriodEndReflected(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, billingtest.NewFake(t).URL, 50)
		var seq eventSeq
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		t0 := e.clock.Now().Unix()
		e.mustDeliver(seq.subEvent("created", t0, m.sub))

		s := m.sub
		s.CancelAtPeriodEnd = true
		if changed := e.mustDeliver(seq.subEvent("updated", t0+1, s)); len(changed) != 1 {
			t.Fatalf("cancellation changed %v", changed)
		}
		got := e.sub(m.id)
		if !got.CancelAtPeriodEnd || !got.Active() || got.CurrentPeriodEnd.Unix() != m.sub.PeriodEnd {
			t.Fatalf("cancel at period end: %+v", got)
		}
		end := time.Unix(m.sub.PeriodEnd, 0).UTC().Format("January 2, 2006")
		// Mails written within one millisecond share a time, so their order is not asserted.
		if mails := e.mails(m.email); len(mails) != 2 || !slices.Contains(mails, "Your tribe membership will end on "+end) {
			t.Fatalf("mails %v", mails)
		}
		e.mustDeliver(seq.subEvent("updated", t0+2, s)) // the same again: no second mail
		s.CancelAtPeriodEnd = false
		e.mustDeliver(seq.subEvent("updated", t0+3, s))
		if got := e.sub(m.id); got.CancelAtPeriodEnd || !got.Active() {
			t.Fatalf("resumed: %+v", got)
		}

		// The portal's cancel_at: a date, with cancel_at_period_end false.
		s.CancelAt = t0 + 10*24*3600
		e.mustDeliver(seq.subEvent("updated", t0+4, s))
		got = e.sub(m.id)
		if !got.CancelAtPeriodEnd || got.CurrentPeriodEnd.Unix() != s.CancelAt {
			t.Fatalf("cancel_at: %+v", got)
		}
		mails := e.mails(m.email)
		ending := 0
		for _, subject := range mails {
			if strings.HasPrefix(subject, "Your tribe membership will end on ") {
				ending++
			}
		}
		if len(mails) != 3 || ending != 2 {
			t.Fatalf("mails %v", mails)
		}
		s.CancelAt = 0
		e.mustDeliver(seq.subEvent("updated", t0+5, s))
		if got := e.sub(m.id); got.CancelAtPeriodEnd || got.CurrentPeriodEnd.Unix() != m.sub.PeriodEnd {
			t.Fatalf("cancel_at removed: %+v", got)
		}
	})
}
