// Package billing owns the subscriptions table and everything that changes
// it: Stripe Checkout and the customer portal, signed webhooks applied once
// and in order, complimentary membership, the seat holds that keep the tribe
// under its cap, and the one rule for who has access (HasAccess).
//
// The read side (this file) is a set of functions on a *store.DB that every
// part of the program may call; the write side is a Service built once with
// the database, the configuration, a Stripe client and a clock.
package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tribe/internal/access"
	"tribe/internal/store"
)

// Subscription statuses, as Stripe names them. The subscriptions table
// accepts exactly these.
const (
	StatusActive            = "active"
	StatusTrialing          = "trialing"
	StatusPastDue           = "past_due"
	StatusCanceled          = "canceled"
	StatusUnpaid            = "unpaid"
	StatusIncomplete        = "incomplete"
	StatusIncompleteExpired = "incomplete_expired"
	StatusPaused            = "paused"
)

// GrantsAccess reports whether a subscription status gives tribe access:
// active and trialing do, and so does past_due while Stripe retries the
// payment; unpaid, canceled, incomplete, incomplete_expired and paused do not.
func GrantsAccess(status string) bool {
	switch status {
	case StatusActive, StatusTrialing, StatusPastDue:
		return true
	}
	return false
}

// accessSQL is GrantsAccess, plus the end of a complimentary membership, as a
// condition on the subscriptions row aliased a; the clock is the query
// parameter numbered param. It must agree with Subscription.Active (a test
// checks both on every status).
func accessSQL(a string, param int) string {
	return fmt.Sprintf(`(%[1]s.status IN ('active', 'trialing', 'past_due') AND
		(%[1]s.complimentary = FALSE OR %[1]s.comp_until IS NULL OR %[1]s.comp_until > $%[2]d))`, a, param)
}

// AccessCondition is the access rule as an SQL condition on the
// subscriptions row aliased a, the clock being query parameter param: for
// queries that list members with access (reminders, the at-risk list).
func AccessCondition(a string, param int) string { return accessSQL(a, param) }

// Subscription is what a member may see of their own subscription.
type Subscription struct {
	// Status is Stripe's status; a complimentary membership that has ended
	// reads "canceled".
	Status           string     `json:"status" tstype:"Status"`
	CurrentPeriodEnd *time.Time `json:"current_period_end" tstype:"string | null,required"`
	// CancelAtPeriodEnd is true when the membership ends at CurrentPeriodEnd
	// instead of renewing ("Cancels Soon"), however the cancellation was
	// scheduled.
	CancelAtPeriodEnd bool `json:"cancel_at_period_end"`
	// Complimentary is true for a membership an admin gave; it never renews
	// and CurrentPeriodEnd is its end, or nil for no end.
	Complimentary bool `json:"complimentary"`
	// HasSubscriptionID says a Stripe subscription is linked: after
	// Checkout the members area waits for an active status with one.
	HasSubscriptionID bool `json:"has_subscription_id"`
	// compUntil is when a complimentary membership ends (nil: never); the
	// admins' members list shows it.
	compUntil *time.Time
	// StripeSubscriptionID is empty for a complimentary membership. Never
	// sent: HasSubscriptionID says what the browser needs.
	StripeSubscriptionID string `json:"-"`
}

// Active reports whether s gives its owner tribe access now; nil is a free
// member. It agrees with HasAccess.
func (s *Subscription) Active() bool { return s != nil && GrantsAccess(s.Status) }

// subscriptionColumns are read by scanSubscription, in this order.
const subscriptionColumns = `status, current_period_end, cancel_at_period_end, complimentary, comp_until,
	COALESCE(stripe_subscription_id, '')`

func scanSubscription(row interface{ Scan(...any) error }, now time.Time) (*Subscription, error) {
	var (
		sub       Subscription
		end, comp store.NullTime
	)
	if err := row.Scan(&sub.Status, &end, &sub.CancelAtPeriodEnd, &sub.Complimentary, &comp, &sub.StripeSubscriptionID); err != nil {
		return nil, err
	}
	if end.Valid {
		t := end.Time.Time
		sub.CurrentPeriodEnd = &t
	}
	sub.HasSubscriptionID = sub.StripeSubscriptionID != ""
	if comp.Valid {
		t := comp.Time.Time
		sub.compUntil = &t
	}
	if sub.Complimentary && comp.Valid && !comp.Time.After(now) {
		sub.Status = StatusCanceled
	}
	return &sub, nil
}

