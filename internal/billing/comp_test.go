package billing

import (
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestComplimentaryMembership(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 3)
		var seq eventSeq
		ada := e.user("ada@example.com", "Ada")

		// Ada has an open checkout when an admin makes her complimentary: the
		// seat becomes hers for free and the checkout is closed.
		if _, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members"); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.Comp(e.ctx, ada, nil); err != nil {
			t.Fatal(err)
		}
		if s := e.sub(ada); !s.Active() || !s.Complimentary || s.CurrentPeriodEnd != nil {
			t.Fatalf("complimentary: %+v", s)
		}
		if h, _ := readHold(e.ctx, db.Read, ada); h != nil || len(fake.Expired()) != 1 {
			t.Fatalf("hold %+v, expired sessions %v", h, fake.Expired())
		}
		if _, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members"); !errs.Is(err, errs.AlreadySubscribed) {
			t.Fatalf("checkout of a complimentary member: %v", err)
		}
		if _, err := e.svc.Portal(e.ctx, ada); !errs.Is(err, errs.NoBillingAccount) {
			t.Fatalf("portal of a complimentary member: %v", err)
		}
		if got := e.mails("ada@example.com"); len(got) != 1 || got[0] != "Welcome to the tribe" {
			t.Fatalf("mails %v", got)
		}
		// Giving it again only moves the end; no second welcome.
		end := e.clock.Now().Add(24 * time.Hour)
		if err := e.svc.Comp(e.ctx, ada, &end); err != nil {
			t.Fatal(err)
		}
		if s := e.sub(ada); !s.CurrentPeriodEnd.Equal(end) || len(e.mails("ada@example.com")) != 1 {
			t.Fatalf("new end: %+v, mails %v", s, e.mails("ada@example.com"))
		}
		past := e.clock.Now().Add(-time.Hour)
		if err := e.svc.Comp(e.ctx, ada, &past); !errs.Is(err, errs.Invalid) {
			t.Fatalf("end in the past: %v", err)
		}

		// A paying member is not made complimentary while Stripe charges them.
		bob := e.payingMember("Bob", "bob@example.com", "cus_b", "sub_b")
		e.mustDeliver(seq.subEvent("created", e.clock.Now().Unix(), bob.sub))
		if err := e.svc.Comp(e.ctx, bob.id, nil); !errs.Is(err, errs.AlreadySubscribed) {
			t.Fatalf("comp of a paying member: %v", err)
		}
		// Complimentary members count toward the cap: one seat is left.
		cy := e.user("cy@example.com", "Cy")
		dee := e.user("dee@example.com", "Dee")
		if err := e.svc.Comp(e.ctx, cy, nil); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.Comp(e.ctx, dee, nil); !errs.Is(err, errs.AtCapacity) {
			t.Fatalf("comp beyond the cap: %v", err)
		}
		if _, err := e.svc.Checkout(e.ctx, dee, "dee@example.com", "client-"+dee, "members"); !errs.Is(err, errs.AtCapacity) {
			t.Fatalf("checkout beyond the cap: %v", err)
		}

		// A Stripe event without access for a complimentary member's
		// customer does not end the complimentary membership.
		if _, err := db.Write.ExecContext(e.ctx, `INSERT INTO billing_customers (user_id, stripe_customer_id) VALUES ($1, 'cus_cy')`, cy); err != nil {
			t.Fatal(err)
		}
		old := billingtest.Sub{ID: "sub_cy_old", Customer: "cus_cy", Status: StatusCanceled, Price: testPrice, Created: 1}
		e.mustDeliver(seq.subEvent("deleted", e.clock.Now().Unix(), old))
		if s := e.sub(cy); !s.Active() || !s.Complimentary {
			t.Fatalf("complimentary after an old subscription's event: %+v", s)
		}

		list, err := e.svc.ListMembers(e.ctx)
		if err != nil || len(list) != 3 {
			t.Fatalf("members %+v %v", list, err)
		}
		byEmail := map[string]Member{}
		for _, m := range list {
			byEmail[m.Email] = m
		}
		if m := byEmail["ada@example.com"]; !m.Complimentary || m.Until == nil || *m.Until != end.Add(-time.Nanosecond).UTC().Format("2006-01-02") || !m.HasAccess || m.FullName != "Ada" || m.UserID != ada {
			t.Fatalf("ada in the list: %+v", m)
		}
		if m := byEmail["bob@example.com"]; m.Complimentary || m.Status != StatusActive || !m.HasAccess || m.JoinedAt.IsZero() {
			t.Fatalf("bob in the list: %+v", m)
		}

		// Ada's complimentary day passes: she loses access and her seat.
		e.clock.Advance(25 * time.Hour)
		if s := e.sub(ada); s.Active() {
			t.Fatalf("after the end: %+v", s)
		}
		if err := e.svc.Comp(e.ctx, dee, nil); err != nil {
			t.Fatalf("comp once a seat is free: %v", err)
		}
		if err := e.svc.Uncomp(e.ctx, cy); err != nil || e.sub(cy) != nil {
			t.Fatalf("uncomp: %v %+v", err, e.sub(cy))
		}
		if err := e.svc.Uncomp(e.ctx, bob.id); !errs.Is(err, errs.NotFound) {
			t.Fatalf("uncomp of a paying member: %v", err)
		}
		// Ada, no longer complimentary, may pay now.
		if _, err := e.svc.Checkout(e.ctx, ada, "ada@example.com", "client-"+ada, "members"); err != nil {
			t.Fatalf("checkout after the complimentary end: %v", err)
		}
	})
}

