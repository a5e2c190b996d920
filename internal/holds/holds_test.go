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
