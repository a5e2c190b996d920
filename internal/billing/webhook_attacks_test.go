package billing

import (
	"fmt"
	"strconv"
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
				changed, err := e.svc.HandleWebhook(e.ctx, body, header)
				if !errs.Is(err, errs.Invalid) || changed != nil {
					t.Errorf("%v old, %s: %v %v, want invalid", age, name, changed, err)
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
