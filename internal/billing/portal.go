package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/stripe/stripe-go/v86"

	"tribe/internal/errs"
)

// Portal opens Stripe's customer portal for the member (update the card,
// see invoices, cancel or resume) and returns its URL; the portal returns to
// the members area. Refusals: no_billing_account for a member who never
// paid (complimentary members included), billing_unavailable when online
// payment is off, unavailable when Stripe does not answer.
func (s *Service) Portal(ctx context.Context, userID string) (string, error) {
	if !s.Enabled() {
		return "", errOff()
	}
	var customer string
	err := s.db.Read.QueryRowContext(ctx,
		`SELECT COALESCE(s.stripe_customer_id, c.stripe_customer_id, '')
		 FROM subscriptions s LEFT JOIN billing_customers c ON c.user_id = s.user_id
		 WHERE s.user_id = $1 AND s.stripe_subscription_id IS NOT NULL`, userID).Scan(&customer)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("read the billing account of %s: %w", userID, err)
	}
	if customer == "" {
		return "", errs.New(errs.NoBillingAccount,
			"You have no paid subscription to manage yet. Choose Subscribe to join the tribe.")
	}
	// Presses at the same moment (a double click, two tabs) share one
	// portal session.
	url, err := s.coalesce(ctx, "portal:"+userID, func(ctx context.Context) (any, error) {
		ps, err := s.stripe.V1BillingPortalSessions.Create(ctx, &stripe.BillingPortalSessionCreateParams{
			Customer:  stripe.String(customer),
			ReturnURL: stripe.String(s.membersURL()),
		})
		if err != nil {
			s.log.ErrorContext(ctx, "billing: open the customer portal", "user", userID, "err", err)
			return "", errStripe()
		}
		return ps.URL, nil
	})
	if err != nil {
		return "", err
	}
	return url.(string), nil
}
