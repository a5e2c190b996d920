package billing

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/stripe/stripe-go/v86"
)

// remoteSub is what billing keeps of a Stripe subscription, as of a moment
// on Stripe's clock.
type remoteSub struct {
	ID         string
	CustomerID string
	Status     string
	// OurPrice is true when an item bills one of the tribe's prices
	// (STRIPE_PRICE_ID, or STRIPE_PRICE_ID_ANNUAL when set). Subscriptions
	// to anything else in a shared Stripe account are not the tribe's.
	OurPrice bool
	// DiscountsUnread is true when the subscription has discounts given as
	// ids only (a webhook's payload), so Price.Discount is not known yet.
	DiscountsUnread bool
	// MetaUserID is the user_id metadata Checkout put on the subscription.
	MetaUserID string
	PeriodEnd  time.Time // zero when unknown
	// CancelSoon is true when the subscription ends instead of renewing:
	// cancel_at_period_end, or a cancel_at date (the customer portal's way
	// since Stripe's 2025 API versions).
	CancelSoon bool
	// AsOf is the Stripe time (Unix seconds) this state is from: the event's
	// created, or the Date of the API response it was read from.
	AsOf int64
	// Price is what one interval of the tribe's price items costs, and what
	// the discounts take off it, for the membership ledger.
	Price Price
	// EventID is the webhook event this state came with ("" when read
	// outside a webhook): the ledger row's id.
	EventID string
	// Source is the ledger source of a state applied outside a webhook
	// (SourceReconcile); "" lets the ledger tell webhook from refresh.
	Source string
}

func (s *Service) remote(sub *stripe.Subscription, asOf int64) remoteSub {
	r := remoteSub{ID: sub.ID, Status: string(sub.Status), MetaUserID: sub.Metadata["user_id"], AsOf: asOf}
	if sub.Customer != nil {
		r.CustomerID = sub.Customer.ID
	}
	var end int64
	if sub.Items != nil {
		for _, it := range sub.Items.Data {
			if it == nil || it.Price == nil || !s.cfg.MembershipPrice(it.Price.ID) {
				continue
			}
			r.OurPrice = true
			end = max(end, it.CurrentPeriodEnd)
			r.Price.add(it, string(sub.Currency))
		}
	}
	if r.OurPrice {
		r.Price.takeDiscounts(sub.Discounts, asOf)
		r.DiscountsUnread = discountsUnread(sub.Discounts)
	}
	if sub.CancelAt > 0 && r.Status != StatusCanceled {
		r.CancelSoon = true
		end = sub.CancelAt
	}
	if sub.CancelAtPeriodEnd && r.Status != StatusCanceled {
		r.CancelSoon = true
	}
	if end > 0 {
		r.PeriodEnd = time.Unix(end, 0).UTC()
	}
	return r
}

// grants reports whether this state gives access.
func (r *remoteSub) grants() bool { return r != nil && GrantsAccess(r.Status) }

// stripeTime is the Date of a Stripe API response in Unix seconds, or
// fallback when the response has none.
func stripeTime(resp *stripe.APIResponse, fallback int64) int64 {
	if resp != nil {
		if t, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
			return t.Unix()
		}
	}
	return fallback
}

// fetchSub reads a subscription from Stripe.
func (s *Service) fetchSub(ctx context.Context, id string) (remoteSub, error) {
	params := &stripe.SubscriptionRetrieveParams{}
	params.AddExpand("discounts.source.coupon")
	sub, err := s.stripe.V1Subscriptions.Retrieve(ctx, id, params)
	if err != nil {
		return remoteSub{}, fmt.Errorf("read subscription %s from Stripe: %w", id, err)
	}
	return s.remote(sub, stripeTime(sub.LastResponse, s.now().Unix())), nil
}

// bestSubOf reads a customer's subscriptions from Stripe and picks the one
// that counts: one for our price, preferring one that gives access, then the
// newest. ok is false when the customer has none for our price.
func (s *Service) bestSubOf(ctx context.Context, customerID string) (best remoteSub, ok bool, err error) {
	params := &stripe.SubscriptionListParams{
		Customer:   stripe.String(customerID),
		Status:     stripe.String("all"),
		ListParams: stripe.ListParams{Limit: stripe.Int64(100)},
	}
	params.AddExpand("data.discounts.source.coupon")
	list := s.stripe.V1Subscriptions.List(ctx, params)
	if err := list.Err(); err != nil {
		return remoteSub{}, false, fmt.Errorf("list subscriptions of %s from Stripe: %w", customerID, err)
	}
	asOf := stripeTime(list.LastResponse(), s.now().Unix())
	var created int64
	for _, sub := range list.Data() {
		r := s.remote(sub, asOf)
		if !r.OurPrice {
			continue
		}
		better := !ok || (r.grants() && !best.grants()) || (r.grants() == best.grants() && sub.Created > created)
		if better {
			best, ok, created = r, true, sub.Created
		}
	}
	return best, ok, nil
}
