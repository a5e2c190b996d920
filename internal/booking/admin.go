package booking

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"tribe/internal/errs"
	"tribe/internal/store"
)

// The admin list's views.
const (
	ScopeUpcoming  = "upcoming"  // held, requested and confirmed, not yet over
	ScopePast      = "past"      // completed, no-shows, and confirmed ones that are over
	ScopeCancelled = "cancelled" // cancelled, declined and expired
)

// Filter narrows the admin list. Zero values mean no narrowing; Scope
// defaults to upcoming.
type Filter struct {
	Scope string
	Type  string
	Email string
	// UserID keeps the bookings a signed-in member made (a member's own
	// list, read by their assistant).
	UserID string
	From   time.Time // calls starting at or after
	To     time.Time // calls starting before
	Limit  int       // at most 500; default 100
	Offset int
}

// List returns bookings for the owner: upcoming ones soonest first, the
// others latest first.
func (s *Service) List(ctx context.Context, f Filter) ([]*Booking, error) {
	now := store.At(s.now())
	where, order := []string{}, "start_at DESC"
	args := []any{}
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	switch f.Scope {
	case "", ScopeUpcoming:
		where = append(where, `status IN `+blockingSQL, `end_at > `+arg(now))
		order = "start_at ASC"
	case ScopePast:
		where = append(where, `(status IN ('completed', 'no_show') OR (status = 'confirmed' AND end_at <= `+arg(now)+`))`)
	case ScopeCancelled:
		where = append(where, `status IN ('cancelled', 'declined', 'expired')`)
	default:
		return nil, errs.Field("scope", "Scope must be upcoming, past or cancelled.")
	}
	if f.Type != "" {
		where = append(where, `type_id = `+arg(f.Type))
	}
	if f.Email != "" {
		where = append(where, `email_normalized = `+arg(strings.ToLower(strings.TrimSpace(f.Email))))
	}
	if f.UserID != "" {
		where = append(where, `user_id = `+arg(f.UserID))
	}
	if !f.From.IsZero() {
		where = append(where, `start_at >= `+arg(store.At(f.From)))
	}
	if !f.To.IsZero() {
		where = append(where, `start_at < `+arg(store.At(f.To)))
	}
	limit := f.Limit
	if limit <= 0 || limit > 500 {
		limit = 100
	}
	q := `SELECT ` + bookingColumns + ` FROM bookings WHERE ` + strings.Join(where, " AND ") +
		` ORDER BY ` + order + `, id LIMIT ` + arg(limit) + ` OFFSET ` + arg(max(f.Offset, 0))
	rows, err := s.db.Read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list bookings: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []*Booking{}
	for rows.Next() {
		b, err := scanBooking(rows)
		if err != nil {
			return nil, fmt.Errorf("list bookings: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list bookings: %w", err)
	}
	return out, nil
}

// Revenue is one currency's booking money in a month, in its smallest unit:
// what was paid, what was refunded, and the difference.
type Revenue struct {
	Currency string `json:"currency"`
	Gross    int64  `json:"gross"`
	Refunded int64  `json:"refunded"`
	Net      int64  `json:"net"`
}

// MonthRevenue sums the booking money of a month (YYYY-MM) of the owner's
// calendar: payments received in it and refunds made in it, per currency.
func (s *Service) MonthRevenue(ctx context.Context, month string) ([]Revenue, error) {
	_, r, err := s.settings(ctx)
	if err != nil {
		return nil, err
	}
	m, err := time.Parse("2006-01", month)
	if err != nil || len(month) != 7 {
		return nil, errs.Field("month", "Month must be written YYYY-MM.")
	}
	from := time.Date(m.Year(), m.Month(), 1, 0, 0, 0, 0, r.loc)
	to := from.AddDate(0, 1, 0)
	byCur := map[string]*Revenue{}
	get := func(c string) *Revenue {
		if byCur[c] == nil {
			byCur[c] = &Revenue{Currency: c}
		}
		return byCur[c]
	}
	for _, q := range []struct {
		sql   string
		gross bool
	}{
		{`SELECT currency, CAST(COALESCE(SUM(amount - discount), 0) AS BIGINT) FROM bookings WHERE paid_at >= $1 AND paid_at < $2 GROUP BY currency`, true},
		{`SELECT currency, CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM booking_refunds WHERE created_at >= $1 AND created_at < $2 GROUP BY currency`, false},
	} {
		rows, err := s.db.Read.QueryContext(ctx, q.sql, store.At(from), store.At(to))
		if err != nil {
			return nil, fmt.Errorf("month revenue: %w", err)
		}
		for rows.Next() {
			var (
				cur string
				sum int64
			)
			if err := rows.Scan(&cur, &sum); err != nil {
				_ = rows.Close()
				return nil, fmt.Errorf("month revenue: %w", err)
			}
			if q.gross {
				get(cur).Gross = sum
			} else {
				get(cur).Refunded = sum
			}
		}
		err = rows.Err()
		_ = rows.Close()
		if err != nil {
			return nil, fmt.Errorf("month revenue: %w", err)
		}
	}
	out := []Revenue{}
	for _, c := range sortedKeys(byCur) {
		v := *byCur[c]
		v.Net = v.Gross - v.Refunded
		out = append(out, v)
	}
	return out, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Each calls fn with every booking, oldest start first: the bookings export.
func (s *Service) Each(ctx context.Context, fn func(*Booking) error) error {
	rows, err := s.db.Read.QueryContext(ctx, `SELECT `+bookingColumns+` FROM bookings ORDER BY start_at, id`)
	if err != nil {
		return fmt.Errorf("export bookings: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		b, err := scanBooking(rows)
		if err != nil {
			return fmt.Errorf("export bookings: %w", err)
		}
		if err := fn(b); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("export bookings: %w", err)
	}
	return nil
}
