package billing

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestCheckoutOnStripeMock(t *testing.T) {
	mock := billingtest.StripeMock(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, mock.URL, 50)
		ada := e.user("ada@example.com", "Ada Lovelace")
		url, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members")
		if err != nil || url == "" {
			t.Fatalf("checkout: %q %v", url, err)
		}
		again, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "")
		if err != nil || again != url {
			t.Fatalf("pressing Subscribe again gave %q (%v), want the open session %q", again, err, url)
		}
		if _, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "https://evil.example"); !errs.Is(err, errs.Invalid) {
			t.Fatalf("foreign redirect: %v", err)
		}
		if c, err := customerOf(e.ctx, db.Read, ada); err != nil || c == "" {
			t.Fatalf("no customer recorded: %q %v", c, err)
		}
		paid := e.user("paid@example.com", "Paid")
		e.subscribe(paid, StatusPastDue)
		if _, err := e.svc.Checkout(e.ctx, paid, "paid@example.com", "client-"+paid, "members"); !errs.Is(err, errs.AlreadySubscribed) {
			t.Fatalf("member with access: %v", err)
		}
		if _, err := e.svc.Portal(e.ctx, ada); !errs.Is(err, errs.NoBillingAccount) {
			t.Fatalf("portal before paying: %v", err)
		}
		// Stripe's own fixtures bill another price: refresh reads them through
		// the real client calls and, rightly, finds nothing of the tribe's.
		if s, changed, err := e.svc.RefreshChanged(e.ctx, ada); err != nil || s != nil || changed {
			t.Fatalf("refresh against stripe-mock: %+v %v %v", s, changed, err)
		}
		if _, err := db.Write.ExecContext(e.ctx,
			`UPDATE subscriptions SET stripe_customer_id = 'cus_mock', stripe_subscription_id = 'sub_mock' WHERE user_id = $1`,
			paid); err != nil {
			t.Fatal(err)
		}
		if portal, err := e.svc.Portal(e.ctx, paid); err != nil || portal == "" {
			t.Fatalf("portal against stripe-mock: %q %v", portal, err)
		}

		off := newEnv(t, db, "", 50)
		if _, err := off.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members"); !errs.Is(err, errs.BillingUnavailable) {
			t.Fatalf("checkout with payment off: %v", err)
		}
		if _, err := off.svc.Portal(e.ctx, ada); !errs.Is(err, errs.BillingUnavailable) {
			t.Fatalf("portal with payment off: %v", err)
		}
	})
}

func TestCheckoutSessionParameters(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		ada := e.user("ada@example.com", "Ada")
		url, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members")
		if err != nil {
			t.Fatal(err)
		}
		sessions := fake.Sessions()
		if len(sessions) != 1 {
			t.Fatalf("%d sessions", len(sessions))
		}
		for id, p := range sessions {
			if url != "https://checkout.stripe.test/c/"+id {
				t.Errorf("url %q for session %s", url, id)
			}
			want := map[string]string{
				"mode":                                 "subscription",
				"customer":                             "cus_fake1",
				"client_reference_id":                  ada,
				"line_items[0][price]":                 testPrice,
				"line_items[0][quantity]":              "1",
				"metadata[user_id]":                    ada,
				"subscription_data[metadata][user_id]": ada,
				"success_url":                          testBaseURL + "/members?success=true",
				"cancel_url":                           testBaseURL + "/members?canceled=true",
				"expires_at":                           strconv.FormatInt(e.clock.Now().Add(CheckoutTTL).Unix(), 10),
			}
			for k, v := range want {
				if p.Get(k) != v {
					t.Errorf("%s = %q, want %q", k, p.Get(k), v)
				}
			}
		}
		c := fake.Customers()
		if len(c) != 1 || c[0].Get("email") != "ada@example.com" || c[0].Get("metadata[user_id]") != ada {
			t.Fatalf("customers: %v", c)
		}
	})
}

// TestGhost16057DoubleClickMakesOneCustomer: a double click and a second tab
// pressing Subscribe at once make one Stripe customer and one Checkout
// Session, and later presses reuse the customer.
func TestGhost16057DoubleClickMakesOneCustomer(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		fake.Delay = 20 * time.Millisecond
		e := newEnv(t, db, fake.URL, 50)
		ada := e.user("ada@example.com", "Ada")
		const presses = 6
		urls := make([]string, presses)
		errsSeen := make([]error, presses)
		var wg sync.WaitGroup
		for i := range presses {
			wg.Add(1)
			go func() {
				defer wg.Done()
				urls[i], errsSeen[i] = e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members")
			}()
		}
		wg.Wait()
		for i := range presses {
			if errsSeen[i] != nil || urls[i] != urls[0] {
				t.Fatalf("press %d: %q %v, want %q", i, urls[i], errsSeen[i], urls[0])
			}
		}
		if n := len(fake.Customers()); n != 1 {
			t.Fatalf("%d Stripe customers for one member", n)
		}
		if n := len(fake.Sessions()); n != 1 {
			t.Fatalf("%d Checkout Sessions for one double click", n)
		}
		// The session nears its end: a press still gets the same session on
		// the same seat (a hold is never renewed); once it has run out, the
		// next press is a new hold with a new session for the same customer.
		e.clock.Advance(CheckoutTTL - time.Minute)
		same, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members")
		if err != nil || same != urls[0] {
			t.Fatalf("press near the end: %q %v, want the open session %q", same, err, urls[0])
		}
		e.clock.Advance(time.Minute)
		next, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members")
		if err != nil || next == urls[0] {
			t.Fatalf("press after the hold ran out: %q %v", next, err)
		}
		if n := len(fake.Customers()); n != 1 {
			t.Fatalf("%d Stripe customers after a later press", n)
		}
		var holds int
		if err := db.Read.QueryRowContext(e.ctx, `SELECT COUNT(*) FROM checkout_holds`).Scan(&holds); err != nil || holds != 1 {
			t.Fatalf("%d holds (%v), want one seat", holds, err)
		}
	})
}