// subscriptionAt reads the user's subscription as it stands at now; nil when
// there is none.
func subscriptionAt(ctx context.Context, q querier, userID string, now time.Time) (*Subscription, error) {
	return readSubscription(q.QueryRowContext(ctx, subscriptionQuery, userID), userID, now)
}

const subscriptionQuery = `SELECT ` + subscriptionColumns + ` FROM subscriptions WHERE user_id = $1`

func readSubscription(row *sql.Row, userID string, now time.Time) (*Subscription, error) {
	sub, err := scanSubscription(row, now)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read subscription of %s: %w", userID, err)
	}
	return sub, nil
}

// SubscriptionOf returns the user's subscription, or nil when there is none.
// It is on every signed-in request's path (the access check), so it runs
// through a statement prepared once per database.
func SubscriptionOf(ctx context.Context, db *store.DB, userID string) (*Subscription, error) {
	return readSubscription(db.ReadRow(ctx, subscriptionQuery, userID), userID, time.Now())
}

// HasAccess is the one rule for whether a user has tribe access now: the
// member area's paywall, the calendar feed, the group chat and the capacity
// count all follow it. Paying members whose status grants access
// (GrantsAccess) and complimentary members whose membership has not ended
// have access.
func HasAccess(ctx context.Context, db *store.DB, userID string) (bool, error) {
	sub, err := SubscriptionOf(ctx, db, userID)
	if err != nil {
		return false, fmt.Errorf("check access of %s: %w", userID, err)
	}
	return sub.Active(), nil
}

// ViewerOf is the viewer a user is now: admin as given (decided by auth),
// member by HasAccess. Admins are not asked about; they see everything.
func ViewerOf(ctx context.Context, db *store.DB, userID string, admin bool) (access.Viewer, error) {
	v := access.Viewer{UserID: userID, Admin: admin}
	if userID == "" || admin {
		return v, nil
	}
	member, err := HasAccess(ctx, db, userID)
	if err != nil {
		return access.Viewer{}, err
	}
	v.Member = member
	return v, nil
}

// countAccess is the number of members with access at now.
func countAccess(ctx context.Context, q querier, now time.Time) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM subscriptions s WHERE `+accessSQL("s", 1), store.At(now)).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count members with access: %w", err)
	}
	return n, nil
}

// TribeStatus is how full the tribe is.
type TribeStatus struct {
	Capacity      int `json:"capacity"`
	ActiveMembers int `json:"active_members"`
	// Held is the seats held by open checkouts of people without access:
	// taken until the checkout is paid or runs out.
	Held int `json:"held"`
	// SpotsLeft is what a new checkout can still take: the capacity less
	// the members and the held seats.
	SpotsLeft  int  `json:"spots_left"`
	AtCapacity bool `json:"at_capacity"`
	// PaymentsEnabled says online payment (Stripe) is set up, so Subscribe
	// can take a member to checkout.
	PaymentsEnabled bool `json:"payments_enabled"`
	// Plans are the plans Subscribe offers (monthly, and annual when
	// STRIPE_PRICE_ID_ANNUAL is set); empty when payment is off. Only
	// GET /api/tribe/status fills it.
	Plans []PlanOffer `json:"plans"`
}

// status counts members with access and held seats against capacity at now.
func status(ctx context.Context, q querier, capacity int, now time.Time) (TribeStatus, error) {
	active, held, err := seatUse(ctx, q, "", now)
	if err != nil {
		return TribeStatus{}, err
	}
	return TribeStatus{
		Capacity:      capacity,
		ActiveMembers: active,
		Held:          held,
		SpotsLeft:     max(capacity-active-held, 0),
		AtCapacity:    active+held >= capacity,
		Plans:         []PlanOffer{},
	}, nil
}

// querier is *sql.DB or *sql.Tx.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}
