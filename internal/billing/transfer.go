package billing

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"tribe/internal/errs"
)

// Standing is a member's membership as the members import compares it with
// a row of the file.
type Standing struct {
	// Complimentary: a complimentary membership in force.
	Complimentary bool
	// Until is the last day (UTC, YYYY-MM-DD) of that complimentary
	// membership, "" for none or no end.
	Until string
	// Paying: a Stripe subscription with access.
	Paying bool
	// Customer is the linked Stripe customer, "" for none.
	Customer string
}

// StandingTx reads the member's Standing inside the caller's transaction.
func (s *Service) StandingTx(ctx context.Context, tx *sql.Tx, userID string) (Standing, error) {
	now := s.now()
	cur, err := readRow(ctx, tx, userID)
	if err != nil {
		return Standing{}, err
	}
	var st Standing
	if cur.compInForce(now) {
		st.Complimentary = true
		if cur.CompUntil != nil {
			// comp_until is the first instant after the last day.
			st.Until = cur.CompUntil.UTC().Add(-time.Nanosecond).Format(dayLayout)
		}
	} else if cur.access(now) && cur.SubID != "" {
		st.Paying = true
	}
	if st.Customer, err = customerOf(ctx, tx, userID); err != nil {
		return Standing{}, err
	}
	return st, nil
}

// LinkCustomerTx links a Stripe customer to the member, as the checkout does
// the first time they pay, inside the caller's transaction: the webhooks and
// reconciling then find the member by it. Refused (conflict) when the
// customer belongs to another member or the member has another customer.
func (s *Service) LinkCustomerTx(ctx context.Context, tx *sql.Tx, userID, customerID string) error {
	got, err := linkCustomer(ctx, tx, userID, customerID)
	var rej *rejection
	if errors.As(err, &rej) {
		return errs.New(errs.Conflict, "This Stripe customer belongs to another member.")
	}
	if err != nil {
		return err
	}
	if got != customerID {
		return errs.Errorf(errs.Conflict, "This member is already linked to Stripe customer %s.", got)
	}
	return nil
}
