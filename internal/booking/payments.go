package booking

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"tribe/internal/billing"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// Payments through Stripe: Reserve opens a one-time Checkout Session for a
// hold, the Checkout cancel URL expires it (CancelCheckout), and billing's
// webhook hands the payment events here (CheckoutPaid, CheckoutClosed,
// PaymentRefunded: billing.PaymentHandler). Money owed back is refunded at
// once through the Refunds API with the booking's idempotency key; when
// Stripe does not answer, SettleOwed (the worker loop) tries again, so a
// payment never stays without a booking or a refund.

var _ billing.PaymentHandler = (*Service)(nil)

func errPaymentDown() error {
	return errs.New(errs.Unavailable, "The payment service did not answer, so nothing was booked. Please try again in a minute.")
}

// Reserve books like Book and, for a hold, opens (or finds again) its
// Checkout Session, whose expiry is the hold's: Created.CheckoutURL is where
// to send the booker. When Stripe cannot open one, a new hold is released
// at once and the answer is unavailable.
func (s *Service) Reserve(ctx context.Context, in Request) (*Created, error) {
	c, err := s.Book(ctx, in)
	if err != nil || c.Booking.Status != StatusHeld {
		return c, err
	}
	b := c.Booking
	if b.CheckoutURL != "" {
		c.CheckoutURL = b.CheckoutURL
		return c, nil
	}
	if s.pay == nil {
		return nil, errors.New("reserve: payments are on but no payment service is set")
	}
	// Stripe's return URLs carry a one-time return id, never a manage
	// token: the return page exchanges it for one (ExchangeReturn), so no
	// credential of the booking sits in Stripe's records or its logs.
	ret, retHash := newToken()
	key := "booking-checkout-" + b.ID + "-" + retHash[:16]
	opened, err := s.pay.OpenPaymentCheckout(ctx, billing.PaymentCheckout{
		Reference:   b.ID,
		Description: s.typeName(b.Type) + ", " + When(b.Start, b.TimeZone),
		Amount:      b.Amount, Currency: b.Currency, Email: b.Email,
		AllowPromotionCodes: true,
		ExpiresAt:           s.now().Add(CheckoutTTL),
		SuccessURL:          s.baseURL + "/bookings/" + b.ID + "/paid?r=" + ret,
		CancelURL:           s.baseURL + "/bookings/" + b.ID + "/checkout-cancelled?r=" + ret,
		// Each press has its own key (two presses at once may open two
		// sessions; AttachCheckout keeps one and the other is expired).
		IdempotencyKey: key,
	})
	if err != nil {
		s.log.ErrorContext(ctx, "booking: open Checkout", "booking", b.ID, "err", err)
		if !c.Reused {
			if _, err := s.Expire(context.WithoutCancel(ctx), b.ID); err != nil {
				s.log.ErrorContext(ctx, "booking: release a hold without Checkout", "booking", b.ID, "err", err)
			}
		}
		return nil, errPaymentDown()
	}
	got, err := s.AttachCheckout(ctx, b.ID, opened.ID, opened.URL, retHash)
	if errs.Is(err, errs.Conflict) {
		// Another press attached its session first: send this one there too
		// and close the spare.
		if got, err = s.Get(ctx, b.ID); err == nil && got.CheckoutURL != "" && got.Status == StatusHeld {
			s.expireQuietly(ctx, opened.ID)
			c.Booking, c.CheckoutURL = got, got.CheckoutURL
			return c, nil
		}
		s.expireQuietly(ctx, opened.ID)
		return nil, errs.New(errs.SlotTaken, "Sorry, the time held for you has just lapsed. Please choose a time again.")
	}
	if err != nil {
		s.expireQuietly(ctx, opened.ID)
		return nil, err
	}
	c.Booking, c.CheckoutURL = got, opened.URL
	return c, nil
}

func (s *Service) expireQuietly(ctx context.Context, sessionID string) {
	if s.pay == nil || sessionID == "" {
		return
	}
	if err := s.pay.ExpireCheckout(context.WithoutCancel(ctx), sessionID); err != nil {
		s.log.WarnContext(ctx, "booking: expire a Checkout Session", "session", sessionID, "err", err)
	}
}

// ExchangeReturn is the Checkout success URL: the one-time return id of the
// booking's session becomes a new manage token for the page the booker
// lands on. A second use, a wrong id or an unknown booking get not_found.
func (s *Service) ExchangeReturn(ctx context.Context, id, ret string) (string, error) {
	token := ""
	err := s.write(ctx, s.now(), func(tx *sql.Tx) error {
		ok, err := useReturn(ctx, tx, id, ret)
		if err != nil || !ok {
			return err
		}
		token, err = issueToken(ctx, tx, id, s.now())
		return err
	})
	if err != nil {
		return "", err
	}
	if token == "" {
		return "", notFoundBooking
	}
	return token, nil
}

