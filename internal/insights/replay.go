// Package insights computes the owner's numbers (Admin → Insights) by
// replaying the membership ledger forward from its first row: MRR committed
// and at risk, its movements per month, members over time, churn, seats,
// the wait list, one-off booking revenue and session turnout. Compute is a
// pure function of its Input, so the same rows give the same numbers in
// any order and with any row repeated; Load reads the Input from the
// database.
package insights

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"tribe/internal/billing"
)

// Money is one booking payment received, or one refund made.
type Money struct {
	At       time.Time
	Amount   int64
	Currency string
	Refund   bool
}

// Call is a booked call the owner marked after its start: completed, or a
// no-show.
type Call struct {
	Start  time.Time
	NoShow bool
}

// Turnout is one live session's RSVPs and attendance.
type Turnout struct {
	ID           string
	Title        string
	StartsAt     time.Time
	Going        int
	Present      int
	PresentGoing int
}

// Input is everything a report is computed from.
type Input struct {
	// From and To are the first and last day of the range (midnight UTC).
	From, To time.Time
	Now      time.Time
	Capacity int
	// Held is the seats open checkouts hold now.
	Held     int
	Timeline *Timeline
	// Accounts are the accounts' creation times; Waitlist the wait list's
	// entries' joining times.
	Accounts []time.Time
	Waitlist []time.Time
	Money    []Money
	// Packages are the session packages' payments and refunds (the money
	// of the bookings their credits paid for is here, not in Money).
	Packages []Money
	Sessions []Turnout
	// Plays are the days members played the library's recordings.
	Plays []Play
	// Calls are the bookings marked completed or no-show in the range.
	Calls []Call
}

// Play is one member playing one recording on one day (UTC midnight).
type Play struct {
	Day            time.Time
	UserID, ItemID string
	Finished       bool
}

// state is a membership as one ledger row leaves it.
type state struct {
	status string
	comp   bool
	cancel bool
	price  billing.Price
}

func (s state) paying() bool { return !s.comp && billing.GrantsAccess(s.status) }
func (s state) compd() bool  { return s.comp && billing.GrantsAccess(s.status) }

// otherThan reports a billed state priced in a currency other than ref.
func (s state) otherThan(ref string) bool {
	return s.billed() && s.price.Currency != "" && s.price.Currency != ref
}

// unpriced reports a paying member whose price the ledger does not know.
func (s state) unpriced() bool { return s.paying() && s.price.Currency == "" }

// billed reports whether the state counts in MRR: a paid subscription that
// is active, or past due while Stripe retries.
func (s state) billed() bool {
	return !s.comp && (s.status == billing.StatusActive || s.status == billing.StatusPastDue)
}

// mrr is the state's committed and at-risk MRR in currency ref: what the
// member pays a month after discounts (an annual price as a twelfth).
func (s state) mrr(ref string) (committed, atRisk int64) {
	if !s.billed() || s.price.Currency != ref {
		return 0, 0
	}
	if s.cancel {
		return 0, s.price.NetMonthly()
	}
	return s.price.NetMonthly(), 0
}

// discount is the monthly value of the state's discounts in currency ref,
// for a state that counts in MRR.
func (s state) discount(ref string) int64 {
	if !s.billed() || s.price.Currency != ref {
		return 0
	}
	return s.price.MonthlyDiscount()
}

// change is one step of a member's history on the timeline, with what it
// does to the totals in the timeline's currency (worked out once, when the
// timeline is built, so a report only adds them up).
type change struct {
	at         time.Time
	user       string
	ord        int // the member's order: twice the ledger order, +1 for a complimentary end
	prev, next state
	// The change's effect: on committed and at-risk MRR, on the counts of
	// paying, complimentary and MRR-bearing members.
	dCommitted, dAtRisk int64
	dDiscount           int64
	dPaying, dComp      int
	dPayers             int
	// before and after are the member's MRR around the change; returning
	// says they had MRR before (a comeback, not a new member).
	before, after int64
	returning     bool
	dUnpriced     int
	// otherCurrency says the change touches MRR in a currency other than
	// the timeline's.
	otherCurrency bool
}

