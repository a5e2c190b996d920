package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tribe/internal/store"
)

// row is a member's subscriptions row as apply needs it.
type row struct {
	Exists        bool
	Status        string
	SubID         string
	PeriodEnd     *time.Time
	CancelSoon    bool
	Complimentary bool
	CompUntil     *time.Time
	SyncedAt      int64
}

func readRow(ctx context.Context, q querier, userID string) (row, error) {
	var (
		r         row
		end, comp store.NullTime
	)
	err := q.QueryRowContext(ctx,
		`SELECT status, COALESCE(stripe_subscription_id, ''), current_period_end, cancel_at_period_end,
		        complimentary, comp_until, stripe_synced_at
		 FROM subscriptions WHERE user_id = $1`, userID).
		Scan(&r.Status, &r.SubID, &end, &r.CancelSoon, &r.Complimentary, &comp, &r.SyncedAt)
	if errors.Is(err, sql.ErrNoRows) {
		return row{}, nil
	}
	if err != nil {
		return row{}, fmt.Errorf("read subscription of %s: %w", userID, err)
	}
	r.Exists = true
	if end.Valid {
		t := end.Time.Time
		r.PeriodEnd = &t
	}
	if comp.Valid {
		t := comp.Time.Time
		r.CompUntil = &t
	}
	return r, nil
}

// compInForce reports whether the row is a complimentary membership that
// has not ended.
func (r row) compInForce(now time.Time) bool {
	return r.Exists && r.Complimentary && (r.CompUntil == nil || r.CompUntil.After(now))
}

// access is HasAccess for this row at now.
func (r row) access(now time.Time) bool {
	if !r.Exists || !GrantsAccess(r.Status) {
		return false
	}
	return !r.Complimentary || r.compInForce(now)
}

// choose decides which Stripe state, if any, to write over the member's row:
// in (from an event or a read), or fetched (read from Stripe because in came
// from the same second as the row's state, so their order is unknown). It
// returns nil and why when nothing is to be written.
func choose(cur row, in remoteSub, fetched *remoteSub, now time.Time) (*remoteSub, string) {
	switch {
	case !in.OurPrice:
		return nil, "not for the tribe's prices"
	case cur.compInForce(now) && !in.grants():
		return nil, "the member is complimentary"
	case cur.compInForce(now):
		return &in, "" // they pay now: the paid subscription takes over
	case cur.SubID != "" && cur.SubID != in.ID:
		// Another subscription of the same member.
		if cur.access(now) {
			return nil, "another subscription of the member gives access"
		}
		if in.grants() || in.AsOf > cur.SyncedAt {
			return &in, ""
		}
		return nil, "older than the member's other subscription"
	case in.AsOf > cur.SyncedAt:
		return &in, ""
	case in.AsOf == cur.SyncedAt:
		if fetched != nil && fetched.ID == in.ID && fetched.AsOf >= cur.SyncedAt {
			return fetched, ""
		}
		return &in, ""
	default:
		return nil, "older than the state already applied"
	}
}

// userForSub finds the member a Stripe subscription belongs to: by the
// subscription already on a row, by the customer, or by the user_id
// metadata Checkout put on it. Never by e-mail address: a member may pay
// with any address. "" when it is nobody's.
func userForSub(ctx context.Context, q querier, in remoteSub) (string, error) {
	var id string
	err := q.QueryRowContext(ctx, `SELECT user_id FROM subscriptions WHERE stripe_subscription_id = $1`, in.ID).Scan(&id)
	if err == nil {
		return id, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("find the member of subscription %s: %w", in.ID, err)
	}
	if id, err = userOfCustomer(ctx, q, in.CustomerID); err != nil || id != "" {
		return id, err
	}
	return knownUser(ctx, q, in.MetaUserID)
}

