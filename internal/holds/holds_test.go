package holds

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestHoldRule: a hold needs a confirmed address; a client address has at
// most PerClient live holds, of which a released one no longer counts; an
// account starts at most PerAccount holds within Window, of which a
// forgotten one (its checkout never opened) does not count.
func TestHoldRule(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Second)
		rule := Rule{Kind: KindSeat, PerClient: 2, PerAccount: 2, Window: time.Hour,
			Unconfirmed: "confirm", Busy: "busy", Spent: "spent"}
		user := func(confirmed bool) string {
			id := store.NewID()
			var at any
			if confirmed {
				at = store.At(now)
			}
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at) VALUES ($1, $2, $2, 'x', $3)`,
				id, id+"@example.org", at); err != nil {
				t.Fatal(err)
			}
			return id
		}
		admit := func(userID, client string, at time.Time) (string, error) {
			id := store.NewID()
			err := db.Tx(ctx, func(tx *sql.Tx) error {
				return rule.Admit(ctx, tx, Claim{ID: id, UserID: userID, Client: client, Expires: at.Add(30 * time.Minute)}, at)
			})
			return id, err
		}
		tx := func(fn func(tx *sql.Tx) error) {
			if err := db.Tx(ctx, fn); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := admit(user(false), "a", now); !errs.Is(err, errs.Forbidden) {
			t.Fatalf("unconfirmed: %v", err)
		}
		first, err := admit(user(true), "a", now)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := admit(user(true), "a", now); err != nil {
			t.Fatal(err)
		}
		if _, err := admit(user(true), "a", now); !errs.Is(err, errs.RateLimited) {
			t.Fatalf("third live hold from one client: %v", err)
		}
		tx(func(tx *sql.Tx) error { return Release(ctx, tx, first) })
		if _, err := admit(user(true), "a", now); err != nil {
			t.Fatalf("after a release: %v", err)
		}

		ada := user(true)
		one, err := admit(ada, "b", now)
		if err != nil {
			t.Fatal(err)
		}
		tx(func(tx *sql.Tx) error { return Forget(ctx, tx, one) })
		for range 2 {
			if _, err := admit(ada, "b", now); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := admit(ada, "c", now.Add(40*time.Minute)); !errs.Is(err, errs.RateLimited) {
			t.Fatalf("third start within the window: %v", err)
		}
		if _, err := admit(ada, "c", now.Add(61*time.Minute)); err != nil {
			t.Fatalf("after the window: %v", err)
		}
	})
}

// TestHoldRefusalsSayWhenToComeBack: a refusal carries the time until a new
// hold can be admitted (the 429's Retry-After), not a guess: for a busy
// client address, until its first live hold ends; for an account that
// started its share, until its oldest start leaves the window.
func TestHoldRefusalsSayWhenToComeBack(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Second)
		rule := Rule{Kind: KindSeat, PerClient: 2, PerAccount: 2, Window: time.Hour,
			Unconfirmed: "confirm", Busy: "busy", Spent: "spent"}
		user := func() string {
			id := store.NewID()
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at) VALUES ($1, $2, $2, 'x', $3)`,
				id, id+"@example.org", store.At(now)); err != nil {
				t.Fatal(err)
			}
			return id
		}
		admit := func(userID, client string, at time.Time, ttl time.Duration) error {
			return db.Tx(ctx, func(tx *sql.Tx) error {
				return rule.Admit(ctx, tx, Claim{ID: store.NewID(), UserID: userID, Client: client, Expires: at.Add(ttl)}, at)
			})
		}
		retryAfter := func(err error) time.Duration {
			t.Helper()
			e, ok := err.(*errs.Error)
			if !ok || e.Code != errs.RateLimited {
				t.Fatalf("%v, want rate_limited", err)
			}
			return e.RetryAfter
		}

		// Client "a": holds ending in 30 and 20 minutes; the third waits
		// 20 minutes, 5 of which have passed.
		if err := admit(user(), "a", now, 30*time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := admit(user(), "a", now, 20*time.Minute); err != nil {
			t.Fatal(err)
		}
		if got := retryAfter(admit(user(), "a", now.Add(5*time.Minute), 30*time.Minute)); got != 15*time.Minute {
			t.Errorf("busy client: retry after %v, want 15m", got)
		}

		// Ada started two holds, 10 and 25 minutes in; at minute 40 the
		// first start leaves the hour's window at minute 70.
		ada := user()
		if err := admit(ada, "b", now.Add(10*time.Minute), time.Minute); err != nil {
			t.Fatal(err)
		}
		if err := admit(ada, "c", now.Add(25*time.Minute), time.Minute); err != nil {
			t.Fatal(err)
		}
		if got := retryAfter(admit(ada, "d", now.Add(40*time.Minute), time.Minute)); got != 30*time.Minute {
			t.Errorf("spent account: retry after %v, want 30m", got)
		}
		if err := admit(ada, "d", now.Add(70*time.Minute+time.Second), time.Minute); err != nil {
			t.Errorf("after the time the refusal named: %v", err)
		}
	})
}

// Subscription checkouts counted each full IPv6 address as a client, so a
// /64 held every seat. The addresses of one /64 are one client now,
// whatever form the caller passes.
func TestSeatHoldsCountOneIPv6SlashSixtyFourAsOneClient(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC().Truncate(time.Second)
		admit := func(client string) error {
			id := store.NewID()
			if _, err := db.Write.ExecContext(ctx,
				`INSERT INTO users (id, email, email_normalized, password_hash, email_confirmed_at) VALUES ($1, $2, $2, 'x', $3)`,
				id, id+"@example.org", store.At(now)); err != nil {
				t.Fatal(err)
			}
			return db.Tx(ctx, func(tx *sql.Tx) error {
				return Seats.Admit(ctx, tx, Claim{ID: store.NewID(), UserID: id, Client: client, Expires: now.Add(31 * time.Minute)}, now)
			})
		}
		for i := range Seats.PerClient {
			if err := admit("2001:db8:5:6::" + string(rune('a'+i))); err != nil {
				t.Fatal(err)
			}
		}
		if err := admit("2001:db8:5:6:ffff::1"); !errs.Is(err, errs.RateLimited) {
			t.Fatalf("another address of the same /64: %v", err)
		}
		if err := admit("2001:db8:5:7::1"); err != nil {
			t.Fatalf("the next /64: %v", err)
		}
	})
}
