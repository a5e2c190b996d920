package billing

import (
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// member is a test member with a Stripe customer and subscription.
type member struct {
	id, email string
	sub       billingtest.Sub
}

// payingMember links a new member to a customer, as Checkout would have.
func (e *env) payingMember(name, email, customer, subID string) member {
	e.t.Helper()
	id := e.user(email, name)
	if _, err := e.db.Write.ExecContext(e.ctx,
		`INSERT INTO billing_customers (user_id, stripe_customer_id) VALUES ($1, $2)`, id, customer); err != nil {
		e.t.Fatal(err)
	}
	return member{id: id, email: email, sub: billingtest.Sub{
		ID: subID, Customer: customer, Status: StatusActive, Price: testPrice, UserID: id,
		PeriodEnd: e.clock.Now().Add(30 * 24 * time.Hour).Unix(), Created: e.clock.Now().Unix(),
	}}
}

func (e *env) events() int {
	e.t.Helper()
	var n int
	if err := e.db.Read.QueryRowContext(e.ctx, `SELECT COUNT(*) FROM payment_events`).Scan(&n); err != nil {
		e.t.Fatal(err)
	}
	return n
}

func TestWebhookHappyPath(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		var seq eventSeq
		ada := e.user("ada@example.com", "Ada Lovelace")
		url, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members")
		if err != nil {
			t.Fatal(err)
		}
		session := strings.TrimPrefix(url, "https://checkout.stripe.test/c/")
		now := e.clock.Now().Unix()
		sub := billingtest.Sub{ID: "sub_1", Customer: "cus_fake1", Status: StatusActive, Price: testPrice, UserID: ada,
			PeriodEnd: now + 30*24*3600, Created: now}
		fake.PutSubscription(sub)

		changed := e.mustDeliver(billingtest.Event(seq.id(), "checkout.session.completed", now,
			billingtest.CheckoutSession(session, "cus_fake1", "sub_1", ada)))
		if len(changed) != 1 || changed[0] != ada {
			t.Fatalf("changed %v", changed)
		}
		s := e.sub(ada)
		if !s.Active() || s.StripeSubscriptionID != "sub_1" || s.CurrentPeriodEnd.Unix() != sub.PeriodEnd || s.CancelAtPeriodEnd {
			t.Fatalf("subscription %+v", s)
		}
		if e.count() != 1 {
			t.Fatalf("count %d", e.count())
		}
		if got := e.mails("ada@example.com"); len(got) != 1 || got[0] != "Welcome to the tribe" {
			t.Fatalf("mails %v", got)
		}
		text := e.mailText("ada@example.com", "Welcome")
		if !strings.Contains(text, testChatURL) || !strings.Contains(text, testBaseURL+"/members") || !strings.Contains(text, "Hello Ada,") {
			t.Fatalf("welcome mail:\n%s", text)
		}
		// The subscription's own events follow; they change nothing and send
		// no second welcome.
		if changed := e.mustDeliver(seq.subEvent("created", now, sub)); len(changed) != 0 {
			t.Fatalf("created after completed changed %v", changed)
		}
		if changed := e.mustDeliver(billingtest.Event(seq.id(), "invoice.paid", now, billingtest.Invoice("in_1", "cus_fake1", "sub_1", ada))); len(changed) != 0 {
			t.Fatalf("invoice.paid changed %v", changed)
		}
		if got := e.mails("ada@example.com"); len(got) != 1 {
			t.Fatalf("mails %v", got)
		}
		portal, err := e.svc.Portal(e.ctx, ada)
		if err != nil || !strings.HasPrefix(portal, "https://billing.stripe.test/") {
			t.Fatalf("portal %q %v", portal, err)
		}
		if _, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members"); !errs.Is(err, errs.AlreadySubscribed) {
			t.Fatalf("checkout as a member: %v", err)
		}
	})
}

