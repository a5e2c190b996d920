package billingtest

import (
	"encoding/json"
	"time"

	"github.com/stripe/stripe-go/v86"
	"github.com/stripe/stripe-go/v86/webhook"
)

// Sub describes a Stripe subscription for events and for Fake.
type Sub struct {
	ID, Customer, Status, Price string
	// UserID is the user_id metadata Checkout puts on the subscription.
	UserID            string
	PeriodEnd         int64 // the item's current_period_end (Unix seconds)
	CancelAtPeriodEnd bool
	CancelAt          int64
	Created           int64
	// Amount is the price's unit amount in the smallest currency unit;
	// Currency ("usd" when empty) and Interval ("month" when empty) its
	// currency and billing interval; Quantity (1 when 0) the item's.
	Amount   int64
	Currency string
	Interval string
	Quantity int64
}

// Object is the subscription as Stripe's API (pinned version) shows it.
func (s Sub) Object() map[string]any {
	meta := map[string]any{}
	if s.UserID != "" {
		meta["user_id"] = s.UserID
	}
	var cancelAt any
	if s.CancelAt != 0 {
		cancelAt = s.CancelAt
	}
	currency, interval, quantity := s.Currency, s.Interval, s.Quantity
	if currency == "" {
		currency = "usd"
	}
	if interval == "" {
		interval = "month"
	}
	if quantity == 0 {
		quantity = 1
	}
	return map[string]any{
		"id":                   s.ID,
		"object":               "subscription",
		"customer":             s.Customer,
		"status":               s.Status,
		"cancel_at_period_end": s.CancelAtPeriodEnd,
		"cancel_at":            cancelAt,
		"created":              s.Created,
		"currency":             currency,
		"metadata":             meta,
		"items": map[string]any{
			"object": "list",
			"data": []any{map[string]any{
				"id":                   "si_" + s.ID,
				"object":               "subscription_item",
				"subscription":         s.ID,
				"current_period_end":   s.PeriodEnd,
				"current_period_start": s.PeriodEnd - 30*24*3600,
				"price": map[string]any{"id": s.Price, "object": "price", "unit_amount": s.Amount, "currency": currency,
					"recurring": map[string]any{"interval": interval, "interval_count": 1}},
				"quantity": quantity,
			}},
		},
	}
}

// CheckoutSession is a completed (or expired) subscription-mode Checkout
// Session object.
func CheckoutSession(id, customer, subscription, userID string) map[string]any {
	var sub any
	if subscription != "" {
		sub = subscription
	}
	return map[string]any{
		"id":                  id,
		"object":              "checkout.session",
		"mode":                "subscription",
		"customer":            customer,
		"subscription":        sub,
		"client_reference_id": userID,
		"metadata":            map[string]any{"user_id": userID},
		"payment_status":      "paid",
		"status":              "complete",
	}
}

// Invoice is a subscription invoice object.
func Invoice(id, customer, subscription, userID string) map[string]any {
	return map[string]any{
		"id":       id,
		"object":   "invoice",
		"customer": customer,
		"parent": map[string]any{
			"type": "subscription_details",
			"subscription_details": map[string]any{
				"subscription": subscription,
				"metadata":     map[string]any{"user_id": userID},
			},
		},
	}
}

// Event is the JSON body of a webhook event carrying object.
func Event(id, typ string, created int64, object any) []byte {
	b, err := json.Marshal(map[string]any{
		"id":          id,
		"object":      "event",
		"api_version": stripe.APIVersion,
		"created":     created,
		"type":        typ,
		"livemode":    false,
		"data":        map[string]any{"object": object},
	})
	if err != nil {
		panic(err) // maps of plain values always marshal
	}
	return b
}

// Sign returns the Stripe-Signature header for payload signed with secret
// at the given time.
func Sign(payload []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: payload, Secret: secret, Timestamp: at}).Header
}

// PaymentSession is a one-time (payment mode) Checkout Session for a
// booking, as its webhook events carry it.
func PaymentSession(id, bookingID, paymentIntent, paymentStatus string, amount int64, currency string) map[string]any {
	var pi any
	if paymentIntent != "" {
		pi = paymentIntent
	}
	return map[string]any{
		"id":                  id,
		"object":              "checkout.session",
		"mode":                "payment",
		"client_reference_id": bookingID,
		"metadata":            map[string]any{"booking_id": bookingID},
		"payment_intent":      pi,
		"payment_status":      paymentStatus,
		"amount_total":        amount,
		"currency":            currency,
		"status":              "complete",
	}
}

// Charge is a charge of a payment intent, as charge.refunded carries it.
func Charge(id, paymentIntent string, amount, refunded int64) map[string]any {
	return map[string]any{
		"id":              id,
		"object":          "charge",
		"payment_intent":  paymentIntent,
		"amount":          amount,
		"amount_refunded": refunded,
		"refunded":        refunded == amount,
		"currency":        "usd",
	}
}
