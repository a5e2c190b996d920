package billing

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stripe/stripe-go/v86"

	"tribe/internal/store"
)

// HandledEvents lists the Stripe event types HandleWebhook acts on; the
// webhook endpoint should send exactly these (docs/billing.md).
func HandledEvents() []string {
	return []string{
		"checkout.session.completed",
		"checkout.session.expired",
		"customer.subscription.created",
		"customer.subscription.updated",
		"customer.subscription.deleted",
		"customer.subscription.paused",
		"customer.subscription.resumed",
		"invoice.paid",
		"invoice.payment_failed",
		// One-time payments (bookings).
		"checkout.session.async_payment_succeeded",
		"checkout.session.async_payment_failed",
		"charge.refunded",
	}
}

// Outcome is what became of one webhook delivery (the metrics count by it).
type Outcome string

// The outcomes of a verified delivery.
const (
	Applied   Outcome = "applied"   // recorded, its effect written
	Ignored   Outcome = "ignored"   // not billing's: another event type, product or kind of checkout
	Duplicate Outcome = "duplicate" // recorded before: a redelivery, nothing done
	Rejected  Outcome = "rejected"  // refused (it would touch another member's customer), recorded as such, nothing changed
)

// Handled is what HandleWebhook did with a delivery: its outcome and the
// members whose subscription changed.
type Handled struct {
	Outcome Outcome
	Changed []string
}

// HandleWebhook verifies and applies one Stripe webhook delivery: payload is
// the raw request body and sigHeader its Stripe-Signature header. It reports
// the outcome and the members whose subscription changed, so the caller can
// count it and publish live updates (topic "subscription" for each, and the
// tribe count).
//
// A missing, malformed or wrong signature, or one whose timestamp is more
// than five minutes from now, is an errs.Invalid error (answer 400) and
// nothing is applied; so is a signed body that is not an event. Without
// STRIPE_WEBHOOK_SECRET it is billing_unavailable. Event types not handled
// are accepted and ignored. Each event is applied at most once: its id is
// recorded in the same transaction as its effect, so a redelivery is a no-op.
// Only a database failure is returned as an internal error (answer 500, and
// Stripe retries); Stripe API failures while handling are logged and the
// event's own data is used.
func (s *Service) HandleWebhook(ctx context.Context, payload []byte, sigHeader string) (Handled, error) {
	ev, err := s.verify(payload, sigHeader)
	if err != nil {
		return Handled{}, err
	}
	if !handled(string(ev.Type)) {
		return Handled{Outcome: Ignored}, nil
	}
	var seen int
	if err := s.db.Read.QueryRowContext(ctx, `SELECT COUNT(*) FROM payment_events WHERE id = $1`, ev.ID).Scan(&seen); err != nil {
		return Handled{}, fmt.Errorf("check event %s: %w", ev.ID, err)
	}
	if seen > 0 {
		return Handled{Outcome: Duplicate}, nil
	}
	// A booking's payment (payment mode, metadata booking_id) or refund.
	if ours, err := s.onPaymentEvent(ctx, ev); ours || err != nil {
		return Handled{Outcome: Applied}, err
	}
	raw := ev.Data.Raw
	switch t := string(ev.Type); {
	case strings.HasPrefix(t, "customer.subscription."):
		var sub stripe.Subscription
		if err := json.Unmarshal(raw, &sub); err != nil {
			return Handled{}, badEvent(ev, err)
		}
		return s.onSubscription(ctx, ev, s.remote(&sub, ev.Created))
	case t == "charge.refunded" || t == "checkout.session.async_payment_succeeded" || t == "checkout.session.async_payment_failed":
		// One-time payments that are nobody's (no handler, no booking_id):
		// recorded, nothing to apply.
		return Handled{Outcome: Ignored}, s.recordOnly(ctx, ev)
	case strings.HasPrefix(t, "checkout.session."):
		var cs stripe.CheckoutSession
		if err := json.Unmarshal(raw, &cs); err != nil {
			return Handled{}, badEvent(ev, err)
		}
		if t == "checkout.session.expired" {
			return s.onceChanged(ctx, ev, func(tx *sql.Tx) ([]string, error) {
				_, _, err := releaseSeatTx(ctx, tx, "", cs.ID)
				return nil, err
			})
		}
		return s.onCheckoutCompleted(ctx, ev, &cs)
	default: // invoice.paid, invoice.payment_failed
		var inv stripe.Invoice
		if err := json.Unmarshal(raw, &inv); err != nil {
			return Handled{}, badEvent(ev, err)
		}
		return s.onInvoice(ctx, ev, &inv)
	}
}

func handled(t string) bool { return slices.Contains(HandledEvents(), t) }

// onceChanged runs fn in a transaction that first records the event, so
// fn's effect and the record commit together and a redelivery does nothing
// (Duplicate). fn returns the members whose subscription changed.
// A rejection from fn rolls its effects back and records the event as
// rejected, with a log line, so the delivery is answered 2xx and never
// retried.
func (s *Service) onceChanged(ctx context.Context, ev stripe.Event, fn func(tx *sql.Tx) ([]string, error)) (Handled, error) {
	out := Handled{Outcome: Applied}
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		recorded, err := s.recordEvent(ctx, tx, ev, nil)
		if err != nil || !recorded {
			out.Outcome = Duplicate // applied already by another delivery
			return err
		}
		out.Changed, err = fn(tx)
		return err
	})
	var rej *rejection
	if errors.As(err, &rej) {
		s.log.WarnContext(ctx, "billing: webhook event rejected, nothing changed",
			"event", ev.ID, "type", string(ev.Type), "why", rej.reason)
		out = Handled{Outcome: Rejected}
		err = s.db.Tx(ctx, func(tx *sql.Tx) error {
			recorded, err := s.recordEvent(ctx, tx, ev, &rej.reason)
			if err == nil && !recorded {
				out.Outcome = Duplicate
			}
			return err
		})
	}
	if err != nil {
		return Handled{}, fmt.Errorf("apply event %s (%s): %w", ev.ID, ev.Type, err)
	}
	return out, nil
}

// recordEvent records ev as processed (rejected says why it was not
// applied). It reports false when the event was recorded before.
func (s *Service) recordEvent(ctx context.Context, tx *sql.Tx, ev stripe.Event, rejected *string) (bool, error) {
	res, err := tx.ExecContext(ctx,
		`INSERT INTO payment_events (id, type, received_at, processed_at, rejected) VALUES ($1, $2, $3, $3, $4) ON CONFLICT DO NOTHING`,
		ev.ID, string(ev.Type), store.At(s.now()), rejected)
	if err != nil {
		return false, fmt.Errorf("record event %s: %w", ev.ID, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("record event %s: %w", ev.ID, err)
	}
	return n > 0, nil
}
