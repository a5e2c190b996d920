package billing

import (
	"testing"
	"time"

	"tribe/internal/billing/billingtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func (e *env) ledger() []LedgerEntry {
	e.t.Helper()
	l, err := Ledger(e.ctx, e.db)
	if err != nil {
		e.t.Fatal(err)
	}
	return l
}

// TestLedgerRecordsEachAppliedChangeOnce: a webhook's change is recorded
// once under its event id with the price and the event's own time (a
// redelivery adds nothing), a cancellation and a complimentary grant and end
// each add a row, and the rows cannot be changed or removed.
func TestLedgerRecordsEachAppliedChangeOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		fake := billingtest.NewFake(t)
		e := newEnv(t, db, fake.URL, 50)
		var seq eventSeq
		ada := e.payingMember("Ada", "ada@example.com", "cus_ada", "sub_ada")
		ada.sub.Amount, ada.sub.Currency = 1500, "eur"
		created := e.clock.Now().Add(-time.Hour).Unix()
		ev := seq.subEvent("created", created, ada.sub)
		e.mustDeliver(ev)
		e.mustDeliver(ev) // a redelivery
		l := e.ledger()
		if len(l) != 1 {
			t.Fatalf("ledger after one event delivered twice = %+v, want one row", l)
		}
		got := l[0]
		if got.Source != SourceWebhook || got.Status != StatusActive || got.Amount != 1500 || got.Currency != "eur" ||
			got.Interval != "month" || !got.OccurredAt.Equal(time.Unix(created, 0)) || got.UserID != ada.id || got.ID[:4] != "evt_" {
			t.Fatalf("ledger row = %+v", got)
		}
		if got.Monthly() != 1500 {
			t.Fatalf("monthly = %d", got.Monthly())
		}

		ada.sub.CancelAtPeriodEnd = true
		e.mustDeliver(seq.subEvent("updated", created+60, ada.sub))
		bob := e.user("bob@example.com", "Bob")
		if err := e.svc.Comp(e.ctx, bob, nil); err != nil {
			t.Fatal(err)
		}
		if err := e.svc.Uncomp(e.ctx, bob); err != nil {
			t.Fatal(err)
		}
		l = e.ledger()
		// Bob's grant and end share a millisecond: his rows' order is Seq.
		if l[3].Seq < l[2].Seq {
			l[2], l[3] = l[3], l[2]
		}
		var sources []string
		for _, r := range l {
			sources = append(sources, r.Source)
		}
		if len(l) != 4 || !l[1].CancelAtPeriodEnd || l[2].Seq != 1 || l[3].Seq != 2 || l[1].Seq != 2 || l[2].Source != SourceCompGrant || !l[2].Complimentary ||
			l[3].Source != SourceCompEnd || l[3].Status != StatusCanceled {
			t.Fatalf("ledger sources = %v, rows %+v", sources, l)
		}
		if _, err := db.Write.ExecContext(e.ctx, `UPDATE membership_ledger SET amount = 1`); err == nil {
			t.Fatal("a ledger row was changed")
		}
		if _, err := db.Write.ExecContext(e.ctx, `DELETE FROM membership_ledger`); err == nil {
			t.Fatal("a ledger row was removed")
		}
	})
}

func TestPriceMonthly(t *testing.T) {
	for _, c := range []struct {
		p    Price
		want int64
	}{
		{Price{Amount: 1999, Interval: "month", IntervalCount: 1}, 1999},
		{Price{Amount: 12000, Interval: "year", IntervalCount: 1}, 1000},
		{Price{Amount: 1000, Interval: "year", IntervalCount: 1}, 83}, // 83.33 rounds down
		{Price{Amount: 1001, Interval: "month", IntervalCount: 2}, 501},
		{Price{Amount: 100, Interval: "week", IntervalCount: 1}, 433},
		{Price{Amount: 100, Interval: "", IntervalCount: 1}, 0},
	} {
		if got := c.p.Monthly(); got != c.want {
			t.Errorf("%+v monthly = %d, want %d", c.p, got, c.want)
		}
	}
}
