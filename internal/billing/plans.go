package billing

import (
	"context"
	"fmt"
	"sync"
	"time"

	"tribe/internal/errs"
)

// The plans a member may subscribe to: the monthly price (STRIPE_PRICE_ID)
// always, the annual one when STRIPE_PRICE_ID_ANNUAL is set. Either price
// makes a member; any other price in the account grants nothing.
const (
	PlanMonthly = "monthly"
	PlanAnnual  = "annual"
)

// PlanOffer is one plan as the tribe page offers it. Amount, Currency,
// Interval and IntervalCount are the price's as Stripe has it (read at most
// every planTTL); Amount is 0 when Stripe could not be asked.
type PlanOffer struct {
	Plan          string `json:"plan"`
	Amount        int64  `json:"amount"`
	Currency      string `json:"currency"`
	Interval      string `json:"interval"`
	IntervalCount int    `json:"interval_count"`
}

// planTTL is how long the prices read from Stripe are kept: a price's
// amount never changes in Stripe (a new price is a new id), so this only
// bounds how often a restart-free process asks.
const planTTL = 10 * time.Minute

// planCache keeps the prices read from Stripe.
type planCache struct {
	mu   sync.Mutex
	at   time.Time
	list []PlanOffer
}

// prices are the tribe's price ids, monthly first.
func (s *Service) prices() []string {
	out := []string{s.cfg.StripePriceID}
	if s.cfg.StripePriceIDAnnual != "" {
		out = append(out, s.cfg.StripePriceIDAnnual)
	}
	return out
}

// priceOf is the price id of a plan ("" is monthly); a plan that is not
// offered is refused with the field plan.
func (s *Service) priceOf(plan string) (string, string, error) {
	switch plan {
	case "", PlanMonthly:
		return PlanMonthly, s.cfg.StripePriceID, nil
	case PlanAnnual:
		if s.cfg.StripePriceIDAnnual != "" {
			return PlanAnnual, s.cfg.StripePriceIDAnnual, nil
		}
		return "", "", errs.Field("plan", "The annual plan is not offered; choose the monthly plan.")
	}
	return "", "", errs.Field("plan", `plan must be "monthly" or "annual".`)
}

// Plans lists the plans on offer with their prices, monthly first; none
// when online payment is off. With one plan (no STRIPE_PRICE_ID_ANNUAL)
// the monthly plan is listed without asking Stripe: the page shows the
// content's price. With two, the prices are read from Stripe once per
// planTTL, so the page compares them as Checkout will charge them; when
// Stripe does not answer the plans are listed without them.
func (s *Service) Plans(ctx context.Context) []PlanOffer {
	switch {
	case !s.Enabled():
		return []PlanOffer{}
	case s.cfg.StripePriceIDAnnual == "":
		return []PlanOffer{{Plan: PlanMonthly, Interval: "month", IntervalCount: 1}}
	}
	c := &s.plans
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.list != nil && s.now().Sub(c.at) < planTTL {
		return append([]PlanOffer(nil), c.list...)
	}
	names := []string{PlanMonthly, PlanAnnual}
	out := make([]PlanOffer, 0, 2)
	complete := true
	for i, id := range s.prices() {
		o := PlanOffer{Plan: names[i], IntervalCount: 1}
		p, err := s.stripe.V1Prices.Retrieve(ctx, id, nil)
		if err != nil {
			s.log.WarnContext(ctx, "billing: read a plan's price from Stripe", "price", id, "err", err)
			complete = false
		} else {
			o.Amount, o.Currency = p.UnitAmount, string(p.Currency)
			if p.Recurring != nil {
				o.Interval, o.IntervalCount = string(p.Recurring.Interval), int(max(p.Recurring.IntervalCount, 1))
			}
		}
		out = append(out, o)
	}
	if complete {
		c.list, c.at = out, s.now()
	}
	return append([]PlanOffer(nil), out...)
}

// PlanOfInterval names the plan a membership's billing interval belongs
// to: "annual" for a year, "monthly" for a month, "" otherwise.
func PlanOfInterval(interval string) string {
	switch interval {
	case "year":
		return PlanAnnual
	case "month":
		return PlanMonthly
	}
	return ""
}

// MemberPlans maps each member whose newest ledger row is a paid
// subscription with a known price to its plan (PlanOfInterval), for the
// members export.
func (s *Service) MemberPlans(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.Read.QueryContext(ctx, `SELECT l.user_id, l.billing_interval FROM membership_ledger l
		WHERE l.subscription_id <> '' AND l.complimentary = FALSE
		  AND l.user_seq = (SELECT MAX(x.user_seq) FROM membership_ledger x WHERE x.user_id = l.user_id)`)
	if err != nil {
		return nil, fmt.Errorf("read members' plans: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]string{}
	for rows.Next() {
		var id, interval string
		if err := rows.Scan(&id, &interval); err != nil {
			return nil, fmt.Errorf("read members' plans: %w", err)
		}
		if p := PlanOfInterval(interval); p != "" {
			out[id] = p
		}
	}
	return out, rows.Err()
}
