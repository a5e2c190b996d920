package billing

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/stripe/stripe-go/v86"

	"tribe/internal/errs"
	"tribe/internal/holds"
	"tribe/internal/plural"
	"tribe/internal/store"
)

// hold is a member's seat held for a Checkout Session.
type hold struct {
	ID        string
	ExpiresAt time.Time
	SessionID string
	URL       string
	// Plan is what the hold's session sells (PlanMonthly, PlanAnnual).
	Plan string
}

// Checkout starts a Stripe Checkout for the monthly membership and returns
// the URL to send the member to. client is the caller's address as the rate
// limits key it; redirectTo names the page Stripe returns to ("members", the
// default when empty).
//
// Refusals: already_subscribed when the member has access (paying or
// complimentary), at_capacity when every seat is taken or held by someone
// else's open checkout, forbidden when the member's address is not
// confirmed, rate_limited when the hold rule (holds.Seats) refuses another
// hold, billing_unavailable when online payment is off, unavailable when
// Stripe does not answer.
//
// The seat is held for the life of the Checkout Session (CheckoutTTL) and
// released when the session completes, expires or the hold runs out.
// Pressing Subscribe again while holding a seat returns the same session;
// the hold is never renewed, so a seat cannot be kept by pressing again.
func (s *Service) Checkout(ctx context.Context, userID, email, client, redirectTo string) (string, error) {
	return s.CheckoutPlan(ctx, userID, email, client, redirectTo, PlanMonthly)
}

// CheckoutPlan is Checkout for a plan: PlanMonthly ("" too) or PlanAnnual
// (only when STRIPE_PRICE_ID_ANNUAL is set; otherwise a 400 on the field
// plan). Choosing the other plan while a seat is held keeps the seat and
// its expiry: a session for the new plan is opened and the old one closed.
// Checkout accepts Stripe promotion codes.
func (s *Service) CheckoutPlan(ctx context.Context, userID, email, client, redirectTo, plan string) (string, error) {
	if !s.Enabled() {
		return "", errOff()
	}
	page, err := returnPage(redirectTo)
	if err != nil {
		return "", err
	}
	plan, price, err := s.priceOf(plan)
	if err != nil {
		return "", err
	}
	h, err := s.holdSeat(ctx, userID, client)
	if err != nil {
		return "", err
	}
	if h.URL != "" && h.Plan == plan {
		return h.URL, nil
	}
	url, err := s.openSession(ctx, userID, email, page, h, plan, price)
	if err != nil {
		if h.SessionID == "" {
			s.releaseHold(ctx, userID, h.ID)
		}
		s.log.ErrorContext(ctx, "billing: checkout", "user", userID, "err", err)
		return "", errStripe()
	}
	if h.SessionID != "" {
		// The other plan's session: closed, so only one can be paid.
		s.expireSession(ctx, h.SessionID)
	}
	return url, nil
}

// returnPage is the app page a checkout returns to. Only known pages are
// accepted, so the return URL can never point elsewhere.
func returnPage(redirectTo string) (string, error) {
	switch redirectTo {
	case "", "members":
		return "/members", nil
	}
	return "", errs.Field("redirect_to", `redirect_to must be "members".`)
}

