package billing

import (
	"bytes"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestPrefixedTimestampCannotReplayAnOldEvent: the freshness check used to
// read the first t= of Stripe-Signature while the signature check reads the
// last, so putting "t=<now>," in front of an hour-old (or 30-day-old) signed
// delivery made it pass. The check now reads the timestamp that was signed,
// and a header with two timestamps is refused.
func TestPrefixedTimestampCannotReplayAnOldEvent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, billingtest.NewFake(t).URL, 50)
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		now := strconv.FormatInt(e.clock.Now().Unix(), 10)
		for _, age := range []time.Duration{time.Hour, 30 * 24 * time.Hour} {
			signed := e.clock.Now().Add(-age)
			body := billingtest.Event(fmt.Sprintf("evt_old_%d", int(age.Hours())), "customer.subscription.created", signed.Unix(), m.sub.Object())
			old := billingtest.Sign(body, testSecret, signed)
			for name, header := range map[string]string{
				"as signed":      old,
				"prefixed":       "t=" + now + "," + old,
				"prefixed twice": "t=" + now + ",t=" + now + "," + old,
				"spaced suffix":  old + ", t=" + now, // " t" is no key to the signature check
				"spaced prefix":  " t=" + now + "," + old,
			} {
				done, err := e.svc.HandleWebhook(e.ctx, body, header)
				if !errs.Is(err, errs.Invalid) || done.Changed != nil {
					t.Errorf("%v old, %s: %v %v, want invalid", age, name, done, err)
				}
			}
		}
		if e.events() != 0 || e.sub(m.id) != nil {
			t.Fatal("a replayed delivery was applied")
		}
		// The same event signed now applies.
		body := billingtest.Event("evt_fresh", "customer.subscription.created", e.clock.Now().Unix(), m.sub.Object())
		if changed, err := e.deliver(body); err != nil || len(changed) != 1 {
			t.Fatalf("fresh delivery: %v %v", changed, err)
		}
	})
}

// TestWebhookNamingAnotherMembersCustomerIsRejected: an event whose
// subscription names another member's Stripe customer used to fail on the
// unique customer column with 500, unrecorded, so Stripe retried it for
// days. It is now recorded as rejected with a log line and answered without
// error, and nobody's membership changes.
func TestWebhookNamingAnotherMembersCustomerIsRejected(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		var logs bytes.Buffer
		e.svc.log = slog.New(slog.NewTextHandler(&logs, nil))
		var seq eventSeq
		t0 := e.clock.Now().Unix()
		ada := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		bob := e.payingMember("Bob", "bob@example.com", "cus_b", "sub_b")
		e.mustDeliver(seq.subEvent("created", t0, ada.sub))
		e.mustDeliver(seq.subEvent("created", t0, bob.sub))
		before := map[string]Subscription{ada.id: *e.sub(ada.id), bob.id: *e.sub(bob.id)}

		// Ada's subscription, now naming Bob's customer and canceled.
		forged := ada.sub
		forged.Customer, forged.Status = "cus_b", StatusCanceled
		// Carol's checkout completing with Bob's customer, whose link only
		// the subscriptions row holds (as rows from before billing_customers).
		carol := e.user("carol@example.com", "Carol")
		if _, err := db.Write.ExecContext(e.ctx, `DELETE FROM billing_customers WHERE user_id = $1`, bob.id); err != nil {
			t.Fatal(err)
		}
		fake.PutSubscription(bob.sub)
		for _, body := range [][]byte{
			seq.subEvent("updated", t0+10, forged),
			billingtest.Event(seq.id(), "checkout.session.completed", t0+20, billingtest.CheckoutSession("cs_carol", "cus_b", "sub_b", carol)),
		} {
			// A redelivery is answered the same way; the metrics count the
			// first as rejected (it was counted as applied) and the second
			// as a duplicate.
			for _, want := range []Outcome{Rejected, Duplicate} {
				done, err := e.handle(body)
				if err != nil || done.Changed != nil || done.Outcome != want {
					t.Fatalf("delivery: %+v %v, want %s with no change", done, err, want)
				}
			}
		}
		for id, want := range before {
			if got := e.sub(id); got.Status != want.Status || got.StripeSubscriptionID != want.StripeSubscriptionID {
				t.Fatalf("member %s: %+v, want %+v", id, got, want)
			}
		}
		if s := e.sub(carol); s != nil {
			t.Fatalf("Carol got Bob's subscription: %+v", s)
		}
		if c, err := customerOf(e.ctx, db.Read, carol); err != nil || c != "" {
			t.Fatalf("Carol was linked to customer %q (%v)", c, err)
		}
		if c, err := customerOf(e.ctx, db.Read, ada.id); err != nil || c != "cus_a" {
			t.Fatalf("Ada's customer is %q (%v)", c, err)
		}
		var rejected int
		if err := db.Read.QueryRowContext(e.ctx,
			`SELECT COUNT(*) FROM payment_events WHERE rejected LIKE '%customer cus_b belongs to member%'`).Scan(&rejected); err != nil || rejected != 2 {
			t.Fatalf("%d events recorded as rejected (%v), want 2", rejected, err)
		}
		if n := strings.Count(logs.String(), "webhook event rejected"); n != 2 {
			t.Fatalf("%d rejection log lines, want 2:\n%s", n, logs.String())
		}
	})
}
