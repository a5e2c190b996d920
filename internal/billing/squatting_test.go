package billing

import (
	"fmt"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestUnpaidCheckoutsCannotHoldEverySeat is the review's attack: 47
// throwaway accounts from 3 addresses pressed Subscribe and held every free
// seat (31 minutes each, renewable by pressing again), so a real buyer got
// 409 at_capacity while the public status still said 48 spots left. Now a
// hold needs a confirmed address, each client address holds at most a few
// seats, pressing again never renews a hold, and the status counts held
// seats as Checkout does.
func TestUnpaidCheckoutsCannotHoldEverySeat(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		e.subscribe(e.user("member@example.com", "Member"), StatusActive)
		e.subscribe(e.user("member2@example.com", "Member"), StatusActive)

		// Throwaway accounts with typed, unconfirmed addresses hold nothing.
		for i := range 10 {
			id := e.unconfirmedUser(fmt.Sprintf("throwaway%d@example.com", i), "Throwaway")
			if _, err := e.svc.Checkout(e.ctx, id, "", "203.0.113.1", "members"); !errs.Is(err, errs.Forbidden) {
				t.Fatalf("unconfirmed account %d: %v, want forbidden", i, err)
			}
		}
		// 47 confirmed accounts from 3 addresses: 3 holds per address.
		held, limited := 0, 0
		for i := range 47 {
			id := e.user(fmt.Sprintf("squatter%d@example.com", i), "Squatter")
			_, err := e.svc.Checkout(e.ctx, id, "", fmt.Sprintf("203.0.113.%d", 10+i%3), "members")
			switch {
			case err == nil:
				held++
			case errs.Is(err, errs.RateLimited):
				limited++
			default:
				t.Fatalf("squatter %d: %v", i, err)
			}
		}
		if held != 9 || limited != 38 {
			t.Fatalf("%d seats held and %d refused, want 9 and 38", held, limited)
		}
		st, err := e.svc.Status(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.ActiveMembers != 2 || st.Held != 9 || st.SpotsLeft != 39 || st.AtCapacity {
			t.Fatalf("status %+v, want 2 members, 9 held, 39 left", st)
		}
		// A real buyer still gets a checkout.
		buyer := e.user("buyer@example.com", "Buyer")
		if _, err := e.svc.Checkout(e.ctx, buyer, "buyer@example.com", "198.51.100.7", "members"); err != nil {
			t.Fatalf("the real buyer: %v", err)
		}
		if st, _ := e.svc.Status(e.ctx); st.Held != 10 || st.SpotsLeft != 38 {
			t.Fatalf("status after the buyer's checkout %+v", st)
		}
		// Once the squatters' holds run out, their seats are free again
		// without any event.
		e.clock.Advance(CheckoutTTL)
		if st, _ := e.svc.Status(e.ctx); st.Held != 0 || st.SpotsLeft != 48 {
			t.Fatalf("status after the holds ran out %+v", st)
		}
	})
}

// TestPressingAgainDoesNotRenewAHold: a member keeps getting the same
// session until it runs out, and one account cannot start holds all day
// long: after holds.Seats.PerAccount starts within a day it is refused.
func TestPressingAgainDoesNotRenewAHold(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		ada := e.user("ada@example.com", "Ada")
		var urls []string
		for range 3 {
			first, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "198.51.100.1", "members")
			if err != nil {
				t.Fatal(err)
			}
			for _, wait := range []time.Duration{time.Minute, CheckoutTTL - 3*time.Minute} {
				e.clock.Advance(wait)
				again, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "198.51.100.1", "members")
				if err != nil || again != first {
					t.Fatalf("press again after %v: %q %v, want the same session %q", wait, again, err, first)
				}
			}
			h, err := readHold(e.ctx, db.Read, ada)
			if err != nil || h == nil || !h.ExpiresAt.Equal(e.clock.Now().Add(2*time.Minute)) {
				t.Fatalf("the hold moved: %+v %v", h, err)
			}
			urls = append(urls, first)
			e.clock.Advance(2 * time.Minute) // the hold runs out
		}
		if urls[0] == urls[1] || urls[1] == urls[2] {
			t.Fatalf("sessions %v", urls)
		}
		if _, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "198.51.100.1", "members"); !errs.Is(err, errs.RateLimited) {
			t.Fatalf("a fourth hold in a day: %v, want rate_limited", err)
		}
		e.clock.Advance(24 * time.Hour)
		if _, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "198.51.100.1", "members"); err != nil {
			t.Fatalf("the next day: %v", err)
		}
	})
}

// TestStatusAndCheckoutAgreeOnSpotsLeft: when the status says no spot is
// left (members plus held seats fill the cap) Checkout refuses, and as soon
// as it says one is left, Checkout gives it.
func TestStatusAndCheckoutAgreeOnSpotsLeft(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 4)
		for i := range 2 {
			e.subscribe(e.user(fmt.Sprintf("m%d@example.com", i), "Member"), StatusActive)
		}
		ada, bob, cy := e.user("ada@example.com", "Ada"), e.user("bob@example.com", "Bob"), e.user("cy@example.com", "Cy")
		if _, err := e.svc.Checkout(e.ctx, ada, "", "198.51.100.1", "members"); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(10 * time.Minute)
		if _, err := e.svc.Checkout(e.ctx, bob, "", "198.51.100.2", "members"); err != nil {
			t.Fatal(err)
		}
		st, _ := e.svc.Status(e.ctx)
		if st.SpotsLeft != 0 || !st.AtCapacity || st.Held != 2 || st.ActiveMembers != 2 {
			t.Fatalf("status %+v, want 0 left with 2 held", st)
		}
		if _, err := e.svc.Checkout(e.ctx, cy, "", "198.51.100.3", "members"); !errs.Is(err, errs.AtCapacity) {
			t.Fatalf("checkout while the status says 0 left: %v", err)
		}
		e.clock.Advance(CheckoutTTL - 10*time.Minute) // Ada's hold runs out
		st, _ = e.svc.Status(e.ctx)
		if st.SpotsLeft != 1 || st.AtCapacity || st.Held != 1 {
			t.Fatalf("status %+v, want 1 left with 1 held", st)
		}
		if _, err := e.svc.Checkout(e.ctx, cy, "", "198.51.100.3", "members"); err != nil {
			t.Fatalf("checkout while the status says 1 left: %v", err)
		}
		if st, _ := e.svc.Status(e.ctx); st.SpotsLeft != 0 || !st.AtCapacity {
			t.Fatalf("status %+v after the last spot was taken", st)
		}
	})
}
