package billing

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/stripe/stripe-go/v86"
)

// One-time payments: a booking pays through a Checkout Session in payment
// mode, on the same Stripe client and the same webhook endpoint as the
// tribe. Billing opens, expires and refunds those sessions and hands their
// webhook events to the PaymentHandler; what a payment means is the
// handler's business.

// MetaBookingID is the Checkout Session metadata key that marks a booking's
// payment and names the booking.
const MetaBookingID = "booking_id"

// PaymentCheckout asks for a one-time Checkout Session.
type PaymentCheckout struct {
	Reference   string // the booking id, put in metadata booking_id
	Description string // the line item, e.g. "30-Minute Session, Mon 2 March 2026 3:00 PM"
	Amount      int64  // smallest currency unit
	Currency    string // ISO 4217, any case
	Email       string // prefilled in Checkout
	ExpiresAt   time.Time
	SuccessURL  string
	CancelURL   string
	// IdempotencyKey makes concurrent or repeated requests for one hold one
	// session at Stripe.
	IdempotencyKey string
	// AllowPromotionCodes lets the payer enter a Stripe promotion code; the
	// completed session's amount_total is then what was really paid, and
	// the payment arrives with Discount set.
	AllowPromotionCodes bool
}

// OpenedCheckout is a Checkout Session to send the payer to.
type OpenedCheckout struct {
	ID  string
	URL string
}

// StripeRefund is one refund as Stripe reports it.
type StripeRefund struct {
	ID     string
	Amount int64
	Status string
}

// CompletedPayment is a paid one-time Checkout Session.
type CompletedPayment struct {
	Reference         string
	CheckoutSessionID string
	PaymentIntentID   string
	// Amount is what was paid (the session's amount_total); Discount what
	// promotion codes took off (total_details.amount_discount), so Amount +
	// Discount is the price asked.
	Amount   int64
	Discount int64
	Currency string // upper case
}

// PaymentHandler applies the webhook events of one-time payments. Each
// method must be idempotent: billing records the event after it returns
// nil, and a delivery that fails in between is delivered again.
type PaymentHandler interface {
	// CheckoutPaid: checkout.session.completed with payment_status paid, or
	// checkout.session.async_payment_succeeded.
	CheckoutPaid(ctx context.Context, p CompletedPayment) error
	// CheckoutClosed: checkout.session.expired or
	// checkout.session.async_payment_failed; the hold it paid for ends.
	CheckoutClosed(ctx context.Context, reference, sessionID string) error
	// PaymentRefunded: charge.refunded for a payment intent.
	PaymentRefunded(ctx context.Context, paymentIntentID string) error
}

// SetPaymentHandler names who applies one-time payment events. Call it
// once, while wiring, before the server starts.
func (s *Service) SetPaymentHandler(h PaymentHandler) { s.payments = h }

// OpenPaymentCheckout creates a one-time Checkout Session in payment mode
// with metadata booking_id (on the session and its payment), the price
// given inline, and expires_at as asked (Stripe accepts 30 minutes to 24
// hours ahead).
func (s *Service) OpenPaymentCheckout(ctx context.Context, p PaymentCheckout) (OpenedCheckout, error) {
	if !s.Enabled() {
		return OpenedCheckout{}, errOff()
	}
	meta := map[string]string{MetaBookingID: p.Reference}
	params := &stripe.CheckoutSessionCreateParams{
		Mode:              stripe.String("payment"),
		ClientReferenceID: stripe.String(p.Reference),
		LineItems: []*stripe.CheckoutSessionCreateLineItemParams{{
			Quantity: stripe.Int64(1),
			PriceData: &stripe.CheckoutSessionCreateLineItemPriceDataParams{
				Currency:    stripe.String(strings.ToLower(p.Currency)),
				UnitAmount:  stripe.Int64(p.Amount),
				ProductData: &stripe.CheckoutSessionCreateLineItemPriceDataProductDataParams{Name: stripe.String(p.Description)},
			},
		}},
		SuccessURL:        stripe.String(p.SuccessURL),
		CancelURL:         stripe.String(p.CancelURL),
		ExpiresAt:         stripe.Int64(p.ExpiresAt.Unix()),
		Metadata:          meta,
		PaymentIntentData: &stripe.CheckoutSessionCreatePaymentIntentDataParams{Metadata: meta, Description: stripe.String(p.Description)},
	}
	if p.Email != "" {
		params.CustomerEmail = stripe.String(p.Email)
	}
	if p.AllowPromotionCodes {
		params.AllowPromotionCodes = stripe.Bool(true)
	}
	if p.IdempotencyKey != "" {
		params.SetIdempotencyKey(p.IdempotencyKey)
	}
	cs, err := s.stripe.V1CheckoutSessions.Create(ctx, params)
	if err != nil {
		return OpenedCheckout{}, fmt.Errorf("create payment Checkout Session for %s: %w", p.Reference, err)
	}
	if cs.URL == "" {
		return OpenedCheckout{}, fmt.Errorf("payment Checkout Session %s for %s has no URL", cs.ID, p.Reference)
	}
	return OpenedCheckout{ID: cs.ID, URL: cs.URL}, nil
}

