package insights

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"tribe/internal/billing"
)

func date(s string) time.Time {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		panic(err)
	}
	return t
}

// ledgerOf builds ledger rows for one member in order.
type ledgerOf struct {
	user string
	rows []billing.LedgerEntry
}

func (l *ledgerOf) add(at, status string, amount int64, currency string, cancel bool) *ledgerOf {
	t, err := time.Parse(time.DateOnly, at)
	if err != nil {
		t, _ = time.Parse(time.RFC3339, at)
	}
	l.rows = append(l.rows, billing.LedgerEntry{
		ID: fmt.Sprintf("evt_%s_%d", l.user, len(l.rows)), UserID: l.user, Seq: len(l.rows) + 1, OccurredAt: t,
		Source: billing.SourceWebhook, Status: status, CancelAtPeriodEnd: cancel,
		Price: billing.Price{Amount: amount, Currency: currency, Interval: "month", IntervalCount: 1},
	})
	return l
}

func (l *ledgerOf) comp(at string, until *time.Time) *ledgerOf {
	l.rows = append(l.rows, billing.LedgerEntry{
		ID: fmt.Sprintf("comp_%s_%d", l.user, len(l.rows)), UserID: l.user, Seq: len(l.rows) + 1, OccurredAt: date(at),
		Source: billing.SourceCompGrant, Status: billing.StatusActive, Complimentary: true, CompUntil: until,
	})
	return l
}

func all(ls ...*ledgerOf) []billing.LedgerEntry {
	var out []billing.LedgerEntry
	for _, l := range ls {
		out = append(out, l.rows...)
	}
	return out
}

func report(entries []billing.LedgerEntry, from, to string, extra func(*Input)) Report {
	in := Input{From: date(from), To: date(to), Now: date("2027-01-01"), Capacity: 50, Timeline: NewTimeline(entries)}
	if extra != nil {
		extra(&in)
	}
	return Compute(in)
}

func month(t *testing.T, r Report, key string) Month {
	t.Helper()
	for _, m := range r.Months {
		if m.Month == key {
			return m
		}
	}
	t.Fatalf("no month %s in %+v", key, r.Months)
	return Month{}
}

// story: ada pays 20 from January, is set to cancel in March and ends in
// April, pays again in June; bob pays 20 from January, 40 from May (two
// seats), 30 from July; cy is complimentary from February.
func story() []billing.LedgerEntry {
	ada := (&ledgerOf{user: "ada"}).add("2026-01-10", "active", 2000, "usd", false).
		add("2026-03-05", "active", 2000, "usd", true).
		add("2026-04-10", "canceled", 2000, "usd", false).
		add("2026-06-01", "active", 2000, "usd", false)
	bob := (&ledgerOf{user: "bob"}).add("2026-01-20", "active", 2000, "usd", false).
		add("2026-05-15", "active", 4000, "usd", false).
		add("2026-07-15", "active", 3000, "usd", false)
	cy := (&ledgerOf{user: "cy"}).comp("2026-02-01", nil)
	return all(ada, bob, cy)
}

// TestNetNewMRRSplitsNewReactivatedChurnedExpansionContraction pins each
// kind of movement to its month, and a cancel-pending subscription stays in
// MRR as at risk until it ends (never silently dropped).
func TestNetNewMRRSplitsNewReactivatedChurnedExpansionContraction(t *testing.T) {
	r := report(story(), "2026-01-01", "2026-07-31", nil)
	if m := month(t, r, "2026-01"); m.NewMRR != 4000 || m.NewPayers != 2 || m.NetNewMRR != 4000 || m.EndMRR != 4000 {
		t.Errorf("January = %+v", m)
	}
	if m := month(t, r, "2026-03"); m.NetNewMRR != 0 || m.EndMRR != 4000 {
		t.Errorf("March (ada set to cancel) = %+v", m)
	}
	if m := month(t, r, "2026-04"); m.ChurnedMRR != -2000 || m.ChurnedPayers != 1 || m.StartPayers != 2 ||
		*m.LogoChurn != 0.5 || *m.RevenueChurn != 0.5 {
		t.Errorf("April = %+v", m)
	}
	if m := month(t, r, "2026-05"); m.ExpansionMRR != 2000 || m.NewMRR != 0 {
		t.Errorf("May = %+v", m)
	}
	if m := month(t, r, "2026-06"); m.ReactivatedMRR != 2000 || m.NewMRR != 0 || m.NewPayers != 1 {
		t.Errorf("June = %+v", m)
	}
	if m := month(t, r, "2026-07"); m.ContractionMRR != -1000 || *m.RevenueChurn != 0.1667 || *m.LogoChurn != 0 {
		t.Errorf("July = %+v", m)
	}
	if r.Totals.CommittedMRR != 5000 || r.Totals.NetNewMRR != 5000 || r.Totals.Complimentary != 1 || r.Totals.Paying != 2 {
		t.Errorf("totals = %+v", r.Totals)
	}

	march := report(story(), "2026-03-01", "2026-03-31", nil)
	if march.Totals.CommittedMRR != 2000 || march.Totals.AtRiskMRR != 2000 || march.Totals.Paying != 2 {
		t.Errorf("March totals: committed and at-risk = %+v", march.Totals)
	}
	if len(march.Points) != 31 || march.Points[3].Date != "2026-03-04" || march.Points[3].AtRiskMRR != 0 || march.Points[4].AtRiskMRR != 2000 {
		t.Errorf("March points (daily) = %+v", march.Points[:6])
	}
}