// knownUser returns id when an account has it, else "".
func knownUser(ctx context.Context, q querier, id string) (string, error) {
	if id == "" {
		return "", nil
	}
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM users WHERE id = $1`, id).Scan(&n); err != nil {
		return "", fmt.Errorf("look up user %s: %w", id, err)
	}
	if n == 0 {
		return "", nil
	}
	return id, nil
}

// applySub writes a Stripe subscription's state over the member's row when
// it is newer (see choose), sends the mail the change calls for, and frees
// the member's checkout seat once they have access. It reports whether
// anything the member sees changed.
func (s *Service) applySub(ctx context.Context, tx *sql.Tx, userID string, in remoteSub, fetched *remoteSub) (bool, error) {
	if err := lock(ctx, s.db, tx, memberKey(userID)); err != nil {
		return false, err
	}
	now := s.now()
	cur, err := readRow(ctx, tx, userID)
	if err != nil {
		return false, err
	}
	next, why := choose(cur, in, fetched, now)
	if next == nil {
		s.log.DebugContext(ctx, "billing: subscription state not applied", "user", userID, "subscription", in.ID, "why", why)
		return false, nil
	}
	if in.CustomerID != "" {
		if _, err := linkCustomer(ctx, tx, userID, in.CustomerID); err != nil {
			return false, err
		}
	}
	// The row takes next's customer, which must be nobody else's: the
	// customer column is unique, and a member's billing is never moved.
	if err := foreignCustomer(ctx, tx, userID, next.CustomerID); err != nil {
		return false, err
	}
	var end store.NullTime
	if !next.PeriodEnd.IsZero() {
		end = store.NullTime{Time: store.At(next.PeriodEnd), Valid: true}
	}
	var customer any
	if next.CustomerID != "" {
		customer = next.CustomerID
	}
	_, err = tx.ExecContext(ctx,
		`INSERT INTO subscriptions (user_id, status, current_period_end, stripe_customer_id, stripe_subscription_id,
		                            cancel_at_period_end, complimentary, comp_until, stripe_synced_at, updated_at)
		 VALUES ($1, $2, $3, $4, $5, $6, FALSE, NULL, $7, $8)
		 ON CONFLICT (user_id) DO UPDATE SET status = excluded.status, current_period_end = excluded.current_period_end,
		   stripe_customer_id = COALESCE(excluded.stripe_customer_id, subscriptions.stripe_customer_id),
		   stripe_subscription_id = excluded.stripe_subscription_id, cancel_at_period_end = excluded.cancel_at_period_end,
		   complimentary = FALSE, comp_until = NULL, stripe_synced_at = excluded.stripe_synced_at,
		   updated_at = excluded.updated_at`,
		userID, next.Status, end, customer, next.ID, next.CancelSoon, max(cur.SyncedAt, next.AsOf), store.At(now))
	if err != nil {
		return false, fmt.Errorf("write subscription %s of %s: %w", next.ID, userID, err)
	}
	if err := appendLedger(ctx, tx, ledgerOfSub(userID, in, *next), now); err != nil {
		return false, err
	}
	after := next.grants()
	released := false
	if after {
		if released, _, err = releaseSeatTx(ctx, tx, userID, ""); err != nil {
			return false, err
		}
	}
	if err := s.mailOnChange(ctx, tx, userID, cur, *next, now); err != nil {
		return false, err
	}
	changed := released || !cur.Exists || cur.Status != next.Status || cur.SubID != next.ID ||
		cur.CancelSoon != next.CancelSoon || cur.Complimentary || !sameTime(cur.PeriodEnd, next.PeriodEnd)
	return changed, nil
}

// mailOnChange sends the welcome when access starts and the confirmation
// when a cancellation is newly scheduled.
func (s *Service) mailOnChange(ctx context.Context, tx *sql.Tx, userID string, cur row, next remoteSub, now time.Time) error {
	if !next.grants() {
		return nil
	}
	if !cur.access(now) {
		if err := s.mailWelcome(ctx, tx, userID); err != nil {
			return err
		}
	}
	wasScheduled := cur.access(now) && cur.SubID == next.ID && cur.CancelSoon
	if next.CancelSoon && !wasScheduled {
		return s.mailCancelScheduled(ctx, tx, userID, next.PeriodEnd)
	}
	return nil
}

func sameTime(a *time.Time, b time.Time) bool {
	if a == nil {
		return b.IsZero()
	}
	return a.Equal(b)
}