// Timeline is the ledger replayed into changes in time order, and the
// price's currency. Build it with NewTimeline; it is read-only after.
type Timeline struct {
	changes  []change
	currency string
}

// Len is the number of changes on the timeline.
func (t *Timeline) Len() int { return len(t.changes) }

// NewTimeline replays ledger rows, given in any order and possibly more than
// once: each id counts once; one member's rows follow their order (Seq),
// each at its own time or, when a clock put it earlier, at its
// predecessor's; a complimentary membership with an end adds its end.
func NewTimeline(entries []billing.LedgerEntry) *Timeline {
	// One member's rows in their order; a row given twice (one id: the
	// same member, order and time) lands beside itself and is kept once.
	// Pointers are sorted, not the rows, which are large.
	order := make([]*billing.LedgerEntry, len(entries))
	for i := range entries {
		order[i] = &entries[i]
	}
	slices.SortFunc(order, func(a, b *billing.LedgerEntry) int {
		return cmp.Or(strings.Compare(a.UserID, b.UserID), cmp.Compare(a.Seq, b.Seq),
			a.OccurredAt.Compare(b.OccurredAt), strings.Compare(a.ID, b.ID))
	})
	order = slices.CompactFunc(order, func(a, b *billing.LedgerEntry) bool { return a.ID == b.ID })
	rows := order
	t := &Timeline{changes: make([]change, 0, len(rows)+8)}
	priced := map[string]int{}
	for i, e := range rows {
		first := i == 0 || rows[i-1].UserID != e.UserID
		at := e.OccurredAt
		if !first {
			at = maxTime(at, t.changes[len(t.changes)-1].at)
		}
		s := state{status: e.Status, comp: e.Complimentary, cancel: e.CancelAtPeriodEnd, price: e.Price}
		t.changes = append(t.changes, change{at: at, user: e.UserID, ord: 2 * i, next: s})
		if e.Amount > 0 && e.Currency != "" {
			priced[e.Currency]++
		}
		if !s.compd() || e.CompUntil == nil {
			continue
		}
		end := *e.CompUntil
		last := i == len(rows)-1 || rows[i+1].UserID != e.UserID
		if last || maxTime(rows[i+1].OccurredAt, at).After(end) {
			ended := state{status: billing.StatusCanceled, comp: true}
			t.changes = append(t.changes, change{at: maxTime(end, at), user: e.UserID, ord: 2*i + 1, next: ended})
		}
	}
	byTime := make([]*change, len(t.changes))
	for i := range t.changes {
		byTime[i] = &t.changes[i]
	}
	slices.SortFunc(byTime, func(a, b *change) int {
		return cmp.Or(a.at.Compare(b.at), strings.Compare(a.user, b.user), cmp.Compare(a.ord, b.ord))
	})
	sorted := make([]change, len(byTime))
	for i, c := range byTime {
		sorted[i] = *c
	}
	t.changes = sorted
	t.currency = mostCommon(priced)
	cur := map[string]state{}
	everPaid := map[string]bool{}
	for i := range t.changes {
		c := &t.changes[i]
		c.prev = cur[c.user]
		cur[c.user] = c.next
		pc, pr := c.prev.mrr(t.currency)
		nc, nr := c.next.mrr(t.currency)
		c.dCommitted, c.dAtRisk = nc-pc, nr-pr
		c.dDiscount = c.next.discount(t.currency) - c.prev.discount(t.currency)
		c.dPaying = b2i(c.next.paying()) - b2i(c.prev.paying())
		c.dComp = b2i(c.next.compd()) - b2i(c.prev.compd())
		c.before, c.after = pc+pr, nc+nr
		c.dPayers = b2i(c.after > 0) - b2i(c.before > 0)
		c.returning = everPaid[c.user]
		c.dUnpriced = b2i(c.next.unpriced()) - b2i(c.prev.unpriced())
		c.otherCurrency = c.prev.otherThan(t.currency) || c.next.otherThan(t.currency)
		if c.after > 0 {
			everPaid[c.user] = true
		}
	}
	return t
}

func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// mostCommon is the key with the highest count, the first in order on a tie;
// "" for none.
func mostCommon(counts map[string]int) string {
	best, n := "", 0
	for k, c := range counts {
		if c > n || (c == n && k < best) {
			best, n = k, c
		}
	}
	return best
}