func TestWebhookReplayIsANoOp(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, billingtest.NewFake(t).URL, 50)
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		ev := billingtest.Event("evt_replayed", "customer.subscription.created", e.clock.Now().Unix(), m.sub.Object())
		if changed := e.mustDeliver(ev); len(changed) != 1 {
			t.Fatalf("first delivery changed %v", changed)
		}
		// Meanwhile the member cancels; then Stripe redelivers the old event.
		m.sub.Status = StatusCanceled
		e.mustDeliver(billingtest.Event("evt_deleted", "customer.subscription.deleted", e.clock.Now().Unix()+1, m.sub.Object()))
		for range 3 {
			if changed := e.mustDeliver(ev); len(changed) != 0 {
				t.Fatalf("redelivery changed %v", changed)
			}
		}
		if s := e.sub(m.id); s.Status != StatusCanceled {
			t.Fatalf("redelivery brought back %+v", s)
		}
		if got := e.mails(m.email); len(got) != 1 {
			t.Fatalf("mails %v", got)
		}
		if n := e.events(); n != 2 {
			t.Fatalf("%d events recorded, want 2", n)
		}

		// The same new event delivered several times at once applies once.
		bob := e.payingMember("Bob", "bob@example.com", "cus_b", "sub_b")
		dup := billingtest.Event("evt_dup", "customer.subscription.created", e.clock.Now().Unix(), bob.sub.Object())
		var (
			wg      sync.WaitGroup
			mu      sync.Mutex
			applied int
		)
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				changed, err := e.deliver(dup)
				if err != nil {
					t.Error(err)
				}
				mu.Lock()
				applied += len(changed)
				mu.Unlock()
			}()
		}
		wg.Wait()
		if applied != 1 || len(e.mails(bob.email)) != 1 || e.events() != 3 {
			t.Fatalf("parallel duplicates: applied %d times, mails %v, %d events", applied, e.mails(bob.email), e.events())
		}
	})
}

func TestWebhookSignatures(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, billingtest.NewFake(t).URL, 50)
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		body := billingtest.Event("evt_sig", "customer.subscription.created", e.clock.Now().Unix(), m.sub.Object())
		now := e.clock.Now()
		cases := map[string]string{
			"missing header":    "",
			"garbage header":    "nonsense",
			"wrong secret":      billingtest.Sign(body, "whsec_other", now),
			"another body":      billingtest.Sign([]byte(`{"id":"evt_other"}`), testSecret, now),
			"ten minutes old":   billingtest.Sign(body, testSecret, now.Add(-10*time.Minute)),
			"from the future":   billingtest.Sign(body, testSecret, now.Add(10*time.Minute)),
			"no v1 signature":   "t=" + strings.TrimPrefix(strings.Split(billingtest.Sign(body, testSecret, now), ",")[0], "t="),
			"signature of zero": "t=0,v1=00",
		}
		for name, header := range cases {
			done, err := e.svc.HandleWebhook(e.ctx, body, header)
			if !errs.Is(err, errs.Invalid) || done.Changed != nil {
				t.Errorf("%s: %v %v, want an invalid error", name, done, err)
			}
		}
		notEvent := []byte(`{"object":"list"}`)
		if _, err := e.svc.HandleWebhook(e.ctx, notEvent, billingtest.Sign(notEvent, testSecret, now)); !errs.Is(err, errs.Invalid) {
			t.Errorf("signed body that is no event: %v", err)
		}
		if e.events() != 0 || e.sub(m.id) != nil {
			t.Fatal("a refused delivery was applied")
		}
		// Types not handled are accepted and ignored.
		other := billingtest.Event("evt_other", "charge.succeeded", now.Unix(), map[string]any{"id": "ch_1", "object": "charge"})
		if changed, err := e.deliver(other); err != nil || changed != nil {
			t.Fatalf("unhandled type: %v %v", changed, err)
		}
		// Within the tolerance it applies.
		if done, err := e.svc.HandleWebhook(e.ctx, body, billingtest.Sign(body, testSecret, now.Add(-4*time.Minute))); err != nil || len(done.Changed) != 1 {
			t.Fatalf("four-minute-old signature: %v %v", done, err)
		}
		// Without a webhook secret nothing is accepted.
		off := newEnv(t, db, "", 50)
		if _, err := off.svc.HandleWebhook(e.ctx, body, billingtest.Sign(body, testSecret, now)); !errs.Is(err, errs.BillingUnavailable) {
			t.Fatalf("without a secret: %v", err)
		}
	})
}

func TestPastDueKeepsAccessThenActive(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		var seq eventSeq
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		t0 := e.clock.Now().Unix()
		e.mustDeliver(seq.subEvent("created", t0, m.sub))

		m.sub.Status = StatusPastDue
		fake.PutSubscription(m.sub)
		e.mustDeliver(billingtest.Event(seq.id(), "invoice.payment_failed", t0+10, billingtest.Invoice("in_2", "cus_a", "sub_a", m.id)))
		if s := e.sub(m.id); s.Status != StatusPastDue || !s.Active() || e.count() != 1 {
			t.Fatalf("past due: %+v, count %d", s, e.count())
		}
		if got := e.mails(m.email); len(got) != 2 || got[1] != "Your tribe payment did not go through" {
			t.Fatalf("mails %v", got)
		}
		if text := e.mailText(m.email, "Your tribe payment"); !strings.Contains(text, testBaseURL+"/members") || !strings.Contains(text, "Manage") {
			t.Fatalf("payment failed mail:\n%s", text)
		}
		e.mustDeliver(seq.subEvent("updated", t0+11, m.sub)) // same state: nothing new
		m.sub.Status = StatusActive
		fake.PutSubscription(m.sub)
		if changed := e.mustDeliver(seq.subEvent("updated", t0+20, m.sub)); len(changed) != 1 {
			t.Fatalf("back to active changed %v", changed)
		}
		if s := e.sub(m.id); s.Status != StatusActive {
			t.Fatalf("after the retry succeeded: %+v", s)
		}
		if got := e.mails(m.email); len(got) != 2 {
			t.Fatalf("recovering sent mail: %v", got)
		}
		// Stripe gives up: unpaid ends access.
		m.sub.Status = StatusUnpaid
		e.mustDeliver(seq.subEvent("updated", t0+30, m.sub))
		if s := e.sub(m.id); s.Active() || e.count() != 0 {
			t.Fatalf("unpaid: %+v", s)
		}
	})
}

