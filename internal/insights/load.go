package insights

import (
	"context"
	"sync"
	"time"

	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/booking"
	"tribe/internal/community"
	"tribe/internal/errs"
	"tribe/internal/library"
	"tribe/internal/store"
	"tribe/internal/waitlist"
)

// MaxDays is the longest range a report covers: two years, enough to
// compare a year with the one before.
const MaxDays = 731

// ParseRange reads the from and to query values (YYYY-MM-DD, UTC days, both
// inclusive). Both empty is the last 30 days up to today. Refusals name the
// field: a malformed day, from after to, to after today, or a range longer
// than MaxDays.
func ParseRange(from, to string, now time.Time) (time.Time, time.Time, error) {
	today := now.UTC().Truncate(24 * time.Hour)
	if from == "" && to == "" {
		return today.AddDate(0, 0, -29), today, nil
	}
	f, err := time.Parse(time.DateOnly, from)
	if err != nil {
		return time.Time{}, time.Time{}, errs.Field("from", "The first day must be written YYYY-MM-DD.")
	}
	t, err := time.Parse(time.DateOnly, to)
	if err != nil {
		return time.Time{}, time.Time{}, errs.Field("to", "The last day must be written YYYY-MM-DD.")
	}
	switch {
	case t.After(today):
		return time.Time{}, time.Time{}, errs.Field("to", "The last day cannot be after today.")
	case f.After(t):
		return time.Time{}, time.Time{}, errs.Field("from", "The first day must not be after the last day.")
	case t.Sub(f) >= MaxDays*24*time.Hour:
		return time.Time{}, time.Time{}, errs.Field("from", "A range covers at most 731 days (two years).")
	}
	return f, t, nil
}

// ledgerRows are the ledger rows a process has read, kept so that a new
// row costs reading the rows recorded since, not the whole ledger.
type ledgerRows struct {
	mu     sync.Mutex
	rows   []billing.LedgerEntry
	ids    map[string]bool
	latest time.Time // the newest recorded_at read
}

// recordedSlack is how far before the newest row read the next read starts:
// a transaction stamps its row before it commits, so a row may become
// visible after a newer one. The total count catches anything older.
const recordedSlack = 10 * time.Minute

var kept sync.Map // *store.DB -> *ledgerRows

// timeline is the replayed ledger, kept until a ledger row is added; then
// the rows recorded since the last read are added to those kept (all rows
// are read again when the count says one was missed) and replayed again.
func timeline(ctx context.Context, db *store.DB) (*Timeline, error) {
	return store.ReadThrough(ctx, db, "membership_ledger", func(ctx context.Context) (*Timeline, error) {
		v, _ := kept.LoadOrStore(db, &ledgerRows{ids: map[string]bool{}})
		lr := v.(*ledgerRows)
		lr.mu.Lock()
		defer lr.mu.Unlock()
		since := time.Unix(0, 0) // the first read: everything
		if !lr.latest.IsZero() {
			since = lr.latest.Add(-recordedSlack)
		}
		fresh, total, err := billing.LedgerSince(ctx, db, since)
		if err != nil {
			return nil, err
		}
		lr.add(fresh)
		if len(lr.rows) < total {
			all, err := billing.Ledger(ctx, db)
			if err != nil {
				return nil, err
			}
			lr.rows, lr.ids, lr.latest = nil, map[string]bool{}, time.Time{}
			lr.add(all)
		}
		return NewTimeline(lr.rows), nil
	})
}

func (lr *ledgerRows) add(rows []billing.LedgerEntry) {
	for _, e := range rows {
		if e.RecordedAt.After(lr.latest) {
			lr.latest = e.RecordedAt
		}
		if !lr.ids[e.ID] {
			lr.ids[e.ID] = true
			lr.rows = append(lr.rows, e)
		}
	}
}

// Build reads what the report for [from, to] needs and computes it at now.
func Build(ctx context.Context, db *store.DB, bill *billing.Service, from, to, now time.Time) (Report, error) {
	in := Input{From: from, To: to, Now: now, Capacity: bill.Capacity()}
	end := to.Add(24 * time.Hour)
	var err error
	if in.Timeline, err = timeline(ctx, db); err != nil {
		return Report{}, err
	}
	st, err := bill.Status(ctx)
	if err != nil {
		return Report{}, err
	}
	in.Held = st.Held
	if in.Accounts, err = auth.AccountTimes(ctx, db); err != nil {
		return Report{}, err
	}
	list, err := waitlist.List(ctx, db)
	if err != nil {
		return Report{}, err
	}
	for _, e := range list {
		in.Waitlist = append(in.Waitlist, e.CreatedAt)
	}
	takings, err := booking.Takings(ctx, db, from, end)
	if err != nil {
		return Report{}, err
	}
	for _, t := range takings {
		in.Money = append(in.Money, Money(t))
	}
	sales, err := booking.PackageTakings(ctx, db, from, end)
	if err != nil {
		return Report{}, err
	}
	for _, t := range sales {
		in.Packages = append(in.Packages, Money(t))
	}
	outcomes, err := booking.Outcomes(ctx, db, from, end)
	if err != nil {
		return Report{}, err
	}
	for _, o := range outcomes {
		in.Calls = append(in.Calls, Call(o))
	}
	turnout, err := community.Turnout(ctx, db, from, end)
	if err != nil {
		return Report{}, err
	}
	for _, s := range turnout {
		in.Sessions = append(in.Sessions, Turnout(s))
	}
	plays, err := library.Plays(ctx, db, from, end)
	if err != nil {
		return Report{}, err
	}
	for _, p := range plays {
		in.Plays = append(in.Plays, Play(p))
	}
	return Compute(in), nil
}
