package booking

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tribe/internal/community"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestBookingBench measures what bench/booking.sh records: free slots of a
// 60-day window with 500 bookings and the live sessions in it, and holds
// asked for concurrently, on both engines. It runs only with BOOKING_BENCH=1.
func TestBookingBench(t *testing.T) {
	if os.Getenv("BOOKING_BENCH") != "1" {
		t.Skip("set BOOKING_BENCH=1 (bench/booking.sh)")
	}
	storetest.EachNamed(t, func(t *testing.T, engine string, db *store.DB) {
		benchSlots(t, engine, db)
		benchHolds(t, engine, db)
	})
}

func benchSlots(t *testing.T, engine string, db *store.DB) {
	ctx := context.Background()
	s, _ := newService(t, db, true)
	// 500 confirmed bookings, one every 2 h 50 min through the window, and
	// a live session every week.
	first := monday.Add(13 * time.Hour)
	for i := range 500 {
		start := first.Add(time.Duration(i) * 170 * time.Minute)
		_, err := db.Write.ExecContext(ctx, `INSERT INTO bookings (id, type_id, status, start_at, end_at, blocked_from, blocked_until,
			name, email, email_normalized, time_zone, amount, currency, token_hash)
			VALUES ($1, 'session-30', 'confirmed', $2, $3, $4, $5, 'X', $6, $6, 'UTC', 29900, 'USD', $7)`,
			store.NewID(), store.At(start), store.At(start.Add(30*time.Minute)), store.At(start.Add(-10*time.Minute)),
			store.At(start.Add(40*time.Minute)), email(i), hashToken(email(i)))
		if err != nil {
			t.Fatal(err)
		}
	}
	for w := range 9 {
		d := at(2026, time.January, 8, 14, 0).AddDate(0, 0, 7*w).Format(time.DateOnly)
		if _, err := community.CreateSession(ctx, db, "", community.SessionInput{Title: "Tribe call", Date: d, Time: "14:00",
			Duration: "2 hours", Timezone: "America/Toronto", Status: "scheduled"}); err != nil {
			t.Fatal(err)
		}
	}
	from, to := "2026-01-05", "2026-03-05"
	var took []time.Duration
	slots := 0
	for i := range 1000 {
		t0 := time.Now()
		a, err := s.Slots(ctx, "session-30", from, to, "Europe/Paris")
		took = append(took, time.Since(t0))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			for _, d := range a.Days {
				slots += len(d.Slots)
			}
		}
	}
	slices.Sort(took)
	p := func(q float64) string { return fmt.Sprintf("%.2fms", float64(took[int(q*float64(len(took)-1))])/1e6) }
	t.Logf("slots: %-8s window=60d bookings=500 live_sessions=9 slots_offered=%d calls=%d p50=%s p99=%s max=%s",
		engine, slots, len(took), p(0.5), p(0.99), p(1))
}

func benchHolds(t *testing.T, engine string, db *store.DB) {
	ctx := context.Background()
	s, _ := newService(t, db, true)
	// Each run starts from an empty calendar, so every scattered slot is free.
	clear := func() {
		for _, table := range []string{"bookings", "live_sessions"} {
			if _, err := db.Write.ExecContext(ctx, `DELETE FROM `+table); err != nil {
				t.Fatal(err)
			}
		}
	}
	run := func(name string, n, want int, start func(i int) time.Time) {
		clear()
		var ok, taken atomic.Int64
		var wg sync.WaitGroup
		t0 := time.Now()
		for i := range n {
			wg.Go(func() {
				_, err := s.Book(ctx, req("session-15", start(i), email(i)))
				switch errs.CodeOf(err) {
				case "":
					ok.Add(1)
				case errs.SlotTaken:
					taken.Add(1)
				default:
					t.Errorf("hold %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		el := time.Since(t0)
		if ok.Load() != int64(want) || taken.Load() != int64(n-want) {
			t.Errorf("%s: %d held and %d slot_taken, want %d and %d", name, ok.Load(), taken.Load(), want, n-want)
		}
		t.Logf("holds: %-8s %-9s concurrent=%d held=%d slot_taken=%d total=%s per_hold=%.2fms",
			engine, name, n, ok.Load(), taken.Load(), el.Round(time.Millisecond), float64(el)/float64(n)/1e6)
	}
	run("one-slot", 100, 1, func(int) time.Time { return at(2026, time.January, 7, 10, 0) })
	// 200 distinct slots, 45 minutes apart (a 15-minute call with its
	// buffers takes 35), eleven a weekday from 09:00.
	run("scattered", 200, 200, func(i int) time.Time {
		day := at(2026, time.January, 6, 9, 0)
		for d := i / 11; d > 0; {
			day = day.AddDate(0, 0, 1)
			if wd := day.Weekday(); wd != time.Saturday && wd != time.Sunday {
				d--
			}
		}
		return day.Add(time.Duration(i%11) * 45 * time.Minute)
	})
}