// TestPaidSubscriptionReplacesComplimentary: a complimentary member who pays
// after all becomes a paying member; nothing is lost.
func TestPaidSubscriptionReplacesComplimentary(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, billingtest.NewFake(t).URL, 50)
		var seq eventSeq
		m := e.payingMember("Ada", "ada@example.com", "cus_a", "sub_a")
		if err := e.svc.Comp(e.ctx, m.id, nil); err != nil {
			t.Fatal(err)
		}
		if changed := e.mustDeliver(seq.subEvent("created", e.clock.Now().Unix(), m.sub)); len(changed) != 1 {
			t.Fatalf("changed %v", changed)
		}
		if s := e.sub(m.id); s.Complimentary || !s.Active() || s.StripeSubscriptionID != "sub_a" {
			t.Fatalf("paid over complimentary: %+v", s)
		}
		if got := e.mails(m.email); len(got) != 1 {
			t.Fatalf("a second welcome: %v", got)
		}
	})
}

// TestListAccountsAgreesWithHasAccess: the admins' list shows every account,
// free ones included, and its access column is the access rule's.
func TestListAccountsAgreesWithHasAccess(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := newEnv(t, db, "", 10)
		free := e.user("free@example.com", "Free")
		payer := e.user("payer@example.com", "Payer")
		e.subscribe(payer, StatusPastDue)
		gone := e.user("gone@example.com", "Gone")
		until := e.clock.Now().Add(time.Hour)
		if err := e.svc.Comp(e.ctx, gone, &until); err != nil {
			t.Fatal(err)
		}
		e.clock.Advance(2 * time.Hour) // that complimentary membership has ended
		list, err := e.svc.ListAccounts(e.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 3 {
			t.Fatalf("%d accounts listed, want 3: %+v", len(list), list)
		}
		byID := map[string]Member{}
		for _, m := range list {
			byID[m.UserID] = m
		}
		if m := byID[free]; m.Status != StatusFree || m.HasAccess || m.Email != "free@example.com" || m.FullName != "Free" || m.JoinedAt.IsZero() {
			t.Errorf("free account: %+v", m)
		}
		if m := byID[payer]; m.Status != StatusPastDue || !m.HasAccess {
			t.Errorf("past_due payer: %+v", m)
		}
		if m := byID[gone]; m.Status != StatusCanceled || m.HasAccess || !m.Complimentary || m.Until == nil {
			t.Errorf("ended complimentary member: %+v", m)
		}
	})
}
