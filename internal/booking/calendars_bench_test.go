package booking

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// benchCalendar is an owner's calendar of 500 events over the 60 days from
// monday: 450 single events (some all-day, some free or cancelled) and 50
// recurring series (weekly, daily, monthly), each with an EXDATE and a
// moved occurrence, in America/Toronto with its VTIMEZONE.
func benchCalendar() []byte {
	lines := []string{"X-WR-TIMEZONE:America/Toronto",
		"BEGIN:VTIMEZONE", "TZID:America/Toronto",
		"BEGIN:DAYLIGHT", "DTSTART:20070311T020000", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "END:DAYLIGHT",
		"BEGIN:STANDARD", "DTSTART:20071104T020000", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "END:STANDARD",
		"END:VTIMEZONE"}
	local := func(t time.Time) string { return t.Format("20060102T150405") }
	tz := ";TZID=America/Toronto:"
	seed := uint32(7)
	rnd := func(n int) int { seed = seed*1664525 + 1013904223; return int(seed>>8) % n }
	base := time.Date(2026, time.January, 5, 0, 0, 0, 0, time.UTC) // readings, placed in Toronto
	for i := range 450 {
		day := base.AddDate(0, 0, rnd(60))
		uid := fmt.Sprintf("single-%d@bench", i)
		switch {
		case i%50 == 0:
			lines = append(lines, "BEGIN:VEVENT", "UID:"+uid, "DTSTART;VALUE=DATE:"+day.Format("20060102"), "SUMMARY:Away", "END:VEVENT")
		default:
			start := day.Add(time.Duration(7*60+rnd(15)*60+rnd(4)*15) * time.Minute)
			ev := []string{"BEGIN:VEVENT", "UID:" + uid, "DTSTART" + tz + local(start), "DTEND" + tz + local(start.Add(time.Duration(30+rnd(2)*30)*time.Minute)), "SUMMARY:Meeting"}
			if i%17 == 0 {
				ev = append(ev, "TRANSP:TRANSPARENT")
			}
			if i%23 == 0 {
				ev = append(ev, "STATUS:CANCELLED")
			}
			lines = append(lines, append(ev, "END:VEVENT")...)
		}
	}
	rules := []string{"FREQ=WEEKLY;BYDAY=MO", "FREQ=WEEKLY;BYDAY=TH;UNTIL=20260601T000000Z", "FREQ=MONTHLY;BYDAY=2TU", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "FREQ=DAILY;COUNT=10"}
	for i := range 50 {
		first := base.AddDate(0, 0, -rnd(90)).Add(time.Duration(8*60+rnd(11)*60) * time.Minute)
		uid := fmt.Sprintf("series-%d@bench", i)
		ex := first.AddDate(0, 0, 7*(1+rnd(8)))
		lines = append(lines, "BEGIN:VEVENT", "UID:"+uid, "DTSTART"+tz+local(first), "DTEND"+tz+local(first.Add(45*time.Minute)),
			"RRULE:"+rules[i%len(rules)], "EXDATE"+tz+local(ex), "END:VEVENT")
		moved := first.AddDate(0, 0, 7*(9+rnd(4)))
		lines = append(lines, "BEGIN:VEVENT", "UID:"+uid, "RECURRENCE-ID"+tz+local(moved),
			"DTSTART"+tz+local(moved.Add(2*time.Hour)), "DTEND"+tz+local(moved.Add(165*time.Minute)), "END:VEVENT")
	}
	return icsFile(lines...)
}

func quantiles(took []time.Duration) string {
	slices.Sort(took)
	p := func(q float64) string { return fmt.Sprintf("%.2fms", float64(took[int(q*float64(len(took)-1))])/1e6) }
	return fmt.Sprintf("p50=%s p99=%s max=%s", p(0.5), p(0.99), p(1))
}

// TestCalendarBench measures what bench/calendars.sh records: expanding a
// 500-event calendar with 50 recurring series over the 60-day window, a
// whole refresh (fetch, expand, store), and free slots with its busy times,
// on both engines. It runs only with CALENDAR_BENCH=1.
func TestCalendarBench(t *testing.T) {
	if os.Getenv("CALENDAR_BENCH") != "1" {
		t.Skip("set CALENDAR_BENCH=1 (bench/calendars.sh)")
	}
	data := benchCalendar()
	toronto := mustZone("America/Toronto")
	lo, hi := monday, monday.Add(67*24*time.Hour)
	var took []time.Duration
	var busy []span
	for range 200 {
		t0 := time.Now()
		b, n, err := expandBusy(data, toronto, lo, hi)
		took = append(took, time.Since(t0))
		if err != nil || n.Events != 550 {
			t.Fatalf("expand: %d events, %v", n.Events, err)
		}
		busy = b
	}
	t.Logf("expand: events=500 (+50 overrides) series=50 bytes=%d busy_intervals=%d runs=%d %s",
		len(data), len(busy), len(took), quantiles(took))

	storetest.EachNamed(t, func(t *testing.T, engine string, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(monday)
		s := calendarService(t, db, c)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(data) }))
		defer srv.Close()
		if err := s.SaveCalendars(ctx, CalendarFeedsInput{URLs: []string{srv.URL}}); err != nil {
			t.Fatal(err)
		}
		var refresh []time.Duration
		for range 20 {
			t0 := time.Now()
			if n, err := s.RefreshCalendars(ctx); err != nil || n != 1 {
				t.Fatalf("refresh: %d, %v", n, err)
			}
			refresh = append(refresh, time.Since(t0))
			c.Advance(CalendarRefresh)
		}
		c.Set(monday)
		stored := count(t, db, `SELECT COUNT(*) FROM booking_busy`)
		t.Logf("refresh: %-8s fetch+expand+store busy_rows=%d runs=%d %s", engine, stored, len(refresh), quantiles(refresh))

		var slotsTook []time.Duration
		offered := 0
		for i := range 1000 {
			t0 := time.Now()
			a, err := s.Slots(ctx, "session-30", "2026-01-05", "2026-03-05", "Europe/Paris")
			slotsTook = append(slotsTook, time.Since(t0))
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				for _, d := range a.Days {
					offered += len(d.Slots)
				}
			}
		}
		t.Logf("slots: %-8s window=60d calendar_events=500 busy_rows=%d slots_offered=%d calls=%d %s",
			engine, stored, offered, len(slotsTook), quantiles(slotsTook))
	})
}