// holdSeat takes the member's seat, or gives back the one they hold, under
// the seats lock, so that concurrent presses never hold more seats than the
// tribe has.
func (s *Service) holdSeat(ctx context.Context, userID, client string) (hold, error) {
	now := s.now()
	var h hold
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := lock(ctx, s.db, tx, seatsKey); err != nil {
			return err
		}
		sub, err := subscriptionAt(ctx, tx, userID, now)
		if err != nil {
			return err
		}
		if sub.Active() {
			if sub.Complimentary {
				return errs.New(errs.AlreadySubscribed, "You have a complimentary membership, so there is nothing to pay.")
			}
			return errs.New(errs.AlreadySubscribed, "You are already a member of the tribe. Use Manage to change your subscription.")
		}
		old, err := readHold(ctx, tx, userID)
		if err != nil {
			return err
		}
		if old != nil && old.ExpiresAt.After(now) {
			// The same seat and session until it expires (without a session
			// yet, another press is creating it with the hold's idempotency
			// key); never a renewal.
			h = *old
			return nil
		}
		taken, err := seatsTaken(ctx, tx, userID, now)
		if err != nil {
			return err
		}
		if taken >= s.cfg.Capacity {
			every := "all " + plural.Count(s.cfg.Capacity, "spot", "spots") + " are"
			if s.cfg.Capacity == 1 {
				every = "the 1 spot is"
			}
			return errs.Errorf(errs.AtCapacity,
				"The tribe is full: %s taken or being paid for right now. Join the wait list and we'll tell you when a spot opens up.",
				every)
		}
		h = hold{ID: store.NewID(), ExpiresAt: now.Add(CheckoutTTL).Truncate(time.Second)}
		if err := holds.Seats.Admit(ctx, tx, holds.Claim{ID: h.ID, UserID: userID, Client: client, Expires: h.ExpiresAt}, now); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO checkout_holds (user_id, hold_id, expires_at) VALUES ($1, $2, $3)
			 ON CONFLICT (user_id) DO UPDATE SET hold_id = excluded.hold_id, expires_at = excluded.expires_at,
			   checkout_session_id = NULL, checkout_url = NULL, created_at = excluded.created_at`,
			userID, h.ID, store.At(h.ExpiresAt))
		if err != nil {
			return fmt.Errorf("hold a seat for %s: %w", userID, err)
		}
		return nil
	})
	return h, err
}

// seatsTaken counts members with access plus the seats other people than
// userID hold for an open checkout.
func seatsTaken(ctx context.Context, q querier, userID string, now time.Time) (int, error) {
	active, held, err := seatUse(ctx, q, userID, now)
	return active + held, err
}

// seatUse counts members with access and the seats held for open checkouts
// by people without access, other than userID ("" counts every hold). The
// public status and Checkout count with it, so they agree on what is left.
func seatUse(ctx context.Context, q querier, userID string, now time.Time) (active, held int, err error) {
	err = q.QueryRowContext(ctx,
		`SELECT (SELECT COUNT(*) FROM subscriptions s WHERE `+accessSQL("s", 1)+`),
		        (SELECT COUNT(*) FROM checkout_holds h
		         WHERE h.expires_at > $1 AND h.user_id <> $2
		           AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.user_id = h.user_id AND `+accessSQL("s", 1)+`))`,
		store.At(now), userID).Scan(&active, &held)
	if err != nil {
		return 0, 0, fmt.Errorf("count seats: %w", err)
	}
	return active, held, nil
}

func readHold(ctx context.Context, q querier, userID string) (*hold, error) {
	var (
		h       hold
		expires store.Time
		sid     sql.NullString
		url     sql.NullString
	)
	err := q.QueryRowContext(ctx,
		`SELECT hold_id, expires_at, checkout_session_id, checkout_url, plan FROM checkout_holds WHERE user_id = $1`,
		userID).Scan(&h.ID, &expires, &sid, &url, &h.Plan)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the seat held by %s: %w", userID, err)
	}
	h.ExpiresAt, h.SessionID, h.URL = expires.Time, sid.String, url.String
	return &h, nil
}

// openSession creates the Checkout Session of a plan for a hold and records
// it there. The idempotency key is the hold's (with the plan, and the
// session it replaces when the member switched plans), and every parameter
// derives from the hold, so concurrent presses on one hold get one session
// from Stripe.
func (s *Service) openSession(ctx context.Context, userID, email, page string, h hold, plan, price string) (string, error) {
	customer, err := s.ensureCustomer(ctx, userID, email)
	if err != nil {
		return "", err
	}
	base := s.cfg.BaseURL + page
	meta := map[string]string{"user_id": userID}
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String("subscription"),
		Customer:          stripe.String(customer),
		ClientReferenceID: stripe.String(userID),
		LineItems:         []*stripe.CheckoutSessionCreateLineItemParams{{Price: stripe.String(price), Quantity: stripe.Int64(1)}},
		// Promotion codes made in the Stripe dashboard are typed on the
		// payment page; the subscription carries the discount, and the
		// ledger records what it takes off (Price.Discount).
		AllowPromotionCodes: stripe.Bool(true),
		SuccessURL:          stripe.String(base + "?success=true"),
		CancelURL:           stripe.String(base + "?canceled=true"),
		ExpiresAt:           stripe.Int64(h.ExpiresAt.Unix()),
		Metadata:            meta,
		SubscriptionData:    &stripe.CheckoutSessionCreateSubscriptionDataParams{Metadata: meta},
	}
	key := "tribe-checkout-" + h.ID
	if plan != PlanMonthly {
		key += "-" + plan
	}
	if h.SessionID != "" {
		key += "-after-" + h.SessionID
	}
	params.SetIdempotencyKey(key)
	cs, err := s.stripe.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return "", fmt.Errorf("create Checkout Session for %s: %w", userID, err)
	}
	if cs.URL == "" {
		return "", fmt.Errorf("Checkout Session %s for %s has no URL", cs.ID, userID)
	}
	_, err = s.db.Write.ExecContext(ctx,
		`UPDATE checkout_holds SET checkout_session_id = $1, checkout_url = $2, plan = $3 WHERE user_id = $4 AND hold_id = $5`,
		cs.ID, cs.URL, plan, userID, h.ID)
	if err != nil {
		return "", fmt.Errorf("record Checkout Session %s: %w", cs.ID, err)
	}
	return cs.URL, nil
}

// releaseHold gives a seat back when its checkout could not be opened; the
// hold then costs the member nothing under the hold rule.
func (s *Service) releaseHold(ctx context.Context, userID, holdID string) {
	ctx = context.WithoutCancel(ctx)
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx,
			`DELETE FROM checkout_holds WHERE user_id = $1 AND hold_id = $2 AND checkout_session_id IS NULL`, userID, holdID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		return holds.Forget(ctx, tx, holdID)
	})
	if err != nil {
		s.log.ErrorContext(ctx, "billing: release seat", "user", userID, "err", err)
	}
}

// expireSession closes a Checkout Session so it cannot be paid. Failure is
// logged: Stripe closes the session by itself when its hold ends.
func (s *Service) expireSession(ctx context.Context, sessionID string) {
	if _, err := s.stripe.V1CheckoutSessions.Expire(context.WithoutCancel(ctx), sessionID, nil); err != nil {
		s.log.WarnContext(ctx, "billing: expire a Checkout Session", "session", sessionID, "err", err)
	}
}

// releaseSeatTx drops a member's hold inside a transaction (the checkout
// completed into access, expired, or the member no longer needs it). A
// sessionID limits it to the hold of that session. It returns whether a
// hold was dropped, and the Checkout Session of each dropped hold that had
// one.
func releaseSeatTx(ctx context.Context, tx *sql.Tx, userID, sessionID string) (bool, []string, error) {
	q := `DELETE FROM checkout_holds WHERE user_id = $1 RETURNING hold_id, COALESCE(checkout_session_id, '')`
	args := []any{userID}
	if sessionID != "" {
		q = `DELETE FROM checkout_holds WHERE checkout_session_id = $1 RETURNING hold_id, COALESCE(checkout_session_id, '')`
		args = []any{sessionID}
	}
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return false, nil, fmt.Errorf("release seat: %w", err)
	}
	var ids, sessions []string
	for rows.Next() {
		var id, session string
		if err := rows.Scan(&id, &session); err != nil {
			_ = rows.Close()
			return false, nil, fmt.Errorf("release seat: %w", err)
		}
		ids = append(ids, id)
		if session != "" {
			sessions = append(sessions, session)
		}
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return false, nil, fmt.Errorf("release seat: %w", err)
	}
	if err := holds.Release(ctx, tx, ids...); err != nil {
		return false, nil, err
	}
	return len(ids) > 0, sessions, nil
}

// ReleaseOnTakeover is the takeover step (auth.WithTakeover) for billing:
// when the owner of an address takes over an account someone else made with
// it, the seat that account holds is given back, and after the commit its
// open Checkout Session is expired at Stripe, so what the maker started
// cannot be paid onto the owner's account.
func (s *Service) ReleaseOnTakeover(ctx context.Context, tx *sql.Tx, userID string) (func(context.Context), error) {
	_, sessions, err := releaseSeatTx(ctx, tx, userID, "")
	if err != nil || len(sessions) == 0 || s.stripe == nil {
		return nil, err
	}
	return func(ctx context.Context) {
		for _, id := range sessions {
			s.expireSession(ctx, id)
		}
	}, nil
}
