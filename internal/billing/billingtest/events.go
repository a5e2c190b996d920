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
	// A promotion code's discount on the subscription: PercentOff or
	// AmountOff (in Currency), DiscountDuration (forever when empty:
	// once, repeating, forever) and DiscountEnd (Unix seconds, 0 for
	// none). DiscountIDsOnly writes the discount as an id, as a webhook's
	// payload does; the Fake always expands it, as an expanded read does.
	PercentOff       float64
	AmountOff        int64
	DiscountDuration string
	DiscountEnd      int64
	DiscountIDsOnly  bool
}

// discounts is the subscription's discounts array.
func (s Sub) discounts(expand bool) []any {
	if s.PercentOff == 0 && s.AmountOff == 0 {
		return []any{}
	}
	id := "di_" + s.ID
	if !expand {
		return []any{id}
	}
	duration := s.DiscountDuration
	if duration == "" {
		duration = "forever"
	}
	coupon := map[string]any{"id": "co_" + s.ID, "object": "coupon", "duration": duration, "valid": true}
	if s.PercentOff != 0 {
		coupon["percent_off"] = s.PercentOff
	} else {
		currency := s.Currency
		if currency == "" {
			currency = "usd"
		}
		coupon["amount_off"], coupon["currency"] = s.AmountOff, currency
	}
	var end any
	if s.DiscountEnd != 0 {
		end = s.DiscountEnd
	}
	return []any{map[string]any{"id": id, "object": "discount", "subscription": s.ID, "start": s.Created, "end": end,
		"promotion_code": "promo_" + s.ID, "source": map[string]any{"type": "coupon", "coupon": coupon}}}
}

// Object is the subscription as Stripe's API (pinned version) shows it,
// in a webhook's payload (discounts as ids when DiscountIDsOnly).
func (s Sub) Object() map[string]any { return s.object(!s.DiscountIDsOnly) }

// Expanded is the subscription as an API read with its discounts expanded.
func (s Sub) Expanded() map[string]any { return s.object(true) }

func (s Sub) object(expand bool) map[string]any {
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
		"discounts":            s.discounts(expand),
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

// PaymentSessionDiscounted is PaymentSession after a promotion code took
// discount off the price: amount_total is what was paid, total_details
// says what was taken off.
func PaymentSessionDiscounted(id, bookingID, paymentIntent string, price, discount int64, currency string) map[string]any {
	s := PaymentSession(id, bookingID, paymentIntent, "paid", price-discount, currency)
	s["amount_subtotal"] = price
	s["total_details"] = map[string]any{"amount_discount": discount, "amount_shipping": 0, "amount_tax": 0}
	return s
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
