package billing

import (
	"strings"
	"testing"

	"tribe/internal/billing/billingtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func (e *env) reconcile(apply bool) Reconciliation {
	e.t.Helper()
	r, err := e.svc.Reconcile(e.ctx, apply)
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}

func kinds(r Reconciliation) string {
	var out []string
	for _, d := range r.Differences {
		out = append(out, d.Kind+":"+d.Email)
	}
	return strings.Join(out, " ")
}

// TestReconcileFixesDriftedRows: the site missed a cancellation (bob), a
// new subscription (cy) and holds a subscription Stripe never had (dee).
// Reconcile names each with MRR on both sides to the cent and changes
// nothing; --apply fixes the site through the webhooks' code, records each
// fix in the ledger, and a second run finds the two sides equal.
func TestReconcileFixesDriftedRows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		var seq eventSeq
		now := e.clock.Now().Unix()
		ada := e.payingMember("Ada", "ada@example.com", "cus_ada", "sub_ada")
		ada.sub.Amount = 1500
		fake.PutSubscription(ada.sub)
		e.mustDeliver(seq.subEvent("created", now-100, ada.sub))

		bob := e.payingMember("Bob", "bob@example.com", "cus_bob", "sub_bob")
		bob.sub.Amount = 1500
		e.mustDeliver(seq.subEvent("created", now-100, bob.sub))
		bob.sub.Status = StatusCanceled // the deleted event never arrived
		fake.PutSubscription(bob.sub)

		cy := e.payingMember("Cy", "cy@example.com", "cus_cy", "sub_cy")
		cy.sub.Amount = 1500
		fake.PutSubscription(cy.sub) // its events never arrived

		dee := e.user("dee@example.com", "Dee")
		if _, err := db.Write.ExecContext(e.ctx, `INSERT INTO subscriptions (user_id, status, stripe_subscription_id) VALUES ($1, 'active', 'sub_ghost')`, dee); err != nil {
			t.Fatal(err)
		}
		ledgerBefore := len(e.ledger())

		r := e.reconcile(false)
		if got, want := kinds(r), "differs:bob@example.com extra:dee@example.com missing:"; got != want {
			t.Fatalf("differences = %q, want %q (%+v)", got, want, r.Differences)
		}
		if r.StripeMRR["usd"] != 3000 || r.SiteMRR["usd"] != 3000 || r.StripeSubscriptions != 3 || r.SiteMemberships != 3 {
			// The site counts ada and bob (both priced by their webhooks) and dee unpriced.
			t.Fatalf("report = %+v", r)
		}
		if len(e.ledger()) != ledgerBefore || !e.sub(bob.id).Active() || e.sub(cy.id) != nil {
			t.Fatal("reconcile without --apply changed the site")
		}

		r = e.reconcile(true)
		for _, d := range r.Differences {
			if !d.Fixed {
				t.Fatalf("not fixed: %+v", d)
			}
		}
		if e.sub(bob.id).Active() || !e.sub(cy.id).Active() || e.sub(dee).Active() {
			t.Fatalf("after --apply: bob %+v cy %+v dee %+v", e.sub(bob.id), e.sub(cy.id), e.sub(dee))
		}
		var fixes int
		for _, l := range e.ledger() {
			if l.Source == SourceReconcile {
				fixes++
			}
		}
		if fixes != 3 {
			t.Fatalf("ledger rows from reconcile = %d, want 3", fixes)
		}
		r = e.reconcile(false)
		if len(r.Differences) != 0 || r.StripeMRR["usd"] != 3000 || r.SiteMRR["usd"] != 3000 {
			t.Fatalf("after --apply: %+v", r)
		}
	})
}

// TestReconcileAgainstStripeMock: against the official mock, a site row
// whose subscription Stripe does not list for the price is extra, and
// --apply ends it.
func TestReconcileAgainstStripeMock(t *testing.T) {
	mock := billingtest.StripeMock(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, mock.URL, 50)
		ada := e.user("ada@example.com", "Ada")
		if _, err := db.Write.ExecContext(e.ctx, `INSERT INTO subscriptions (user_id, status, stripe_subscription_id) VALUES ($1, 'active', 'sub_drifted')`, ada); err != nil {
			t.Fatal(err)
		}
		r := e.reconcile(false)
		if got := kinds(r); got != "extra:ada@example.com" {
			t.Fatalf("differences = %q", got)
		}
		r = e.reconcile(true)
		if !r.Differences[0].Fixed || e.sub(ada).Active() {
			t.Fatalf("after --apply: %+v, subscription %+v", r.Differences, e.sub(ada))
		}
		if r := e.reconcile(false); len(r.Differences) != 0 {
			t.Fatalf("second run: %+v", r.Differences)
		}
	})
}