// TestReplayInAnyOrderTwiceGivesTheSameNumbers: every row delivered twice
// and shuffled gives the report of the rows once in order.
func TestReplayInAnyOrderTwiceGivesTheSameNumbers(t *testing.T) {
	rows := story()
	want := report(rows, "2025-12-01", "2026-08-31", nil)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		twice := append(append([]billing.LedgerEntry{}, rows...), rows...)
		rng.Shuffle(len(twice), func(i, j int) { twice[i], twice[j] = twice[j], twice[i] })
		if got := report(twice, "2025-12-01", "2026-08-31", nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("shuffled and doubled:\n%+v\nwant\n%+v", got, want)
		}
	}
}

// TestClockSkewKeepsTheMembersOrder: a row whose time is earlier than the
// member's previous row (Stripe's clock behind the site's) still comes
// after it.
func TestClockSkewKeepsTheMembersOrder(t *testing.T) {
	l := (&ledgerOf{user: "ada"}).comp("2026-02-10", nil).add("2026-02-09", "active", 2000, "usd", false)
	r := report(l.rows, "2026-02-01", "2026-02-28", nil)
	if r.Totals.Paying != 1 || r.Totals.Complimentary != 0 || r.Totals.CommittedMRR != 2000 {
		t.Fatalf("totals = %+v", r.Totals)
	}
}

// TestOtherCurrencyIsReportedNotSummed: one member paying in euros while the
// price is in dollars is listed apart and never added to MRR.
func TestOtherCurrencyIsReportedNotSummed(t *testing.T) {
	a := (&ledgerOf{user: "a"}).add("2026-01-01", "active", 2000, "usd", false)
	b := (&ledgerOf{user: "b"}).add("2026-01-01", "active", 2000, "usd", false)
	c := (&ledgerOf{user: "c"}).add("2026-01-01", "active", 1800, "eur", false)
	r := report(all(a, b, c), "2026-01-01", "2026-01-31", func(in *Input) {
		in.Money = []Money{{At: date("2026-01-05"), Amount: 29900, Currency: "USD"}, {At: date("2026-01-06"), Amount: 5000, Currency: "EUR"}}
	})
	if r.Currency != "usd" || r.Totals.CommittedMRR != 4000 || r.Totals.BookingsGross != 29900 {
		t.Fatalf("report = %+v", r)
	}
	if want := []CurrencyTotal{{Currency: "eur", Members: 1, MRR: 1800, BookingsNet: 5000}}; !reflect.DeepEqual(r.OtherCurrencies, want) {
		t.Fatalf("other currencies = %+v", r.OtherCurrencies)
	}
}

// TestComplimentaryEndsOnItsDate: a complimentary membership counts until
// its end and never adds MRR; the free count takes the member back.
func TestComplimentaryEndsOnItsDate(t *testing.T) {
	until := date("2026-03-15")
	l := (&ledgerOf{user: "cy"}).comp("2026-03-01", &until)
	r := report(l.rows, "2026-03-01", "2026-03-31", func(in *Input) { in.Accounts = []time.Time{date("2026-01-01")} })
	if p := r.Points[13]; p.Date != "2026-03-14" || p.Complimentary != 1 || p.Free != 0 || p.SeatsLeft != 49 {
		t.Errorf("14 March = %+v", p)
	}
	if p := r.Points[14]; p.Complimentary != 0 || p.Free != 1 {
		t.Errorf("15 March = %+v", p)
	}
	if r.Totals.CommittedMRR != 0 || r.Totals.Complimentary != 0 {
		t.Errorf("totals = %+v", r.Totals)
	}
}

