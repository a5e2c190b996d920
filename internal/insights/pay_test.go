package insights

import (
	"testing"
	"time"

	"tribe/internal/billing"
)

// An annual membership counts as its price ÷ 12 to the cent; a promotion
// code's discount comes off MRR and is shown apart; a discount ending
// (the coupon lapsed) is expansion.
func TestMRRCountsAnnualPlansAndDiscounts(t *testing.T) {
	ada := &ledgerOf{user: "ada"}
	ada.add("2026-03-05", billing.StatusActive, 25000, "usd", false)
	ada.rows[0].Discount = 5000 // 20 % off for ever
	bob := &ledgerOf{user: "bob"}
	bob.add("2026-03-10", billing.StatusActive, 239900, "usd", false)
	bob.rows[0].Interval = "year"
	cy := &ledgerOf{user: "cy"}
	cy.add("2026-03-12", billing.StatusActive, 240000, "usd", false)
	cy.rows[0].Interval, cy.rows[0].Discount = "year", 40000
	cy.add("2026-04-15", billing.StatusActive, 240000, "usd", false) // the coupon ended
	cy.rows[1].Interval = "year"

	r := report(all(ada, bob, cy), "2026-03-01", "2026-03-31", nil)
	// ada 200.00 + bob 2399.00/12 = 199.92 + cy 2000.00/12 = 166.67
	if r.Totals.CommittedMRR != 20000+19992+16667 {
		t.Fatalf("committed MRR = %d", r.Totals.CommittedMRR)
	}
	// ada 50.00 + cy 400.00/12 = 33.33
	if r.Totals.DiscountMRR != 5000+3333 {
		t.Fatalf("discount MRR = %d", r.Totals.DiscountMRR)
	}
	if m := r.Months[0]; m.NewMRR != r.Totals.CommittedMRR || m.NewPayers != 3 {
		t.Fatalf("March = %+v", m)
	}
	april := report(all(ada, bob, cy), "2026-04-01", "2026-04-30", nil)
	if m := april.Months[0]; m.ExpansionMRR != 20000-16667 || april.Totals.DiscountMRR != 5000 {
		t.Fatalf("April = %+v, discount %d", m, april.Totals.DiscountMRR)
	}
	last := april.Points[len(april.Points)-1]
	if last.CommittedMRR != 20000+19992+20000 || last.DiscountMRR != 5000 {
		t.Fatalf("last point = %+v", last)
	}
}

// The no-show rate per month: no-shows over calls marked, null for a
// month with none marked; calls outside the range are left out.
func TestNoShowRatePerMonth(t *testing.T) {
	at := func(s string) time.Time { return date(s).Add(15 * time.Hour) }
	r := report(nil, "2026-03-01", "2026-05-31", func(in *Input) {
		in.Calls = []Call{
			{Start: at("2026-02-27"), NoShow: true}, // before the range
			{Start: at("2026-03-02"), NoShow: true},
			{Start: at("2026-03-09")},
			{Start: at("2026-03-16")},
			{Start: at("2026-03-23")},
			{Start: at("2026-05-04"), NoShow: true},
		}
	})
	mar, apr, may := r.Months[0], r.Months[1], r.Months[2]
	if mar.CallsMarked != 4 || mar.NoShows != 1 || mar.NoShowRate == nil || *mar.NoShowRate != 0.25 {
		t.Fatalf("March = %+v", mar)
	}
	if apr.CallsMarked != 0 || apr.NoShowRate != nil {
		t.Fatalf("April = %+v", apr)
	}
	if may.NoShows != 1 || *may.NoShowRate != 1 || r.Totals.CallsMarked != 5 || r.Totals.NoShows != 2 || *r.Totals.NoShowRate != 0.4 {
		t.Fatalf("May = %+v, totals %+v", may, r.Totals)
	}
}
