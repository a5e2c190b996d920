package insights

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"tribe/internal/billing"
	"tribe/internal/community"
	"tribe/internal/config"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestInsightsBench measures what bench/insights.sh records: the report of
// 12 months over 5,000 accounts and 50,000 ledger rows, with 300 on the
// wait list and 52 sessions with RSVPs, on both engines: with the replayed
// ledger kept (the usual case: it changes when a membership does) and
// with a ledger row added before every call (read and replayed again).
// It runs only with INSIGHTS_BENCH=1.
func TestInsightsBench(t *testing.T) {
	if os.Getenv("INSIGHTS_BENCH") != "1" {
		t.Skip("set INSIGHTS_BENCH=1 (bench/insights.sh)")
	}
	storetest.EachNamed(t, benchReport)
}

// insertRows writes rows in multi-row INSERTs of up to 1,000.
func insertRows(t *testing.T, db *store.DB, head string, cols int, rows [][]any) {
	t.Helper()
	ctx := context.Background()
	for start := 0; start < len(rows); start += 1000 {
		batch := rows[start:min(start+1000, len(rows))]
		var b strings.Builder
		args := make([]any, 0, len(batch)*cols)
		for i, r := range batch {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(")
			for j := range cols {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "$%d", i*cols+j+1)
			}
			b.WriteString(")")
			args = append(args, r...)
		}
		if _, err := db.Write.ExecContext(ctx, head+" VALUES "+b.String(), args...); err != nil {
			t.Fatal(err)
		}
	}
}

func benchReport(t *testing.T, engine string, db *store.DB) {
	ctx := context.Background()
	now := time.Now().UTC().Truncate(time.Second)
	start := now.AddDate(-2, 0, 0)
	const members, perMember = 5000, 10
	var users, ledger, waiting [][]any
	for i := range members {
		id := fmt.Sprintf("u%05d", i)
		joined := start.Add(time.Duration(i) * 2 * time.Hour)
		users = append(users, []any{id, id + "@example.com", id + "@example.com", "x", store.At(joined)})
		// Ten changes each: pay, set to cancel, keep, end, come back, two
		// seats, one seat, end, come back, keep; a tenth are complimentary.
		at := joined
		for k := range perMember {
			status, cancel, comp, amount := "active", false, false, int64(2900)
			switch k % 10 {
			case 1:
				cancel = true
			case 3, 7:
				status = "canceled"
			case 5:
				amount = 5800
			}
			if i%10 == 0 {
				comp, amount = true, 0
			}
			ledger = append(ledger, []any{fmt.Sprintf("evt_%s_%d", id, k), id, k + 1, store.At(at), store.At(at), "webhook",
				status, "sub_" + id, comp, nil, cancel, amount, "usd", "month", 1})
			at = at.Add(time.Duration(3+i%5) * 24 * time.Hour)
		}
	}
	for i := range 300 {
		id := fmt.Sprintf("w%04d", i)
		waiting = append(waiting, []any{id, "Waiting " + id, id + "@example.com", id + "@example.com", store.At(now.AddDate(0, 0, -i))})
	}
	began := time.Now()
	insertRows(t, db, `INSERT INTO users (id, email, email_normalized, password_hash, created_at)`, 5, users)
	insertRows(t, db, `INSERT INTO membership_ledger (id, user_id, user_seq, occurred_at, recorded_at, source, status, subscription_id,
		complimentary, comp_until, cancel_at_period_end, amount, currency, billing_interval, interval_count)`, 15, ledger)
	insertRows(t, db, `INSERT INTO waitlist (id, full_name, email, email_normalized, created_at)`, 5, waiting)
	var rsvps [][]any
	for w := range 52 {
		day := now.AddDate(0, 0, -7*w-1)
		s, err := community.CreateSession(ctx, db, "", community.SessionInput{Title: fmt.Sprintf("Week %d", w),
			Date: day.Format(time.DateOnly), Time: "17:00", Duration: "1 hour", Timezone: "UTC", Status: "completed"})
		if err != nil {
			t.Fatal(err)
		}
		for m := range 20 {
			rsvps = append(rsvps, []any{s.ID, fmt.Sprintf("u%05d", (w*37+m*101)%members), m%3 != 0})
		}
	}
	insertRows(t, db, `INSERT INTO session_rsvps (session_id, user_id, going)`, 3, rsvps)
	t.Logf("%s: seeded %d accounts, %d ledger rows in %v", engine, len(users), len(ledger), time.Since(began).Round(time.Millisecond))

	bill := billing.New(db, &config.Config{Capacity: 50})
	from, to := now.AddDate(-1, 0, 1).Truncate(24*time.Hour), now.Truncate(24*time.Hour)
	measure := func(name string, n int, before func(i int)) {
		var times []time.Duration
		var rep Report
		for i := range n {
			if before != nil {
				before(i)
			}
			t0 := time.Now()
			var err error
			if rep, err = Build(ctx, db, bill, from, to, now); err != nil {
				t.Fatal(err)
			}
			times = append(times, time.Since(t0))
		}
		slices.Sort(times)
		p := func(q float64) time.Duration { return times[int(q*float64(len(times)-1))].Round(10 * time.Microsecond) }
		t.Logf("insights %s %s: %d calls, p50 %v, p99 %v, max %v (report: %d months, %d points, %d sessions, committed MRR %d)",
			engine, name, n, p(0.5), p(0.99), times[len(times)-1].Round(10*time.Microsecond), len(rep.Months), len(rep.Points),
			len(rep.Sessions), rep.Totals.CommittedMRR)
	}
	measure("ledger kept", benchCalls(300), nil)
	measure("ledger changed before each call", 50, func(i int) {
		if _, err := db.Write.ExecContext(ctx, `INSERT INTO membership_ledger (id, user_id, user_seq, occurred_at, source, status)
			VALUES ($1, 'u00001', $2, $3, 'webhook', 'active')`, fmt.Sprintf("evt_more_%d", i), 100+i, store.At(now)); err != nil {
			t.Fatal(err)
		}
	})
}

// benchCalls is n, or INSIGHTS_BENCH_CALLS when set (for profiling).
func benchCalls(n int) int {
	var v int
	if _, err := fmt.Sscan(os.Getenv("INSIGHTS_BENCH_CALLS"), &v); err == nil && v > 0 {
		return v
	}
	return n
}