// ExpireCheckout closes an open Checkout Session so it can no longer be
// paid. A session that is already closed is not an error.
func (s *Service) ExpireCheckout(ctx context.Context, sessionID string) error {
	if !s.Enabled() {
		return errOff()
	}
	_, err := s.stripe.V1CheckoutSessions.Expire(ctx, sessionID, nil)
	var se *stripe.Error
	if err != nil && errors.As(err, &se) && se.HTTPStatusCode == 400 {
		// "Only Checkout Sessions with a status of open can be expired":
		// complete or expired already, which is what we wanted or a payment
		// that its webhook will bring.
		return nil
	}
	if err != nil {
		return fmt.Errorf("expire Checkout Session %s: %w", sessionID, err)
	}
	return nil
}

// Refund returns amount of a payment intent; the idempotency key makes a
// retry the same refund.
func (s *Service) Refund(ctx context.Context, paymentIntentID string, amount int64, idempotencyKey string) (StripeRefund, error) {
	if !s.Enabled() {
		return StripeRefund{}, errOff()
	}
	params := &stripe.RefundCreateParams{PaymentIntent: stripe.String(paymentIntentID), Amount: stripe.Int64(amount)}
	params.SetIdempotencyKey(idempotencyKey)
	r, err := s.stripe.V1Refunds.Create(ctx, params)
	if err != nil {
		return StripeRefund{}, fmt.Errorf("refund %d of %s: %w", amount, paymentIntentID, err)
	}
	return StripeRefund{ID: r.ID, Amount: r.Amount, Status: string(r.Status)}, nil
}

// Refunds lists the refunds of a payment intent, made here or in the
// dashboard. Failed and cancelled refunds are left out.
func (s *Service) Refunds(ctx context.Context, paymentIntentID string) ([]StripeRefund, error) {
	if !s.Enabled() {
		return nil, errOff()
	}
	list := s.stripe.V1Refunds.List(ctx, &stripe.RefundListParams{
		PaymentIntent: stripe.String(paymentIntentID),
		ListParams:    stripe.ListParams{Limit: stripe.Int64(100)},
	})
	var out []StripeRefund
	for r, err := range list.All(ctx) {
		if err != nil {
			return nil, fmt.Errorf("list refunds of %s: %w", paymentIntentID, err)
		}
		if r.Status == stripe.RefundStatusFailed || r.Status == stripe.RefundStatusCanceled {
			continue
		}
		out = append(out, StripeRefund{ID: r.ID, Amount: r.Amount, Status: string(r.Status)})
	}
	return out, nil
}

// onPaymentEvent hands a one-time payment's event to the handler and then
// records it. It reports false when the event is not a one-time payment's.
func (s *Service) onPaymentEvent(ctx context.Context, ev stripe.Event) (bool, error) {
	if s.payments == nil {
		return false, nil
	}
	var apply func() error
	switch t := string(ev.Type); {
	case strings.HasPrefix(t, "checkout.session."):
		var cs stripe.CheckoutSession
		if err := json.Unmarshal(ev.Data.Raw, &cs); err != nil {
			return true, badEvent(ev, err)
		}
		ref := cs.Metadata[MetaBookingID]
		if cs.Mode != stripe.CheckoutSessionModePayment || ref == "" {
			return false, nil
		}
		switch t {
		case "checkout.session.completed", "checkout.session.async_payment_succeeded":
			if cs.PaymentStatus != stripe.CheckoutSessionPaymentStatusPaid {
				// Completed but still processing (a bank debit): the
				// async_payment_* event that follows decides.
				apply = func() error { return nil }
				break
			}
			p := CompletedPayment{Reference: ref, CheckoutSessionID: cs.ID, Amount: cs.AmountTotal,
				Currency: strings.ToUpper(string(cs.Currency))}
			if cs.TotalDetails != nil {
				p.Discount = cs.TotalDetails.AmountDiscount
			}
			if cs.PaymentIntent != nil {
				p.PaymentIntentID = cs.PaymentIntent.ID
			}
			apply = func() error { return s.payments.CheckoutPaid(ctx, p) }
		case "checkout.session.expired", "checkout.session.async_payment_failed":
			apply = func() error { return s.payments.CheckoutClosed(ctx, ref, cs.ID) }
		default:
			return false, nil
		}
	case t == "charge.refunded":
		var ch stripe.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil {
			return true, badEvent(ev, err)
		}
		if ch.PaymentIntent == nil || ch.PaymentIntent.ID == "" {
			return true, s.recordOnly(ctx, ev)
		}
		pi := ch.PaymentIntent.ID
		apply = func() error { return s.payments.PaymentRefunded(ctx, pi) }
	default:
		return false, nil
	}
	if err := apply(); err != nil {
		return true, fmt.Errorf("apply event %s (%s): %w", ev.ID, ev.Type, err)
	}
	return true, s.recordOnly(ctx, ev)
}

// recordOnly records an event whose effect was applied (idempotently)
// outside billing's transaction.
func (s *Service) recordOnly(ctx context.Context, ev stripe.Event) error {
	return s.db.Tx(ctx, func(tx *sql.Tx) error {
		_, err := s.recordEvent(ctx, tx, ev, nil)
		return err
	})
}
