package billing

import (
	"errors"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

const testAnnualPrice = "price_tribe_annual"

// annualEnv is newEnv with STRIPE_PRICE_ID_ANNUAL set.
func annualEnv(t *testing.T, db *store.DB, fake *billingtest.Fake) *env {
	e := newEnv(t, db, fake.URL, 50)
	e.cfg.StripePriceIDAnnual = testAnnualPrice
	return e
}

// TestAnnualPlanThroughCheckoutWebhooksAndReconcile: Checkout sells the
// annual price (with promotion codes) and switching plans keeps the seat;
// the annual subscription's webhook makes a member, the ledger records a
// yearly price, MRR counts it as its twelfth to the cent on both sides of
// reconcile, and a subscription to a third price grants nothing.
func TestAnnualPlanThroughCheckoutWebhooksAndReconcile(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := annualEnv(t, db, fake)
		var seq eventSeq
		ada := e.user("ada@example.com", "Ada")

		monthlyURL, err := e.svc.CheckoutPlan(e.ctx, ada, "ada@example.com", "client-a", "members", PlanMonthly)
		if err != nil {
			t.Fatal(err)
		}
		annualURL, err := e.svc.CheckoutPlan(e.ctx, ada, "ada@example.com", "client-a", "members", PlanAnnual)
		if err != nil || annualURL == monthlyURL {
			t.Fatalf("annual checkout = %q, %v (monthly was %q)", annualURL, err, monthlyURL)
		}
		again, err := e.svc.CheckoutPlan(e.ctx, ada, "ada@example.com", "client-a", "members", PlanAnnual)
		if err != nil || again != annualURL {
			t.Fatalf("second press = %q, %v; want the same session %q", again, err, annualURL)
		}
		monthlySession := strings.TrimPrefix(monthlyURL, "https://checkout.stripe.test/c/")
		annualSession := strings.TrimPrefix(annualURL, "https://checkout.stripe.test/c/")
		sessions := fake.Sessions()
		if p := sessions[annualSession]; p.Get("line_items[0][price]") != testAnnualPrice || p.Get("allow_promotion_codes") != "true" {
			t.Fatalf("annual session parameters = %v", p)
		}
		if p := sessions[monthlySession]; p.Get("line_items[0][price]") != testPrice || p.Get("allow_promotion_codes") != "true" {
			t.Fatalf("monthly session parameters = %v", p)
		}
		if exp := fake.Expired(); len(exp) != 1 || exp[0] != monthlySession {
			t.Fatalf("expired sessions = %v, want the monthly one closed when the plan changed", exp)
		}
		if st, _ := e.svc.Status(e.ctx); st.Held != 0 || st.SpotsLeft != 49 {
			// Ada's own hold is counted for others: one seat, not two.
			var held int
			_ = db.Read.QueryRowContext(e.ctx, `SELECT COUNT(*) FROM checkout_holds`).Scan(&held)
			if held != 1 {
				t.Fatalf("holds after switching plans = %d, want 1", held)
			}
		}

		now := e.clock.Now().Unix()
		sub := billingtest.Sub{ID: "sub_year", Customer: "cus_fake1", Status: StatusActive, Price: testAnnualPrice, UserID: ada,
			PeriodEnd: now + 365*24*3600, Created: now, Amount: 239900, Interval: "year"}
		fake.PutSubscription(sub)
		e.mustDeliver(billingtest.Event(seq.id(), "checkout.session.completed", now,
			billingtest.CheckoutSession(annualSession, "cus_fake1", "sub_year", ada)))
		if s := e.sub(ada); !s.Active() || s.StripeSubscriptionID != "sub_year" {
			t.Fatalf("annual subscription = %+v", s)
		}
		l := e.ledger()
		last := l[len(l)-1]
		if last.Amount != 239900 || last.Interval != "year" || last.Discount != 0 {
			t.Fatalf("ledger row = %+v", last)
		}
		// 2399.00 a year is 199.9166… a month: 199.92 to the cent.
		if last.Monthly() != 19992 || last.NetMonthly() != 19992 {
			t.Fatalf("monthly = %d, net %d; want 19992", last.Monthly(), last.NetMonthly())
		}

		bob := e.payingMember("Bob", "bob@example.com", "cus_bob", "sub_bob")
		bob.sub.Amount = 25000
		fake.PutSubscription(bob.sub)
		e.mustDeliver(seq.subEvent("created", now, bob.sub))

		// A subscription to another product's price in the same account.
		cy := e.payingMember("Cy", "cy@example.com", "cus_cy", "sub_cy")
		cy.sub.Price, cy.sub.Amount = "price_other_product", 9900
		fake.PutSubscription(cy.sub)
		e.mustDeliver(seq.subEvent("created", now, cy.sub))
		if e.sub(cy.id).Active() {
			t.Fatal("a subscription to another price gave access")
		}

		r := e.reconcile(false)
		if len(r.Differences) != 0 || r.StripeSubscriptions != 2 || r.StripeMRR["usd"] != 19992+25000 || r.SiteMRR["usd"] != 19992+25000 {
			t.Fatalf("reconcile = %+v", r)
		}
		// Drift on the annual one: reconcile --apply finds and fixes it.
		sub.Status = StatusCanceled
		fake.PutSubscription(sub)
		r = e.reconcile(true)
		if got := kinds(r); got != "differs:ada@example.com" || !r.Differences[0].Fixed || e.sub(ada).Active() {
			t.Fatalf("reconcile after the annual one ended = %q %+v", got, r.Differences)
		}
	})
}

