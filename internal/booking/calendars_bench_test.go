package booking

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
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

// hostileFeeds are the worst calendars we could build within the caps,
// each at most 5 MB (the body cap), by name.
var hostileFeeds = map[string]func() []byte{
	// The issue's: 200 events repeating every minute (25 KB).
	"minutely-200": func() []byte {
		return hostileFeed(200, func(i int) string {
			return fmt.Sprintf("BEGIN:VEVENT\r\nUID:m%d\r\nDTSTART:20250101T000000Z\r\nDURATION:PT1M\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\n", i)
		})
	},
	// Rules that never match: the library searches to the year 9999 for
	// each; only the processor budget stops them.
	"never-matching-rules": func() []byte {
		return hostileFeed(40000, func(i int) string {
			return fmt.Sprintf("BEGIN:VEVENT\r\nUID:n%d\r\nDTSTART:20260101T000000Z\r\nDURATION:PT1M\r\nRRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30\r\nEND:VEVENT\r\n", i)
		})
	},
	// Series just under the per-series cap (5,920 instances each in the
	// window): the feed cap and the budget stop them.
	"series-under-cap": func() []byte {
		return hostileFeed(40000, func(i int) string {
			return fmt.Sprintf("BEGIN:VEVENT\r\nUID:u%d\r\nDTSTART:20260101T00%02d00Z\r\nDURATION:PT1M\r\nRRULE:FREQ=MINUTELY;INTERVAL=18\r\nEND:VEVENT\r\n", i, i%18)
		})
	},
	// 5 MB of nested BEGIN lines.
	"nested-begin": func() []byte {
		return []byte("BEGIN:VCALENDAR\r\n" + strings.Repeat("BEGIN:X\r\n", (maxCalendarBytes-40)/9) + "END:VCALENDAR\r\n")
	},
	// 5 MB of small events: beyond the component cap.
	"many-components": func() []byte {
		return hostileFeed(maxCalendarBytes/90, func(i int) string {
			return fmt.Sprintf("BEGIN:VEVENT\r\nUID:c%d\r\nDTSTART:20260305T10%02d00Z\r\nDURATION:PT1M\r\nEND:VEVENT\r\n", i, i%60)
		})
	},
	// One zone of 290,000 changes (RDATEs, reversed) and an event in it.
	"zone-changes": func() []byte {
		var b strings.Builder
		b.WriteString("BEGIN:VTIMEZONE\r\nTZID:Many\r\nBEGIN:STANDARD\r\nDTSTART:18000101T020000\r\nTZOFFSETFROM:+0300\r\nTZOFFSETTO:+0300\r\nRDATE:")
		for i := 90000; i > 0; i-- {
			fmt.Fprintf(&b, "%s,", time.Date(1800, 1, 1, 2, 0, 0, 0, time.UTC).Add(time.Duration(i)*24*time.Hour).Format("20060102T150405"))
		}
		b.WriteString("18000101T020000\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:z\r\nDTSTART;TZID=Many:20260305T100000\r\nDURATION:PT1H\r\nEND:VEVENT\r\n")
		return hostileFeed(0, nil, b.String())
	},
	// 12,000 zones of their own, each with yearly rules from 1601 and an
	// event that needs it.
	"many-zones": func() []byte {
		return hostileFeed(12000, func(i int) string {
			return fmt.Sprintf("BEGIN:VTIMEZONE\r\nTZID:Z%d\r\nBEGIN:STANDARD\r\nDTSTART:16011104T020000\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nRRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU\r\nEND:STANDARD\r\n"+
				"BEGIN:DAYLIGHT\r\nDTSTART:16010311T020000\r\nTZOFFSETFROM:-0500\r\nTZOFFSETTO:-0400\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU\r\nEND:DAYLIGHT\r\nEND:VTIMEZONE\r\n"+
				"BEGIN:VEVENT\r\nUID:e%d\r\nDTSTART;TZID=Z%d:20260305T100000\r\nDURATION:PT1H\r\nRRULE:FREQ=WEEKLY\r\nEND:VEVENT\r\n", i, i, i)
		})
	},
	// One daily series with 5 MB of EXDATEs and THISANDFUTURE overrides.
	"exdates-and-overrides": func() []byte {
		var b strings.Builder
		b.WriteString("BEGIN:VEVENT\r\nUID:x\r\nDTSTART:20200101T100000Z\r\nDURATION:PT30M\r\nRRULE:FREQ=HOURLY\r\nEXDATE:")
		for i := range 150000 {
			fmt.Fprintf(&b, "%s,", time.Date(2020, 1, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(2*i)*time.Hour).Format("20060102T150405Z"))
		}
		b.WriteString("20200101T100000Z\r\nEND:VEVENT\r\n")
		for i := range 12000 {
			fmt.Fprintf(&b, "BEGIN:VEVENT\r\nUID:x\r\nRECURRENCE-ID;RANGE=THISANDFUTURE:%s\r\nDTSTART:%s\r\nDURATION:PT20M\r\nEND:VEVENT\r\n",
				time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC).Add(time.Duration(i)*time.Hour).Format("20060102T150405Z"),
				time.Date(2026, 3, 1, 10, 5, 0, 0, time.UTC).Add(time.Duration(i)*time.Hour).Format("20060102T150405Z"))
		}
		return hostileFeed(0, nil, b.String())
	},
}

func hostileFeed(n int, ev func(i int) string, extra ...string) []byte {
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//hostile//EN\r\n")
	for i := range n {
		s := ev(i)
		if b.Len()+len(s) > maxCalendarBytes-20 {
			break
		}
		b.WriteString(s)
	}
	for _, s := range extra {
		b.WriteString(s)
	}
	b.WriteString("END:VCALENDAR\r\n")
	return []byte(b.String())
}

// TestHostileFeedBench reads the hostile feed named by HOSTILE_FEED (one per
// process, so bench/hostile-feeds.sh can take each one's peak memory with
// /usr/bin/time) over the 60-day window and logs how long it took, the
// most heap it held, and what it reported.
func TestHostileFeedBench(t *testing.T) {
	name := os.Getenv("HOSTILE_FEED")
	build, ok := hostileFeeds[name]
	if !ok {
		t.Skip("set HOSTILE_FEED to one of the hostileFeeds (bench/hostile-feeds.sh)")
	}
	data := build()
	if len(data) > maxCalendarBytes {
		t.Fatalf("%s is %d bytes, over the body cap", name, len(data))
	}
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			metrics.Read(sample)
			if v := sample[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	t0 := time.Now()
	busy, rep, err := expandBusy(data, mustZone("America/Toronto"), monday, monday.Add(67*24*time.Hour))
	took := time.Since(t0)
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hostile: %-22s bytes=%d took=%s peak_heap=%.1fMB busy=%d events=%d skipped=%d notes=%q",
		name, len(data), took.Round(time.Millisecond), float64(peak.Load())/(1<<20), len(busy), rep.Events, rep.Skipped, rep.Notes)
}
