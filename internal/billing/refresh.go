package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// Refresh reads the member's subscription from Stripe, applies it as the
// webhooks would (never over newer state, never a foreign price) and returns
// the subscription as it now stands (nil for a free member). It is what the
// members area calls after Checkout returns and after the portal closes, so
// a member sees their payment even before the webhook arrives. Without
// online payment it returns the stored subscription. Refusal: unavailable
// when Stripe does not answer.
func (s *Service) Refresh(ctx context.Context, userID string) (*Subscription, error) {
	sub, _, err := s.RefreshChanged(ctx, userID)
	return sub, err
}

// RefreshChanged is Refresh that also reports whether anything the member
// sees changed (for publishing a live update). Concurrent refreshes of one
// member share one read from Stripe (and its result), so a burst of them
// spends one request of the site's Stripe quota, not one each.
func (s *Service) RefreshChanged(ctx context.Context, userID string) (*Subscription, bool, error) {
	if !s.Enabled() {
		sub, err := s.Subscription(ctx, userID)
		return sub, false, err
	}
	r, err := s.coalesce(ctx, "refresh:"+userID, func(ctx context.Context) (any, error) {
		sub, changed, err := s.refresh(ctx, userID)
		return refreshed{sub, changed}, err
	})
	if err != nil {
		return nil, false, err
	}
	out := r.(refreshed)
	return out.sub, out.changed, nil
}

type refreshed struct {
	sub     *Subscription
	changed bool
}

// coalesce runs fn once for all callers that ask with the same key while it
// runs, and gives each its result. fn runs without the first caller's
// cancellation, so one caller leaving does not fail the others; a caller
// whose ctx ends stops waiting.
func (s *Service) coalesce(ctx context.Context, key string, fn func(context.Context) (any, error)) (any, error) {
	ch := s.flights.DoChan(key, func() (any, error) { return fn(context.WithoutCancel(ctx)) })
	select {
	case r := <-ch:
		return r.Val, r.Err
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for %s: %w", key, ctx.Err())
	}
}

func (s *Service) refresh(ctx context.Context, userID string) (*Subscription, bool, error) {
	customer, err := customerOf(ctx, s.db.Read, userID)
	if err != nil {
		return nil, false, err
	}
	cur, err := readRow(ctx, s.db.Read, userID)
	if err != nil {
		return nil, false, err
	}
	var (
		found remoteSub
		ok    bool
	)
	switch {
	case customer != "":
		found, ok, err = s.bestSubOf(ctx, customer)
	case cur.SubID != "":
		found, err = s.fetchSub(ctx, cur.SubID)
		ok = err == nil && found.OurPrice
	}
	if err != nil {
		s.log.WarnContext(ctx, "billing: refresh from Stripe", "user", userID, "err", err)
		return nil, false, errStripe()
	}
	changed := false
	if ok {
		err = s.db.Tx(ctx, func(tx *sql.Tx) error {
			changed, err = s.applySub(ctx, tx, userID, found, nil)
			return err
		})
		var rej *rejection
		if errors.As(err, &rej) {
			s.log.WarnContext(ctx, "billing: refresh found Stripe state that is not applied", "user", userID, "why", rej.reason)
			changed, err = false, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("refresh subscription of %s: %w", userID, err)
		}
	}
	sub, err := s.Subscription(ctx, userID)
	return sub, changed, err
}