// TestCheckoutCapacityRace: with 49 of 50 seats taken, 60 members press
// Subscribe at the same moment and exactly one gets a checkout.
func TestCheckoutCapacityRace(t *testing.T) {
	mock := billingtest.StripeMock(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, mock.URL, 50)
		for i := range 49 {
			e.subscribe(e.user("member"+strconv.Itoa(i)+"@example.com", "Member"), StatusActive)
		}
		const n = 60
		ids := make([]string, n)
		for i := range n {
			ids[i] = e.user("hopeful"+strconv.Itoa(i)+"@example.com", "Hopeful")
		}
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			urls   int
			full   int
			others []error
		)
		start := make(chan struct{})
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				url, err := e.svc.Checkout(e.ctx, ids[i], "hopeful"+strconv.Itoa(i)+"@example.com", "client-"+ids[i], "members")
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && url != "":
					urls++
				case errs.Is(err, errs.AtCapacity):
					full++
				default:
					others = append(others, err)
				}
			}()
		}
		close(start)
		wg.Wait()
		if urls != 1 || full != n-1 || len(others) != 0 {
			t.Fatalf("%d checkouts, %d refused as full, others %v; want 1 and %d", urls, full, others, n-1)
		}
	})
}

// TestSeatHoldLifecycle: a checkout holds a seat until it completes,
// expires (event or time), and the last seat goes to whoever holds it.
func TestSeatHoldLifecycle(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 1)
		var seq eventSeq
		ada := e.user("ada@example.com", "Ada")
		bob := e.user("bob@example.com", "Bob")
		if _, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members"); err != nil {
			t.Fatal(err)
		}
		_, err := e.svc.Checkout(e.ctx, bob, "bob@example.com", "client-"+bob, "members")
		if !errs.Is(err, errs.AtCapacity) {
			t.Fatalf("second member while the only seat is held: %v", err)
		}
		// One seat reads in the singular.
		if msg := err.Error(); !strings.Contains(msg, "the 1 spot is taken") || strings.Contains(msg, "spots") {
			t.Errorf("refusal at a cap of 1 reads %q", msg)
		}
		// Ada's session expires in Stripe: the seat is free again.
		var session string
		for id := range fake.Sessions() {
			session = id
		}
		e.mustDeliver(billingtest.Event(seq.id(), "checkout.session.expired", e.clock.Now().Unix(),
			billingtest.CheckoutSession(session, "cus_fake1", "", ada)))
		if _, err := e.svc.Checkout(e.ctx, bob, "bob@example.com", "client-"+bob, "members"); err != nil {
			t.Fatalf("after the expiry event: %v", err)
		}
		if _, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members"); !errs.Is(err, errs.AtCapacity) {
			t.Fatalf("Ada after Bob took the seat: %v", err)
		}
		// Bob abandons his checkout: after its 31 minutes the seat is free
		// without any event.
		e.clock.Advance(CheckoutTTL + time.Second)
		adaURL, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members")
		if err != nil {
			t.Fatalf("after Bob's hold ran out: %v", err)
		}
		// Ada pays: her subscription holds the seat from now on, not the hold.
		var adaSession string
		for id := range fake.Sessions() {
			if adaURL == "https://checkout.stripe.test/c/"+id {
				adaSession = id
			}
		}
		sub := billingtest.Sub{ID: "sub_ada", Customer: "cus_fake1", Status: StatusActive, Price: testPrice, UserID: ada,
			PeriodEnd: e.clock.Now().Add(30 * 24 * time.Hour).Unix(), Created: e.clock.Now().Unix()}
		fake.PutSubscription(sub)
		changed := e.mustDeliver(billingtest.Event(seq.id(), "checkout.session.completed", e.clock.Now().Unix(),
			billingtest.CheckoutSession(adaSession, "cus_fake1", "sub_ada", ada)))
		if len(changed) != 1 || changed[0] != ada || !e.sub(ada).Active() {
			t.Fatalf("completed checkout: changed %v, subscription %+v", changed, e.sub(ada))
		}
		if h, _ := readHold(e.ctx, db.Read, ada); h != nil {
			t.Fatalf("hold kept after access started: %+v", h)
		}
		if _, err := e.svc.Checkout(e.ctx, bob, "bob@example.com", "client-"+bob, "members"); !errs.Is(err, errs.AtCapacity) {
			t.Fatalf("Bob once Ada is a member: %v", err)
		}
	})
}
