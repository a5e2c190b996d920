package billing

import (
	"context"
	"strings"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestSubscriptionsAndStatus(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		add := func(email, status string, cancel bool) string {
			id := store.NewID()
			if _, err := db.Write.ExecContext(ctx, `INSERT INTO users (id, email, email_normalized, password_hash) VALUES ($1, $2, $3, 'x')`,
				id, email, strings.ToLower(email)); err != nil {
				t.Fatal(err)
			}
			if status != "" {
				if _, err := db.Write.ExecContext(ctx,
					`INSERT INTO subscriptions (user_id, status, current_period_end, cancel_at_period_end) VALUES ($1, $2, $3, $4)`,
					id, status, store.At(time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)), cancel); err != nil {
					t.Fatal(err)
				}
			}
			return id
		}
		free := add("free@example.com", "", false)
		paid := add("paid@example.com", "active", true)
		add("late@example.com", "past_due", false)

		if s, err := SubscriptionOf(ctx, db, free); err != nil || s != nil || s.Active() {
			t.Fatalf("free: %+v %v", s, err)
		}
		s, err := SubscriptionOf(ctx, db, paid)
		if err != nil || !s.Active() || !s.CancelAtPeriodEnd || !s.CurrentPeriodEnd.Equal(time.Date(2027, 2, 1, 0, 0, 0, 0, time.UTC)) {
			t.Fatalf("paid: %+v %v", s, err)
		}
		if ok, _ := IsSubscriber(ctx, db, paid); !ok {
			t.Error("active subscription not a subscriber")
		}
		if ok, _ := IsSubscriber(ctx, db, free); ok {
			t.Error("free member counted as subscriber")
		}
		st, err := Status(ctx, db, 50)
		if err != nil || st != (TribeStatus{Capacity: 50, ActiveMembers: 1, SpotsLeft: 49}) {
			t.Fatalf("status %+v %v", st, err)
		}
		if st, _ := Status(ctx, db, 1); !st.AtCapacity || st.SpotsLeft != 0 {
			t.Fatalf("at capacity: %+v", st)
		}
	})
}
