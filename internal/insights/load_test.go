package insights

import (
	"context"
	"fmt"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestKeptLedgerSeesEveryNewRow: the kept timeline takes rows recorded
// since its last read, and one recorded long before (a late commit, a
// skewed clock) is found by the count and read with the rest.
func TestKeptLedgerSeesEveryNewRow(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		now := time.Now().UTC()
		add := func(seq int, recorded time.Time) {
			t.Helper()
			if _, err := db.Write.ExecContext(ctx, `INSERT INTO membership_ledger (id, user_id, user_seq, occurred_at, recorded_at, source, status)
				VALUES ($1, 'u1', $2, $3, $4, 'webhook', 'active')`, fmt.Sprintf("evt_%d", seq), seq, store.At(now), store.At(recorded)); err != nil {
				t.Fatal(err)
			}
		}
		changes := func() int {
			t.Helper()
			tl, err := timeline(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			return tl.Len()
		}
		if n := changes(); n != 0 {
			t.Fatalf("empty ledger: %d changes", n)
		}
		add(1, now)
		if n := changes(); n != 1 {
			t.Fatalf("after one row: %d", n)
		}
		add(2, now.Add(-time.Hour))
		if n := changes(); n != 2 {
			t.Fatalf("after a row recorded an hour back: %d", n)
		}
		add(3, now.Add(time.Second))
		if n := changes(); n != 3 {
			t.Fatalf("after a third row: %d", n)
		}
	})
}

// TestKeptAccountTimesSeeNewAccounts: the kept creation times change when
// an account is added or removed.
func TestKeptAccountTimesSeeNewAccounts(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		count := func() int {
			t.Helper()
			times, err := auth.AccountTimes(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			return len(times)
		}
		if n := count(); n != 0 {
			t.Fatalf("no accounts: %d", n)
		}
		if _, err := db.Write.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash) VALUES ('u1', 'a@example.com', 'a@example.com', 'x')`); err != nil {
			t.Fatal(err)
		}
		if n := count(); n != 1 {
			t.Fatalf("after a sign-up: %d", n)
		}
		if _, err := db.Write.ExecContext(ctx, `DELETE FROM users WHERE id = 'u1'`); err != nil {
			t.Fatal(err)
		}
		if n := count(); n != 0 {
			t.Fatalf("after a deletion: %d", n)
		}
	})
}