// walker moves along the timeline adding up the changes' effects.
type walker struct {
	t         *Timeline
	ref       string
	i         int
	committed int64
	atRisk    int64
	discount  int64
	payers    int // members with MRR
	paying    int
	comp      int
	unpriced  int
	others    map[string]*CurrencyTotal
	// month receives the movements while the walk is inside the range.
	month *Month
}

// advance applies every change before until.
func (w *walker) advance(until time.Time) {
	for ; w.i < len(w.t.changes) && w.t.changes[w.i].at.Before(until); w.i++ {
		c := &w.t.changes[w.i]
		w.committed += c.dCommitted
		w.atRisk += c.dAtRisk
		w.discount += c.dDiscount
		w.paying += c.dPaying
		w.comp += c.dComp
		w.payers += c.dPayers
		w.unpriced += c.dUnpriced
		if c.otherCurrency || w.ref != w.t.currency {
			w.other(c.prev, -1)
			w.other(c.next, 1)
		}
		if m := w.month; m != nil {
			before, after := c.before, c.after
			switch {
			case before == 0 && after > 0 && c.returning:
				m.ReactivatedMRR += after
				m.NewPayers++
			case before == 0 && after > 0:
				m.NewMRR += after
				m.NewPayers++
			case before > 0 && after == 0:
				m.ChurnedMRR -= before
				m.ChurnedPayers++
			case after > before:
				m.ExpansionMRR += after - before
			case after < before:
				m.ContractionMRR -= before - after
			}
		}
	}
}