// TestBookingsRevenueIsApartFromMRR: payments and refunds land in the month
// they happened, outside the range are left out, and MRR never sees them.
func TestBookingsRevenueIsApartFromMRR(t *testing.T) {
	r := report(nil, "2026-01-15", "2026-02-28", func(in *Input) {
		in.Money = []Money{
			{At: date("2026-01-10"), Amount: 100, Currency: "USD"}, // before the range
			{At: date("2026-01-20"), Amount: 29900, Currency: "USD"},
			{At: date("2026-02-02"), Amount: 29900, Currency: "USD"},
			{At: date("2026-02-03"), Amount: 10000, Currency: "USD", Refund: true},
		}
	})
	jan, feb := month(t, r, "2026-01"), month(t, r, "2026-02")
	if jan.Start != "2026-01-15" || jan.BookingsGross != 29900 || jan.BookingsNet != 29900 ||
		feb.BookingsGross != 29900 || feb.BookingsRefunded != 10000 || feb.BookingsNet != 19900 {
		t.Fatalf("months = %+v", r.Months)
	}
	if r.Totals.BookingsNet != 49800 || r.Totals.CommittedMRR != 0 || r.Currency != "usd" {
		t.Fatalf("totals = %+v", r.Totals)
	}
}

// TestSessionRates: RSVP and attendance rates are of the members with
// access when the session started; show-up is of those going.
func TestSessionRates(t *testing.T) {
	a := (&ledgerOf{user: "a"}).add("2026-01-01", "active", 2000, "usd", false)
	b := (&ledgerOf{user: "b"}).add("2026-01-01", "active", 2000, "usd", false)
	c := (&ledgerOf{user: "c"}).add("2026-01-01", "active", 2000, "usd", false).add("2026-01-20", "canceled", 2000, "usd", false)
	d := (&ledgerOf{user: "d"}).comp("2026-01-01", nil)
	r := report(all(a, b, c, d), "2026-01-01", "2026-01-31", func(in *Input) {
		in.Sessions = []Turnout{
			{ID: "s2", Title: "Late", StartsAt: date("2026-01-25"), Going: 3, Present: 3, PresentGoing: 2},
			{ID: "s1", Title: "Early", StartsAt: date("2026-01-10"), Going: 2, Present: 1, PresentGoing: 1},
			{ID: "s0", Title: "Before", StartsAt: date("2025-12-10"), Going: 2},
		}
	})
	if len(r.Sessions) != 2 {
		t.Fatalf("sessions = %+v", r.Sessions)
	}
	early, late := r.Sessions[0], r.Sessions[1]
	if early.ID != "s1" || early.Members != 4 || *early.RSVPRate != 0.5 || *early.AttendanceRate != 0.25 || *early.ShowUpRate != 0.5 {
		t.Errorf("early = %+v", early)
	}
	if late.Members != 3 || *late.RSVPRate != 1 || *late.AttendanceRate != 1 || *late.ShowUpRate != 0.6667 {
		t.Errorf("late = %+v", late)
	}
}

// TestRangeStopsAtNow: a range that ends in the future is cut at now, and
// seats left now count the held seats.
func TestRangeStopsAtNow(t *testing.T) {
	a := (&ledgerOf{user: "a"}).add("2026-01-01", "active", 2000, "usd", false)
	r := Compute(Input{From: date("2026-01-01"), To: date("2026-01-31"), Now: date("2026-01-10").Add(12 * time.Hour),
		Capacity: 2, Held: 1, Timeline: NewTimeline(a.rows), Waitlist: []time.Time{date("2026-01-05"), date("2026-01-20")}})
	last := r.Points[len(r.Points)-1]
	if len(r.Points) != 10 || last.Date != "2026-01-10" || r.Totals.SeatsLeft != 0 || last.SeatsLeft != 1 ||
		r.Totals.Waitlist != 1 || r.Months[0].End != "2026-01-10" || r.Months[0].WaitlistJoined != 1 {
		t.Fatalf("report = %+v", r)
	}
}

// TestPointsStepWithTheRange: days up to 31 days, weeks up to 26 weeks,
// months beyond.
func TestPointsStepWithTheRange(t *testing.T) {
	for _, c := range []struct {
		from, to string
		n        int
	}{
		{"2026-01-01", "2026-01-31", 31},
		{"2026-01-01", "2026-02-01", 5},  // 32 days: 4 weeks and the end
		{"2026-01-01", "2026-03-31", 13}, // 90 days: 12 weeks and the end
		{"2026-01-01", "2026-12-31", 12},
		{"2025-06-15", "2026-06-14", 13},
	} {
		if got := len(report(nil, c.from, c.to, nil).Points); got != c.n {
			t.Errorf("%s to %s: %d points, want %d", c.from, c.to, got, c.n)
		}
	}
}
