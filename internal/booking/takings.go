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

// Outcome is a call the owner marked after its start: taken place
// (completed) or missed by the booker (no-show).
type Outcome struct {
	Start  time.Time
	NoShow bool
}

// Outcomes lists the bookings marked completed or no-show that started in
// [from, to), oldest first (the owner's insights: the no-show rate).
func Outcomes(ctx context.Context, db *store.DB, from, to time.Time) ([]Outcome, error) {
	rows, err := db.ReadRows(ctx, `SELECT start_at, status FROM bookings
		WHERE status IN ('completed', 'no_show') AND start_at >= $1 AND start_at < $2 ORDER BY start_at`,
		store.At(from), store.At(to))
	if err != nil {
		return nil, fmt.Errorf("read call outcomes: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []Outcome{}
	for rows.Next() {
		var (
			at     store.Time
			status string
		)
		if err := rows.Scan(&at, &status); err != nil {
			return nil, fmt.Errorf("read call outcomes: %w", err)
		}
		out = append(out, Outcome{Start: at.Time, NoShow: status == StatusNoShow})
	}
	return out, rows.Err()
}