// other counts a billed state in a currency other than the report's.
func (w *walker) other(s state, sign int) {
	if !s.otherThan(w.ref) {
		return
	}
	o := w.others[s.price.Currency]
	if o == nil {
		o = &CurrencyTotal{Currency: s.price.Currency}
		w.others[s.price.Currency] = o
	}
	o.Members += sign
	o.MRR += int64(sign) * s.price.NetMonthly()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ratio is a/b rounded to four places, nil when b is 0.
func ratio(a, b int64) *float64 {
	if b == 0 {
		return nil
	}
	r := math.Round(float64(a)/float64(b)*10000) / 10000
	return &r
}

const day = 24 * time.Hour

func dayOf(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// countBefore is how many of the sorted times are before t.
func countBefore(sorted []time.Time, t time.Time) int {
	return sort.Search(len(sorted), func(i int) bool { return !sorted[i].Before(t) })
}

// Compute is the report for in's range. The range ends at the end of To or
// at Now, whichever is earlier.
func Compute(in Input) Report {
	start := in.From.UTC()
	end := in.To.UTC().Add(day)
	if in.Now.Before(end) {
		end = in.Now.UTC()
	}
	if end.Before(start) {
		end = start
	}
	tl := in.Timeline
	if tl == nil {
		tl = NewTimeline(nil)
	}
	ref := tl.currency
	if ref == "" {
		counts := map[string]int{}
		for _, m := range in.Money {
			counts[strings.ToLower(m.Currency)]++
		}
		for _, m := range in.Packages {
			counts[strings.ToLower(m.Currency)]++
		}
		ref = mostCommon(counts)
	}
	rep := Report{From: dayOf(start), To: dayOf(in.To), Currency: ref, Months: []Month{}, Points: []Point{},
		Sessions: []SessionRate{}, OtherCurrencies: []CurrencyTotal{}}
	accounts := sortedTimes(in.Accounts)
	waitlist := sortedTimes(in.Waitlist)
	sessions := slices.Clone(in.Sessions)
	slices.SortFunc(sessions, func(a, b Turnout) int {
		return cmp.Or(a.StartsAt.Compare(b.StartsAt), strings.Compare(a.ID, b.ID))
	})
	points := pointTimes(start, end)
	w := &walker{t: tl, ref: ref, others: map[string]*CurrencyTotal{}}
	other := func(c string) *CurrencyTotal {
		if w.others[c] == nil {
			w.others[c] = &CurrencyTotal{Currency: c}
		}
		return w.others[c]
	}
	w.advance(start)
	pi, si := 0, 0
	for ms := start; ms.Before(end); {
		next := time.Date(ms.Year(), ms.Month()+1, 1, 0, 0, 0, 0, time.UTC)
		me := next
		if end.Before(me) {
			me = end
		}
		m := Month{Month: ms.Format("2006-01"), Start: dayOf(ms), End: dayOf(me.Add(-time.Nanosecond)),
			StartMRR: w.committed + w.atRisk, StartPayers: w.payers}
		w.month = &m
		for {
			// The next probe inside the month: a point (state at its end) or a
			// session (state at its start).
			pt, st := time.Time{}, time.Time{}
			if pi < len(points) && !points[pi].After(me) {
				pt = points[pi]
			}
			for si < len(sessions) && sessions[si].StartsAt.Before(start) {
				si++
			}
			if si < len(sessions) && sessions[si].StartsAt.Before(me) {
				st = sessions[si].StartsAt
			}
			switch {
			case !st.IsZero() && (pt.IsZero() || st.Before(pt)):
				w.advance(st)
				rep.Sessions = append(rep.Sessions, sessionRate(sessions[si], w.paying+w.comp))
				si++
				continue
			case !pt.IsZero():
				w.advance(pt)
				free := max(countBefore(accounts, pt)-w.paying-w.comp, 0)
				rep.Points = append(rep.Points, Point{Date: dayOf(pt.Add(-time.Nanosecond)), Paying: w.paying,
					Complimentary: w.comp, Free: free, CommittedMRR: w.committed, AtRiskMRR: w.atRisk, DiscountMRR: w.discount,
					SeatsLeft: max(in.Capacity-w.paying-w.comp, 0), Waitlist: countBefore(waitlist, pt)})
				pi++
				continue
			}
			break
		}
		w.advance(me)
		w.month = nil
		m.EndMRR = w.committed + w.atRisk
		m.NetNewMRR = m.NewMRR + m.ReactivatedMRR + m.ExpansionMRR + m.ContractionMRR + m.ChurnedMRR
		m.LogoChurn = ratio(int64(m.ChurnedPayers), int64(m.StartPayers))
		m.RevenueChurn = ratio(-(m.ChurnedMRR + m.ContractionMRR), m.StartMRR)
		m.WaitlistJoined = countBefore(waitlist, me) - countBefore(waitlist, ms)
		m.ReplaysWatched, m.ReplayViewers, m.ReplaysFinished = replaysIn(in.Plays, ms, me)
		rep.Months = append(rep.Months, m)
		ms = next
	}
	// One-off money: bookings and packages, each kind in its own fields.
	for _, kind := range []struct {
		money    []Money
		packages bool
	}{{in.Money, false}, {in.Packages, true}} {
		for _, mo := range kind.money {
			if mo.At.Before(start) || !mo.At.Before(end) {
				continue
			}
			cur := strings.ToLower(mo.Currency)
			sign := int64(1)
			if mo.Refund {
				sign = -1
			}
			if cur != ref {
				if kind.packages {
					other(cur).PackagesNet += sign * mo.Amount
				} else {
					other(cur).BookingsNet += sign * mo.Amount
				}
				continue
			}
			i := monthIndex(rep.Months, mo.At)
			if i < 0 {
				continue
			}
			m := &rep.Months[i]
			switch {
			case kind.packages && mo.Refund:
				m.PackagesRefunded += mo.Amount
			case kind.packages:
				m.PackagesSold++
				m.PackagesRevenue += mo.Amount
			case mo.Refund:
				m.BookingsRefunded += mo.Amount
			default:
				m.BookingsGross += mo.Amount
			}
		}
	}
	t := &rep.Totals
	for i := range rep.Months {
		m := &rep.Months[i]
		m.BookingsNet = m.BookingsGross - m.BookingsRefunded
		m.PackagesNet = m.PackagesRevenue - m.PackagesRefunded
		m.OneOffNet = m.BookingsNet + m.PackagesNet
		t.NetNewMRR += m.NetNewMRR
		t.BookingsGross += m.BookingsGross
		t.BookingsRefunded += m.BookingsRefunded
		t.BookingsNet += m.BookingsNet
		t.PackagesSold += m.PackagesSold
		t.PackagesRevenue += m.PackagesRevenue
		t.PackagesRefunded += m.PackagesRefunded
		t.PackagesNet += m.PackagesNet
		t.OneOffNet += m.OneOffNet
	}
	t.CommittedMRR, t.AtRiskMRR, t.Paying, t.Complimentary = w.committed, w.atRisk, w.paying, w.comp
	t.DiscountMRR = w.discount
	for _, c := range in.Calls {
		if c.Start.Before(start) || !c.Start.Before(end) {
			continue
		}
		i := monthIndex(rep.Months, c.Start)
		if i < 0 {
			continue
		}
		rep.Months[i].CallsMarked++
		t.CallsMarked++
		if c.NoShow {
			rep.Months[i].NoShows++
			t.NoShows++
		}
	}
	for i := range rep.Months {
		m := &rep.Months[i]
		m.NoShowRate = ratio(int64(m.NoShows), int64(m.CallsMarked))
	}
	t.NoShowRate = ratio(int64(t.NoShows), int64(t.CallsMarked))
	t.Free = max(countBefore(accounts, end)-w.paying-w.comp, 0)
	t.Capacity, t.Waitlist = in.Capacity, countBefore(waitlist, end)
	held := 0
	if end.Equal(in.Now.UTC()) {
		held = in.Held
	}
	t.SeatsLeft = max(in.Capacity-w.paying-w.comp-held, 0)
	rep.Unpriced = w.unpriced
	for _, c := range slices.Sorted(maps.Keys(w.others)) {
		if o := w.others[c]; o.Members != 0 || o.MRR != 0 || o.BookingsNet != 0 || o.PackagesNet != 0 {
			rep.OtherCurrencies = append(rep.OtherCurrencies, *o)
		}
	}
	return rep
}

func sessionRate(s Turnout, members int) SessionRate {
	return SessionRate{ID: s.ID, Title: s.Title, StartsAt: s.StartsAt.UTC(), Members: members, Going: s.Going,
		Present: s.Present, PresentGoing: s.PresentGoing,
		RSVPRate:       ratio(int64(s.Going), int64(members)),
		AttendanceRate: ratio(int64(s.Present), int64(members)),
		ShowUpRate:     ratio(int64(s.PresentGoing), int64(s.Going))}
}

func monthIndex(months []Month, t time.Time) int {
	key := t.UTC().Format("2006-01")
	for i, m := range months {
		if m.Month == key {
			return i
		}
	}
	return -1
}

func sortedTimes(in []time.Time) []time.Time {
	out := slices.Clone(in)
	slices.SortFunc(out, func(a, b time.Time) int { return a.Compare(b) })
	return out
}

// pointTimes are the instants the report samples: the end of every day of
// a range up to 31 days, of every week up to 26 weeks, else of every month;
// and the range's end.
func pointTimes(start, end time.Time) []time.Time {
	var out []time.Time
	days := int(math.Ceil(end.Sub(start).Hours() / 24))
	switch {
	case days <= 31:
		for p := start.Add(day); p.Before(end); p = p.Add(day) {
			out = append(out, p)
		}
	case days <= 26*7:
		for p := start.Add(7 * day); p.Before(end); p = p.Add(7 * day) {
			out = append(out, p)
		}
	default:
		for p := time.Date(start.Year(), start.Month()+1, 1, 0, 0, 0, 0, time.UTC); p.Before(end); p = p.AddDate(0, 1, 0) {
			out = append(out, p)
		}
	}
	if end.After(start) {
		out = append(out, end)
	}
	return out
}

// replaysIn counts the recordings played in [from, to) once per member and
// recording, the members who played any, and the recordings finished.
func replaysIn(plays []Play, from, to time.Time) (watched, viewers, finished int) {
	type pair struct{ user, item string }
	seen, done, people := map[pair]bool{}, map[pair]bool{}, map[string]bool{}
	for _, p := range plays {
		if p.Day.Before(from) || !p.Day.Before(to) {
			continue
		}
		k := pair{p.UserID, p.ItemID}
		seen[k], people[p.UserID] = true, true
		if p.Finished {
			done[k] = true
		}
	}
	return len(seen), len(people), len(done)
}
