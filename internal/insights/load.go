package insights

import (
	"context"
	"time"

	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/booking"
	"tribe/internal/community"
	"tribe/internal/errs"
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

// timeline is the replayed ledger, kept until a ledger row is added.
func timeline(ctx context.Context, db *store.DB) (*Timeline, error) {
	return store.ReadThrough(ctx, db, "membership_ledger", func(ctx context.Context) (*Timeline, error) {
		rows, err := billing.Ledger(ctx, db)
		if err != nil {
			return nil, err
		}
		return NewTimeline(rows), nil
	})
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
	turnout, err := community.Turnout(ctx, db, from, end)
	if err != nil {
		return Report{}, err
	}
	for _, s := range turnout {
		in.Sessions = append(in.Sessions, Turnout(s))
	}
	return Compute(in), nil
}