// useReturn consumes the return id of a booking's Checkout Session: true
// once, for the right id.
func useReturn(ctx context.Context, tx *sql.Tx, id, ret string) (bool, error) {
	if ret == "" {
		return false, nil
	}
	res, err := tx.ExecContext(ctx, `UPDATE bookings SET return_hash = '' WHERE id = $1 AND return_hash = $2 AND return_hash <> ''`,
		id, hashToken(ret))
	if err != nil {
		return false, fmt.Errorf("use return id of %s: %w", id, err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// CancelCheckout is the Checkout cancel URL: the booker left the payment
// page. The session is expired through Stripe's API (so it can no longer be
// paid) and the hold released at once. Anything but a hold is left alone.
// The URL carries the session's one-time return id (ret); a manage token
// is also taken, for sessions opened before return ids existed.
func (s *Service) CancelCheckout(ctx context.Context, id, ret, token string) (*Booking, error) {
	var b *Booking
	var err error
	if token != "" {
		b, err = s.FindByToken(ctx, id, token)
	} else {
		var ok bool
		err = s.write(ctx, s.now(), func(tx *sql.Tx) error {
			ok, err = useReturn(ctx, tx, id, ret)
			return err
		})
		if err == nil && !ok {
			err = notFoundBooking
		}
		if err == nil {
			b, err = s.Get(ctx, id)
		}
	}
	if err != nil {
		return nil, err
	}
	if b.Status != StatusHeld {
		return b, nil
	}
	// Expired at Stripe first: a payment that still completes is a late
	// payment, which ConfirmPaid turns into a booking or a refund.
	s.expireQuietly(ctx, b.CheckoutSessionID)
	return s.Expire(ctx, id)
}

// CheckoutPaid applies a paid Checkout Session (billing.PaymentHandler):
// the hold is confirmed, or the money goes back.
func (s *Service) CheckoutPaid(ctx context.Context, p billing.CompletedPayment) error {
	if id, ok := packageRef(p.Reference); ok {
		return s.packagePaid(ctx, id, p) // a session package (credits.go)
	}
	if b, err := s.Get(ctx, p.Reference); err == nil && b.CheckoutSessionID != "" && b.CheckoutSessionID != p.CheckoutSessionID {
		// A spare session of a double press, paid before it was expired:
		// the booking is paid through its own session, so this goes back.
		s.log.WarnContext(ctx, "booking: payment through a spare Checkout Session, refunding", "booking", b.ID, "session", p.CheckoutSessionID)
		if s.pay == nil || p.PaymentIntentID == "" {
			return nil
		}
		_, err := s.pay.Refund(ctx, p.PaymentIntentID, p.Amount, "booking-refund-session-"+p.CheckoutSessionID)
		return err
	}
	pay := Payment{BookingID: p.Reference, CheckoutSessionID: p.CheckoutSessionID, PaymentIntentID: p.PaymentIntentID,
		Amount: p.Amount, Discount: p.Discount, Currency: strings.ToUpper(p.Currency)}
	if b, err := s.Get(ctx, p.Reference); err == nil && b.PaidAt == nil && !pay.pays(b) {
		// Not the booking's price (a session made elsewhere, or the price
		// changed in the dashboard): it confirms nothing and goes back
		// whole, and the delivery is answered, so Stripe stops sending it.
		s.log.WarnContext(ctx, "booking: payment of another amount, refunding", "booking", b.ID, "session", p.CheckoutSessionID,
			"paid", p.Amount, "currency", p.Currency, "price", b.Amount)
		if s.pay == nil || p.PaymentIntentID == "" {
			return nil
		}
		_, err := s.pay.Refund(ctx, p.PaymentIntentID, p.Amount, "booking-refund-amount-"+p.CheckoutSessionID)
		return err
	}
	_, refund, err := s.ConfirmPaid(ctx, pay)
	if errs.Is(err, errs.NotFound) {
		// A payment that names no booking here: give it back whole.
		s.log.WarnContext(ctx, "booking: payment for an unknown booking, refunding", "booking", p.Reference, "session", p.CheckoutSessionID)
		if s.pay == nil || p.PaymentIntentID == "" {
			return nil
		}
		_, err := s.pay.Refund(ctx, p.PaymentIntentID, p.Amount, "booking-refund-unknown-"+p.CheckoutSessionID)
		return err
	}
	if err != nil {
		return err
	}
	if refund != nil {
		return s.Settle(ctx, refund)
	}
	return nil
}

// CheckoutClosed releases the hold a Checkout Session paid for
// (billing.PaymentHandler): the session expired or its delayed payment
// failed. A session that is not the booking's, or a booking that is no
// longer held (paid meanwhile), is left alone, so an older event never
// undoes a newer state.
func (s *Service) CheckoutClosed(ctx context.Context, reference, sessionID string) error {
	if id, ok := packageRef(reference); ok {
		return s.packageClosed(ctx, id, sessionID)
	}
	b, err := s.Get(ctx, reference)
	if errs.Is(err, errs.NotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if b.Status != StatusHeld || (b.CheckoutSessionID != "" && b.CheckoutSessionID != sessionID) {
		return nil
	}
	_, err = s.Expire(ctx, reference)
	return err
}

// PaymentRefunded records the refunds Stripe reports for a booking's
// payment, made here or in the dashboard (billing.PaymentHandler).
func (s *Service) PaymentRefunded(ctx context.Context, paymentIntentID string) error {
	var id string
	err := s.db.ReadRow(ctx, `SELECT id FROM bookings WHERE payment_intent_id = $1`, paymentIntentID).Scan(&id)
	if err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			// A session package's payment, or nobody's here.
			_, err := s.packageRefunded(ctx, paymentIntentID)
			return err
		}
		return fmt.Errorf("find the booking of %s: %w", paymentIntentID, err)
	}
	if s.pay == nil {
		return nil
	}
	refunds, err := s.pay.Refunds(ctx, paymentIntentID)
	if err != nil {
		return err
	}
	for _, r := range refunds {
		if _, err := s.RecordRefund(ctx, id, r.ID, r.Amount); err != nil {
			return err
		}
	}
	return nil
}

// Settle makes a refund owed through Stripe and records it. The
// idempotency key makes a retry the same refund.
func (s *Service) Settle(ctx context.Context, r *Refund) error {
	if r == nil || r.Amount <= 0 {
		return nil
	}
	if s.pay == nil || r.PaymentIntentID == "" {
		return fmt.Errorf("refund %d for booking %s: no payment to refund", r.Amount, r.BookingID)
	}
	got, err := s.pay.Refund(ctx, r.PaymentIntentID, r.Amount, r.IdempotencyKey)
	if err != nil {
		return err
	}
	_, err = s.RecordRefund(ctx, r.BookingID, got.ID, got.Amount)
	return err
}

// CancelAsBooker cancels through a manage link and refunds what was paid.
// A refund Stripe does not take now is retried by SettleOwed; the booking
// is cancelled either way.
func (s *Service) CancelAsBooker(ctx context.Context, id, token string) (*Booking, *Refund, error) {
	// An unpaid hold's Checkout Session is expired first, as when the
	// booker leaves Checkout, so it cannot be paid after the cancel; a
	// payment that still slips through is refunded (ConfirmPaid).
	if pre, err := s.FindByToken(ctx, id, token); err == nil && pre.Status == StatusHeld {
		s.expireQuietly(ctx, pre.CheckoutSessionID)
	}
	b, r, err := s.CancelByBooker(ctx, id, token)
	return s.settleAfter(ctx, b, r, err)
}

// CancelAsOwner cancels a booking for the owner, always with a full refund,
// and closes its Checkout Session if it was still being paid.
func (s *Service) CancelAsOwner(ctx context.Context, id string) (*Booking, *Refund, error) {
	pre, err := s.Get(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	b, r, err := s.CancelByOwner(ctx, id)
	if err == nil && pre.Status == StatusHeld {
		s.expireQuietly(ctx, pre.CheckoutSessionID)
	}
	return s.settleAfter(ctx, b, r, err)
}

func (s *Service) settleAfter(ctx context.Context, b *Booking, r *Refund, err error) (*Booking, *Refund, error) {
	if err != nil || r == nil {
		return b, r, err
	}
	if err := s.Settle(ctx, r); err != nil {
		s.log.ErrorContext(ctx, "booking: refund not made now; it will be retried", "booking", b.ID, "err", err)
		return b, r, nil
	}
	if b, err = s.Get(ctx, b.ID); err != nil {
		return nil, nil, err
	}
	return b, r, nil
}

// SettleOwed refunds every payment still owed back (a booking cancelled,
// or paid after its time was lost, whose refund Stripe did not take), and
// returns how many it settled. The worker loop runs it on every instance:
// the idempotency key and the refund record make a second run a no-op.
func (s *Service) SettleOwed(ctx context.Context) (int, error) {
	rows, err := s.db.ReadRows(ctx, `SELECT id FROM bookings b WHERE paid_at IS NOT NULL
		AND status IN ('cancelled', 'expired', 'declined') AND payment_intent_id IS NOT NULL AND payment_intent_id <> ''
		AND amount - discount > (SELECT COALESCE(SUM(r.amount), 0) FROM booking_refunds r WHERE r.booking_id = b.id)`)
	if err != nil {
		return 0, fmt.Errorf("find refunds owed: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return 0, fmt.Errorf("find refunds owed: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("find refunds owed: %w", err)
	}
	n := 0
	for _, id := range ids {
		b, err := s.Get(ctx, id)
		if err != nil {
			return n, err
		}
		if err := s.Settle(ctx, refundDue(b)); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Sweep is the booking work of the worker loop: lapsed holds expired,
// refunds owed made, freed seats offered to the wait lists, reminders
// planned. Every instance runs it; each piece
// of work is done once between them.
func (s *Service) Sweep(ctx context.Context) error {
	if _, err := s.SweepExpired(ctx); err != nil {
		return err
	}
	if s.pay != nil {
		if _, err := s.CloseLapsedCheckouts(ctx); err != nil {
			s.log.WarnContext(ctx, "booking: Checkout Sessions of lapsed holds not closed yet", "err", err)
		}
		if _, err := s.SettleOwed(ctx); err != nil {
			s.log.WarnContext(ctx, "booking: refunds owed not settled yet", "err", err)
		}
	}
	if _, err := s.OfferSeats(ctx); err != nil {
		s.log.WarnContext(ctx, "booking: seats freed for the wait lists not offered yet", "err", err)
	}
	if _, err := s.PlanCreditReminders(ctx); err != nil {
		return err
	}
	_, err := s.PlanReminders(ctx)
	return err
}

// CloseLapsedCheckouts expires at Stripe the Checkout Session of every hold
// that ended unpaid (lapsed, left, cancelled), since a session outlives its
// hold (CheckoutTTL against HoldTTL), and returns how many it closed. A
// closed session's URL is cleared, which marks it done; a session Stripe
// does not close now is tried again on the next sweep.
func (s *Service) CloseLapsedCheckouts(ctx context.Context) (int, error) {
	if s.pay == nil {
		return 0, nil
	}
	rows, err := s.db.ReadRows(ctx, `SELECT id, checkout_session_id FROM bookings
		WHERE status IN ('expired', 'cancelled') AND paid_at IS NULL AND checkout_url <> ''
		  AND checkout_session_id IS NOT NULL AND checkout_session_id <> ''`)
	if err != nil {
		return 0, fmt.Errorf("find lapsed checkouts: %w", err)
	}
	type lapsed struct{ id, session string }
	var list []lapsed
	for rows.Next() {
		var l lapsed
		if err := rows.Scan(&l.id, &l.session); err != nil {
			_ = rows.Close()
			return 0, fmt.Errorf("find lapsed checkouts: %w", err)
		}
		list = append(list, l)
	}
	if err := rows.Close(); err != nil {
		return 0, fmt.Errorf("find lapsed checkouts: %w", err)
	}
	n := 0
	for _, l := range list {
		if err := s.pay.ExpireCheckout(ctx, l.session); err != nil {
			return n, err
		}
		if _, err := s.db.Write.ExecContext(ctx, `UPDATE bookings SET checkout_url = '' WHERE id = $1 AND checkout_session_id = $2`,
			l.id, l.session); err != nil {
			return n, fmt.Errorf("mark checkout closed: %w", err)
		}
		n++
	}
	return n, nil
}

// RefundRecord is one refund recorded for a booking.
type RefundRecord struct {
	StripeRefundID string    `json:"stripe_refund_id"`
	Amount         int64     `json:"amount"`
	Currency       string    `json:"currency"`
	CreatedAt      time.Time `json:"created_at"`
}

// RefundsOf lists a booking's refunds, oldest first (admins).
func (s *Service) RefundsOf(ctx context.Context, id string) ([]RefundRecord, error) {
	rows, err := s.db.ReadRows(ctx, `SELECT stripe_refund_id, amount, currency, created_at FROM booking_refunds
		WHERE booking_id = $1 ORDER BY created_at, id`, id)
	if err != nil {
		return nil, fmt.Errorf("list refunds of %s: %w", id, err)
	}
	defer func() { _ = rows.Close() }()
	out := []RefundRecord{}
	for rows.Next() {
		var (
			r  RefundRecord
			at store.Time
		)
		if err := rows.Scan(&r.StripeRefundID, &r.Amount, &r.Currency, &at); err != nil {
			return nil, fmt.Errorf("list refunds of %s: %w", id, err)
		}
		r.CreatedAt = at.Time
		out = append(out, r)
	}
	return out, rows.Err()
}

// PaymentsEnabled reports whether paid types are held for online payment.
func (s *Service) PaymentsEnabled() bool { return s.payments }

// TypeName is a type's name for people, or its id when unknown.
func (s *Service) TypeName(id string) string { return s.typeName(id) }

// Type returns the bookable type with this id.
func (s *Service) Type(id string) (Type, bool) {
	t, ok := s.byID[id]
	return t, ok
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }
