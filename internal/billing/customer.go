package billing

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/stripe/stripe-go/v86"
)

// customerOf is the member's Stripe customer id, "" when they have none. The
// billing_customers row is the link; older rows may only have it on the
// subscription.
func customerOf(ctx context.Context, q querier, userID string) (string, error) {
	var id string
	err := q.QueryRowContext(ctx,
		`SELECT stripe_customer_id FROM billing_customers WHERE user_id = $1
		 UNION ALL
		 SELECT stripe_customer_id FROM subscriptions WHERE user_id = $1 AND stripe_customer_id IS NOT NULL`,
		userID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read customer of %s: %w", userID, err)
	}
	return id, nil
}

// userOfCustomer is the member a Stripe customer belongs to, "" when the
// customer is not linked to anyone.
func userOfCustomer(ctx context.Context, q querier, customerID string) (string, error) {
	if customerID == "" {
		return "", nil
	}
	var id string
	err := q.QueryRowContext(ctx,
		`SELECT user_id FROM billing_customers WHERE stripe_customer_id = $1
		 UNION ALL
		 SELECT user_id FROM subscriptions WHERE stripe_customer_id = $1`, customerID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("find the member of customer %s: %w", customerID, err)
	}
	return id, nil
}

// rejection is Stripe state that must not be applied, and why: the webhook
// event that carries it is recorded as rejected (and answered 2xx, so Stripe
// does not retry it for days) instead of failing on a constraint for ever.
type rejection struct{ reason string }

func (r *rejection) Error() string { return "not applied: " + r.reason }

// foreignCustomer refuses a Stripe customer that belongs to another member
// than userID ("" customers belong to nobody).
func foreignCustomer(ctx context.Context, q querier, userID, customerID string) error {
	owner, err := userOfCustomer(ctx, q, customerID)
	if err != nil {
		return err
	}
	if owner != "" && owner != userID {
		return &rejection{reason: fmt.Sprintf("customer %s belongs to member %s, not to %s", customerID, owner, userID)}
	}
	return nil
}

// linkCustomer records customerID as the member's customer unless they
// already have one (the first link wins; a customer is never moved to another
// member: one that belongs to someone else is a rejection). It returns the
// member's customer after the call.
func linkCustomer(ctx context.Context, q querier, userID, customerID string) (string, error) {
	if err := foreignCustomer(ctx, q, userID, customerID); err != nil {
		return "", err
	}
	if _, err := q.ExecContext(ctx,
		`INSERT INTO billing_customers (user_id, stripe_customer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
		userID, customerID); err != nil {
		return "", fmt.Errorf("link customer %s to %s: %w", customerID, userID, err)
	}
	return customerOf(ctx, q, userID)
}

// ensureCustomer returns the member's Stripe customer, creating it the first
// time. Two presses at once (double click, two tabs) send the same
// idempotency key, so Stripe creates one customer and answers both with it;
// the unique user_id keeps the database to one link whatever happens.
func (s *Service) ensureCustomer(ctx context.Context, userID, email string) (string, error) {
	if id, err := customerOf(ctx, s.db.Read, userID); err != nil || id != "" {
		return id, err
	}
	params := &stripe.CustomerCreateParams{Metadata: map[string]string{"user_id": userID}}
	if e := strings.TrimSpace(email); e != "" {
		params.Email = stripe.String(e) // for receipts; never used to find the member
	}
	// The key changes with the address, because Stripe refuses a key reused
	// with other parameters; within one address it is stable.
	sum := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(email))))
	params.SetIdempotencyKey("tribe-customer-" + userID + "-" + hex.EncodeToString(sum[:6]))
	c, err := s.stripe.V1Customers.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("create Stripe customer for %s: %w", userID, err)
	}
	var id string
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		id, err = linkCustomer(ctx, tx, userID, c.ID)
		return err
	})
	return id, err
}

// Customers maps every member linked to a Stripe customer to that
// customer's id (customerOf for everyone at once: the members export).
func (s *Service) Customers(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.Read.QueryContext(ctx,
		`SELECT user_id, stripe_customer_id FROM subscriptions WHERE stripe_customer_id IS NOT NULL
		 UNION ALL
		 SELECT user_id, stripe_customer_id FROM billing_customers`)
	if err != nil {
		return nil, fmt.Errorf("read customers: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]string{}
	for rows.Next() {
		var user, customer string
		if err := rows.Scan(&user, &customer); err != nil {
			return nil, fmt.Errorf("read customers: %w", err)
		}
		out[user] = customer // billing_customers, read last, wins
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read customers: %w", err)
	}
	return out, nil
}
