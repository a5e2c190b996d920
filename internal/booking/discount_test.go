package booking

import (
	"context"
	"strings"
	"testing"
	"time"

	"tribe/internal/content"
	"tribe/internal/mail"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// A payment made with a promotion code: the price less the discount is
// recorded as paid, the confirmation says so, the month's takings count
// what was paid, and a cancellation refunds what was paid, not the price.
// A payment short of the price with no discount behind it confirms
// nothing.
func TestPromotionCodePaymentIsRecordedAsPaid(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, true)
		c := book(t, s, req("session-60", at(2026, time.January, 8, 10, 0), "ada@example.com"))
		clock.Advance(time.Minute) // paid a minute later
		price := c.Booking.Amount
		if price <= 1000 {
			t.Fatalf("price %d", price)
		}
		// Short, and no discount says why: not this booking's payment.
		short := Payment{BookingID: c.Booking.ID, CheckoutSessionID: "cs_1", PaymentIntentID: "pi_1", Amount: price - 1000, Currency: "USD"}
		if _, _, err := s.ConfirmPaid(ctx, short); err == nil {
			t.Fatal("a short payment without a discount was accepted")
		}
		// A discount larger than the price is refused too.
		if _, _, err := s.ConfirmPaid(ctx, Payment{BookingID: c.Booking.ID, CheckoutSessionID: "cs_1", Amount: -1000,
			Discount: price + 1000, Currency: "USD"}); err == nil {
			t.Fatal("a discount beyond the price was accepted")
		}
		short.Discount = 1000
		b, refund, err := s.ConfirmPaid(ctx, short)
		if err != nil || refund != nil || b.Status != StatusConfirmed || b.Discount != 1000 || b.Paid() != price-1000 {
			t.Fatalf("confirmed %+v, refund %+v, %v", b, refund, err)
		}
		// Applied twice: nothing changes.
		if b, _, err := s.ConfirmPaid(ctx, short); err != nil || b.Discount != 1000 {
			t.Fatalf("replay %+v %v", b, err)
		}
		list, err := mail.List(ctx, db, 100)
		if err != nil {
			t.Fatal(err)
		}
		var conf string
		for _, m := range list {
			if strings.Contains(m.To, "ada@example.com") {
				conf += m.Subject + "\n" + m.Text + "\n"
			}
		}
		want := "Paid: " + content.FormatMinor(price-1000, "USD") + " (" + content.FormatMinor(price, "USD") + " less " +
			content.FormatMinor(1000, "USD") + " off)"
		if !strings.Contains(conf, want) {
			t.Fatalf("confirmation does not say what was paid (%s):\n%s", want, conf)
		}
		takings, err := Takings(ctx, db, monday.AddDate(0, 0, -1), monday.AddDate(0, 1, 0))
		if err != nil || len(takings) != 1 || takings[0].Amount != price-1000 {
			t.Fatalf("takings %+v %v", takings, err)
		}
		_, refund, err = s.CancelByOwner(ctx, b.ID)
		if err != nil || refund == nil || refund.Amount != price-1000 {
			t.Fatalf("owner's cancellation: refund %+v, %v", refund, err)
		}
	})
}

// Marking a call completed or a no-show sends the booker nothing and
// drops the reminders planned for it; Outcomes lists both for Insights.
func TestOutcomesSendNothingAndAreListed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s, clock := newService(t, db, false)
		a := book(t, s, req("session-30", at(2026, time.January, 7, 10, 0), "a@example.com")).Booking
		b := book(t, s, req("session-30", at(2026, time.January, 7, 13, 0), "b@example.com")).Booking
		for _, id := range []string{a.ID, b.ID} {
			if _, err := s.ConfirmRequest(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		clock.Set(at(2026, time.January, 7, 9, 30)) // the 1-hour reminders are due
		if _, err := s.PlanReminders(ctx); err != nil {
			t.Fatal(err)
		}
		before := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE to_addr IN ('a@example.com', 'b@example.com')`)
		clock.Set(at(2026, time.January, 7, 14, 0))
		if _, err := s.NoShow(ctx, a.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Complete(ctx, b.ID); err != nil {
			t.Fatal(err)
		}
		if after := count(t, db, `SELECT COUNT(*) FROM mail_outbox WHERE to_addr IN ('a@example.com', 'b@example.com')`); after > before {
			t.Fatalf("mails to the bookers went from %d to %d on marking", before, after)
		}
		got, err := Outcomes(ctx, db, monday, monday.AddDate(0, 1, 0))
		if err != nil || len(got) != 2 || !got[0].NoShow || got[1].NoShow {
			t.Fatalf("outcomes %+v %v", got, err)
		}
	})
}
