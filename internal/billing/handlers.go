package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/stripe/stripe-go/v86"
)

// onSubscription applies a customer.subscription.* event. When the event is
// from the same second as the state already applied, their order is unknown,
// so the subscription is read from Stripe and that state wins.
func (s *Service) onSubscription(ctx context.Context, ev stripe.Event, in remoteSub) (Handled, error) {
	var fetched *remoteSub
	var synced int64
	err := s.db.Read.QueryRowContext(ctx, `SELECT stripe_synced_at FROM subscriptions WHERE stripe_subscription_id = $1`, in.ID).Scan(&synced)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Handled{}, fmt.Errorf("read subscription %s: %w", in.ID, err)
	}
	if err == nil && synced == in.AsOf && in.OurPrice {
		fetched = s.tryFetch(ctx, in.ID, in.AsOf)
	}
	if in.OurPrice && in.DiscountsUnread {
		// The payload names its discounts by id only: their amounts are
		// read from Stripe, so the ledger's MRR is what the member pays.
		// Unread (Stripe down), the state is applied without them and the
		// next refresh or reconcile brings them.
		got := fetched
		if got == nil {
			got = s.tryFetch(ctx, in.ID, in.AsOf)
		}
		if got != nil && got.ID == in.ID && got.Price.Currency == in.Price.Currency && got.Price.Amount == in.Price.Amount {
			in.Price.Discount, in.DiscountsUnread = got.Price.Discount, false
		}
	}
	in.EventID = ev.ID
	return s.onceChanged(ctx, ev, func(tx *sql.Tx) ([]string, error) {
		return s.applyFound(ctx, tx, in, fetched)
	})
}

// applyFound applies a subscription to the member it belongs to, if any.
func (s *Service) applyFound(ctx context.Context, tx *sql.Tx, in remoteSub, fetched *remoteSub) ([]string, error) {
	if !in.OurPrice {
		return nil, nil // another product in a shared Stripe account
	}
	userID, err := userForSub(ctx, tx, in)
	if err != nil || userID == "" {
		if userID == "" && err == nil {
			s.log.WarnContext(ctx, "billing: subscription belongs to no member", "subscription", in.ID, "customer", in.CustomerID)
		}
		return nil, err
	}
	changed, err := s.applySub(ctx, tx, userID, in, fetched)
	if err != nil || !changed {
		return nil, err
	}
	return []string{userID}, nil
}

// withEvent names the webhook event a fetched state is applied for (nil:
// nothing fetched).
func (r *remoteSub) withEvent(id string) {
	if r != nil {
		r.EventID = id
	}
}

// tryFetch reads a subscription from Stripe, or logs and returns nil. The
// read happens after the event was created, so its state is at least as new
// as the event's: its time is never taken to be earlier than floor.
func (s *Service) tryFetch(ctx context.Context, id string, floor int64) *remoteSub {
	if s.stripe == nil {
		return nil
	}
	r, err := s.fetchSub(ctx, id)
	if err != nil {
		s.log.WarnContext(ctx, "billing: read subscription from Stripe", "subscription", id, "err", err)
		return nil
	}
	r.AsOf = max(r.AsOf, floor)
	return &r
}

// onCheckoutCompleted links the member to the customer Checkout used and
// applies the new subscription as Stripe has it now.
func (s *Service) onCheckoutCompleted(ctx context.Context, ev stripe.Event, cs *stripe.CheckoutSession) (Handled, error) {
	userID := cs.ClientReferenceID
	if userID == "" {
		userID = cs.Metadata["user_id"]
	}
	if cs.Mode != stripe.CheckoutSessionModeSubscription || userID == "" {
		return Handled{Outcome: Ignored}, nil // not a tribe checkout
	}
	var fetched *remoteSub
	if cs.Subscription != nil && cs.Subscription.ID != "" {
		fetched = s.tryFetch(ctx, cs.Subscription.ID, ev.Created)
		fetched.withEvent(ev.ID)
	}
	return s.onceChanged(ctx, ev, func(tx *sql.Tx) ([]string, error) {
		id, err := knownUser(ctx, tx, userID)
		if err != nil || id == "" {
			return nil, err
		}
		if cs.Customer != nil && cs.Customer.ID != "" {
			if _, err := linkCustomer(ctx, tx, id, cs.Customer.ID); err != nil {
				return nil, err
			}
		}
		changed := false
		if fetched != nil && fetched.OurPrice {
			if fetched.CustomerID == "" && cs.Customer != nil {
				fetched.CustomerID = cs.Customer.ID
			}
			if changed, err = s.applySub(ctx, tx, id, *fetched, nil); err != nil {
				return nil, err
			}
		}
		if !changed {
			return nil, nil
		}
		return []string{id}, nil
	})
}

// onInvoice reads the invoice's subscription from Stripe and applies it, and
// for a failed payment tells the member.
func (s *Service) onInvoice(ctx context.Context, ev stripe.Event, inv *stripe.Invoice) (Handled, error) {
	var subID, meta string
	if p := inv.Parent; p != nil && p.SubscriptionDetails != nil {
		if p.SubscriptionDetails.Subscription != nil {
			subID = p.SubscriptionDetails.Subscription.ID
		}
		meta = p.SubscriptionDetails.Metadata["user_id"]
	}
	if subID == "" {
		return Handled{Outcome: Ignored}, nil // not a subscription's invoice
	}
	fetched := s.tryFetch(ctx, subID, ev.Created)
	fetched.withEvent(ev.ID)
	failed := ev.Type == "invoice.payment_failed"
	return s.onceChanged(ctx, ev, func(tx *sql.Tx) ([]string, error) {
		in := remoteSub{ID: subID, MetaUserID: meta}
		if inv.Customer != nil {
			in.CustomerID = inv.Customer.ID
		}
		if fetched != nil {
			in = *fetched
		}
		userID, err := userForSub(ctx, tx, in)
		if err != nil || userID == "" {
			return nil, err
		}
		changed := false
		if fetched != nil && fetched.OurPrice {
			if changed, err = s.applySub(ctx, tx, userID, *fetched, nil); err != nil {
				return nil, err
			}
		}
		if failed {
			cur, err := readRow(ctx, tx, userID)
			if err != nil {
				return nil, err
			}
			if cur.SubID == subID && !cur.Complimentary {
				if err := s.mailPaymentFailed(ctx, tx, userID); err != nil {
					return nil, err
				}
			}
		}
		if !changed {
			return nil, nil
		}
		return []string{userID}, nil
	})
}
