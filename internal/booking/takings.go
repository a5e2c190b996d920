package booking

import (
	"context"
	"fmt"
	"time"

	"tribe/internal/store"
)

// Taking is one payment received for a booking, or one refund made.
type Taking struct {
	At       time.Time
	Amount   int64
	Currency string
	Refund   bool
}

// Takings lists the bookings' payments received and refunds made in
// [from, to), oldest first within each kind (the owner's insights).
func Takings(ctx context.Context, db *store.DB, from, to time.Time) ([]Taking, error) {
	out := []Taking{}
	for _, q := range []struct {
		sql    string
		refund bool
	}{
		{`SELECT paid_at, amount - discount, currency FROM bookings WHERE paid_at >= $1 AND paid_at < $2 ORDER BY paid_at`, false},
		{`SELECT created_at, amount, currency FROM booking_refunds WHERE created_at >= $1 AND created_at < $2 ORDER BY created_at`, true},
	} {
		rows, err := db.Read.QueryContext(ctx, q.sql, store.At(from), store.At(to))
		if err != nil {
			return nil, fmt.Errorf("read booking takings: %w", err)
		}
		for rows.Next() {
			var (
				t  Taking
				at store.Time
			)
			if err := rows.Scan(&at, &t.Amount, &t.Currency); err != nil {
				_ = rows.Close()
				return nil, fmt.Errorf("read booking takings: %w", err)
			}
			t.At, t.Refund = at.Time, q.refund
			out = append(out, t)
		}
		err = rows.Err()
		_ = rows.Close()
		if err != nil {
			return nil, fmt.Errorf("read booking takings: %w", err)
		}
	}
	return out, nil
}
