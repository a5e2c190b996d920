// Package billing is the one place that reads and writes the subscriptions
// table. For now it only answers the questions the members area asks (is this
// user a subscriber, how many active members are there); checkout, the
// customer portal, webhooks and complimentary access will grow here.
package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tribe/internal/store"
)

// StatusActive is the only subscription status that makes a user a subscriber.
const StatusActive = "active"

// Subscription is what a member may see of their own subscription.
type Subscription struct {
	Status            string     `json:"status"`
	CurrentPeriodEnd  *time.Time `json:"current_period_end"`
	CancelAtPeriodEnd bool       `json:"cancel_at_period_end"`
}

// Active reports whether s makes its owner a subscriber; nil is a free member.
func (s *Subscription) Active() bool { return s != nil && s.Status == StatusActive }

// SubscriptionOf returns the user's subscription, or nil when there is none.
func SubscriptionOf(ctx context.Context, db *store.DB, userID string) (*Subscription, error) {
	var (
		sub    Subscription
		end    store.NullTime
		cancel bool
	)
	err := db.Read.QueryRowContext(ctx,
		`SELECT status, current_period_end, cancel_at_period_end FROM subscriptions WHERE user_id = $1`,
		userID).Scan(&sub.Status, &end, &cancel)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read subscription of %s: %w", userID, err)
	}
	if end.Valid {
		t := end.Time.Time
		sub.CurrentPeriodEnd = &t
	}
	sub.CancelAtPeriodEnd = cancel
	return &sub, nil
}

// IsSubscriber reports whether the user's subscription is active now.
func IsSubscriber(ctx context.Context, db *store.DB, userID string) (bool, error) {
	var n int
	err := db.Read.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM subscriptions WHERE user_id = $1 AND status = $2`, userID, StatusActive).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("check subscription of %s: %w", userID, err)
	}
	return n > 0, nil
}

// CountActive is the number of active subscriptions: the tribe's member count.
func CountActive(ctx context.Context, db *store.DB) (int, error) {
	var n int
	err := db.Read.QueryRowContext(ctx,
		`SELECT COUNT(*) FROM subscriptions WHERE status = $1`, StatusActive).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count active subscriptions: %w", err)
	}
	return n, nil
}

// TribeStatus is how full the tribe is.
type TribeStatus struct {
	Capacity      int  `json:"capacity"`
	ActiveMembers int  `json:"active_members"`
	SpotsLeft     int  `json:"spots_left"`
	AtCapacity    bool `json:"at_capacity"`
}

// Status counts active members against the configured capacity.
func Status(ctx context.Context, db *store.DB, capacity int) (TribeStatus, error) {
	n, err := CountActive(ctx, db)
	if err != nil {
		return TribeStatus{}, err
	}
	return TribeStatus{
		Capacity:      capacity,
		ActiveMembers: n,
		SpotsLeft:     max(capacity-n, 0),
		AtCapacity:    n >= capacity,
	}, nil
}