func TestDeletedPausedResumed(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, billingtest.NewFake(t).URL, 50)
		var seq eventSeq
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		t0 := e.clock.Now().Unix()
		e.mustDeliver(seq.subEvent("created", t0, m.sub))
		m.sub.Status = StatusPaused
		e.mustDeliver(seq.subEvent("paused", t0+1, m.sub))
		if s := e.sub(m.id); s.Status != StatusPaused || s.Active() {
			t.Fatalf("paused: %+v", s)
		}
		m.sub.Status = StatusActive
		e.mustDeliver(seq.subEvent("resumed", t0+2, m.sub))
		if !e.sub(m.id).Active() {
			t.Fatal("resumed without access")
		}
		m.sub.Status = StatusCanceled
		if changed := e.mustDeliver(seq.subEvent("deleted", t0+3, m.sub)); len(changed) != 1 {
			t.Fatalf("deleted changed %v", changed)
		}
		if s := e.sub(m.id); s.Status != StatusCanceled || s.Active() || e.count() != 0 {
			t.Fatalf("deleted: %+v", s)
		}
		// A paused membership that resumes counts as access starting again.
		if got := e.mails(m.email); len(got) != 2 {
			t.Fatalf("mails %v", got)
		}
	})
}

func TestRefresh(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		if s, err := e.svc.Refresh(e.ctx, m.id); err != nil || s != nil {
			t.Fatalf("before paying: %+v %v", s, err)
		}
		// Checkout returned before the webhook: refresh finds the payment.
		fake.PutSubscription(m.sub)
		s, changed, err := e.svc.RefreshChanged(e.ctx, m.id)
		if err != nil || !changed || !s.Active() || s.StripeSubscriptionID != "sub_a" {
			t.Fatalf("refresh: %+v %v %v", s, changed, err)
		}
		// A subscription to another product of the same customer is ignored.
		fake.PutSubscription(billingtest.Sub{ID: "sub_other", Customer: "cus_a", Status: StatusActive, Price: "price_other", Created: m.sub.Created + 5})
		if s, changed, err := e.svc.RefreshChanged(e.ctx, m.id); err != nil || changed || s.StripeSubscriptionID != "sub_a" {
			t.Fatalf("refresh with a foreign subscription: %+v %v %v", s, changed, err)
		}
		fake.SetDown(true)
		if _, err := e.svc.Refresh(e.ctx, m.id); !errs.Is(err, errs.Unavailable) {
			t.Fatalf("Stripe down: %v", err)
		}
		off := newEnv(t, db, "", 50)
		if s, err := off.svc.Refresh(e.ctx, m.id); err != nil || !s.Active() {
			t.Fatalf("payment off: %+v %v", s, err)
		}
	})
}

func TestWebhookDatabaseFailureIsInternal(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, billingtest.NewFake(t).URL, 50)
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		body := billingtest.Event("evt_db", "customer.subscription.created", e.clock.Now().Unix(), m.sub.Object())
		_ = db.Close()
		_, err := e.deliver(body)
		if err == nil || errs.CodeOf(err) != errs.Internal {
			t.Fatalf("closed database: %v (code %q), want an internal error", err, errs.CodeOf(err))
		}
	})
}

// The events docs/billing.md tells operators to enable are exactly the ones
// handled.
func TestDocumentedEventsAreHandled(t *testing.T) {
	doc, err := os.ReadFile("../../docs/billing.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range HandledEvents() {
		if !strings.Contains(string(doc), "`"+ev+"`") {
			t.Errorf("docs/billing.md does not list %s", ev)
		}
	}
	if !strings.Contains(string(doc), "--events "+strings.Join(HandledEvents(), ",")) {
		t.Error("docs/billing.md's stripe listen command does not name the handled events")
	}
}