// TestAnnualPlanRefusedWhenNotOffered: without STRIPE_PRICE_ID_ANNUAL the
// annual plan is a clear 400 on the field plan and holds no seat; an
// unknown plan likewise.
func TestAnnualPlanRefusedWhenNotOffered(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		ada := e.user("ada@example.com", "Ada")
		for _, plan := range []string{PlanAnnual, "weekly", "MONTHLY"} {
			_, err := e.svc.CheckoutPlan(e.ctx, ada, "ada@example.com", "client-a", "members", plan)
			var fe *errs.Error
			if !errors.As(err, &fe) || fe.Code != errs.Invalid || fe.Field != "plan" {
				t.Fatalf("plan %q: %v", plan, err)
			}
		}
		var held int
		if err := db.Read.QueryRowContext(e.ctx, `SELECT COUNT(*) FROM checkout_holds`).Scan(&held); err != nil || held != 0 {
			t.Fatalf("holds = %d, %v", held, err)
		}
		if got := e.svc.Plans(e.ctx); len(got) != 1 || got[0].Plan != PlanMonthly {
			t.Fatalf("plans = %+v", got)
		}
	})
}

// TestPlansReadPricesFromStripe: with the annual plan the tribe page gets
// both prices as Stripe has them, read once however often it asks.
func TestPlansReadPricesFromStripe(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		fake.PutPrice(testPrice, 25000, "usd", "month")
		fake.PutPrice(testAnnualPrice, 250000, "usd", "year")
		e := annualEnv(t, db, fake)
		for range 3 {
			got := e.svc.Plans(e.ctx)
			if len(got) != 2 || got[0] != (PlanOffer{PlanMonthly, 25000, "usd", "month", 1}) ||
				got[1] != (PlanOffer{PlanAnnual, 250000, "usd", "year", 1}) {
				t.Fatalf("plans = %+v", got)
			}
		}
		if n := fake.Requests("GET /v1/prices/" + testAnnualPrice); n != 1 {
			t.Fatalf("price read %d times, want once", n)
		}
	})
}

// TestPromotionCodeDiscountCountsInMRR: a subscription with a promotion
// code's discount, whose webhook names the discount by id only, is
// recorded with the discount read from Stripe; MRR (reconcile) counts
// what the member pays. A discount for the first invoice only, or one that
// ended, takes nothing off.
func TestPromotionCodeDiscountCountsInMRR(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := annualEnv(t, db, fake)
		var seq eventSeq
		now := e.clock.Now().Unix()

		ada := e.payingMember("Ada", "ada@example.com", "cus_ada", "sub_ada")
		ada.sub.Amount, ada.sub.PercentOff, ada.sub.DiscountIDsOnly = 25000, 20, true
		fake.PutSubscription(ada.sub)
		e.mustDeliver(seq.subEvent("created", now, ada.sub))

		bob := e.payingMember("Bob", "bob@example.com", "cus_bob", "sub_bob")
		bob.sub.Price, bob.sub.Interval, bob.sub.Amount, bob.sub.AmountOff = testAnnualPrice, "year", 240000, 40000
		fake.PutSubscription(bob.sub)
		e.mustDeliver(seq.subEvent("created", now, bob.sub))

		cy := e.payingMember("Cy", "cy@example.com", "cus_cy", "sub_cy")
		cy.sub.Amount, cy.sub.PercentOff, cy.sub.DiscountDuration = 25000, 50, "once"
		fake.PutSubscription(cy.sub)
		e.mustDeliver(seq.subEvent("created", now, cy.sub))

		dee := e.payingMember("Dee", "dee@example.com", "cus_dee", "sub_dee")
		dee.sub.Amount, dee.sub.AmountOff, dee.sub.DiscountDuration, dee.sub.DiscountEnd = 25000, 5000, "repeating", now-10
		fake.PutSubscription(dee.sub)
		e.mustDeliver(seq.subEvent("created", now, dee.sub))

		want := map[string]int64{ada.id: 5000, bob.id: 40000, cy.id: 0, dee.id: 0}
		for _, l := range e.ledger() {
			if l.Discount != want[l.UserID] {
				t.Fatalf("ledger discount of %s = %d, want %d (%+v)", l.UserID, l.Discount, want[l.UserID], l)
			}
		}
		// ada 200.00, bob 2000.00/12 = 166.67, cy 250.00, dee 250.00.
		r := e.reconcile(false)
		if len(r.Differences) != 0 || r.StripeMRR["usd"] != 20000+16667+25000+25000 || r.SiteMRR["usd"] != r.StripeMRR["usd"] {
			t.Fatalf("reconcile = %+v", r)
		}
		p := Price{Amount: 240000, Currency: "usd", Interval: "year", IntervalCount: 1, Discount: 40000}
		if p.Monthly() != 20000 || p.NetMonthly() != 16667 || p.MonthlyDiscount() != 3333 {
			t.Fatalf("annual with discount: %d %d %d", p.Monthly(), p.NetMonthly(), p.MonthlyDiscount())
		}

		// Stripe down while the event arrives: applied without the
		// discount, then a refresh brings it.
		fake.SetDown(true)
		ada.sub.PercentOff = 40
		fake.PutSubscription(ada.sub)
		e.mustDeliver(seq.subEvent("updated", now+5, ada.sub))
		fake.SetDown(false)
		e.clock.Advance(10 * time.Second)
		fake.Now = e.clock.Now // Stripe's clock is past the event's
		if _, err := e.svc.Refresh(e.ctx, ada.id); err != nil {
			t.Fatal(err)
		}
		l := e.ledger()
		var last LedgerEntry
		for _, x := range l {
			if x.UserID == ada.id {
				last = x
			}
		}
		if last.Discount != 10000 {
			t.Fatalf("ada's discount after the refresh = %d, want 10000", last.Discount)
		}
	})
}
