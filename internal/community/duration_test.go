package community

import (
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/content"
)

func TestParseDuration(t *testing.T) {
	ok := []struct {
		in   string
		want time.Duration
	}{
		{"2 hours", 2 * time.Hour},
		{"1.5 hours", 90 * time.Minute},
		{"45 minutes", 45 * time.Minute},
		{"90 min", 90 * time.Minute},
		{"1 hour 30 minutes", 90 * time.Minute},
		{"1 Hour and 30 Minutes", 90 * time.Minute},
		{"1 hour, 15 mins", 75 * time.Minute},
		{"2 HOURS", 2 * time.Hour},
		{"  1 hr  ", time.Hour},
		{"1h30m", 90 * time.Minute},
		{"0.25 hours", 15 * time.Minute},
		{"24 hours", 24 * time.Hour},
		{"1 minute", time.Minute},
	}
	for _, c := range ok {
		got, err := ParseDuration(c.in)
		if err != nil || got != c.want {
			t.Errorf("ParseDuration(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, in := range []string{
		"", "soon", "2", "hours", "2 days", "25 hours", "0 minutes", "-1 hour", "1e3 minutes", "inf hours",
		"NaN hours", "0x10 minutes", "1..5 hours", ".5 hours", "2 hours later", "and 2 hours", "30 seconds",
		"2 hours 2 hours 2 hours 2 hours 2 hours 2 hours 2 hours 2 hours 2 hours 2 hours", "999999999999999999999 minutes",
	} {
		if d, err := ParseDuration(in); err == nil {
			t.Errorf("ParseDuration(%q) = %v, want an error", in, d)
		}
	}
}

// FuzzParseDuration: any text either reads as a length from one minute to
// MaxDuration in whole seconds, or is refused with the one message; nothing
// panics, and a whole number of minutes written back as "N minutes" reads
// as the same length.
func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{
		"2 hours", "1.5 hours", "45 minutes", "90 min", "1 hour 30 minutes", "1h30m", "1h 30m", "2 Hours",
		"1 hour and 30 minutes", "24 hours", "24h1m", "0.01 h", "1e3 minutes", "inf hours", "0x1p4 h", ".5 h",
		"1..5 h", "and 1 h", "1 h and", "99999999999999999999 h", "1 hour,30 minutes", "\t1h", "h", "1", "",
		"1 hours 1 hours 1 hours", "59.9999 m", "0.0000001 h",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDuration(s)
		if err != nil {
			if d != 0 || !errors.Is(err, errDuration) {
				t.Fatalf("ParseDuration(%q) = %v, %v; want 0 and errDuration", s, d, err)
			}
			return
		}
		if d < time.Minute || d > MaxDuration || d%time.Second != 0 {
			t.Fatalf("ParseDuration(%q) = %v: out of range or not whole seconds", s, d)
		}
		if d%time.Minute == 0 {
			text := strconv.FormatInt(int64(d/time.Minute), 10) + " minutes"
			if back, err := ParseDuration(text); err != nil || back != d {
				t.Fatalf("ParseDuration(%q) = %v, but %q reads as %v, %v", s, d, text, back, err)
			}
		}
	})
}

func mustSpan(t *testing.T, date, clock, zone, dur string) (time.Time, time.Time) {
	t.Helper()
	start, end, err := Span(date, clock, zone, dur)
	if err != nil {
		t.Fatalf("Span(%s %s %s %s): %v", date, clock, zone, dur, err)
	}
	return start, end
}

func TestSpanAcrossDaylightSaving(t *testing.T) {
	cases := []struct {
		name                      string
		date, clock, zone, dur    string
		wantStart, wantEnd, local string
	}{
		// Clocks go from 02:00 EST to 03:00 EDT: two real hours after 01:30 EST is 04:30 EDT.
		{"new york spring forward", "2026-03-08", "01:30", "America/New_York", "2 hours",
			"2026-03-08T06:30:00Z", "2026-03-08T08:30:00Z", "04:30 EDT"},
		// 02:30 does not exist that day; it is moved forward by the gap.
		{"new york skipped time", "2026-03-08", "02:30", "America/New_York", "1 hour",
			"2026-03-08T07:30:00Z", "2026-03-08T08:30:00Z", "04:30 EDT"},
		// Clocks go from 02:00 BST back to 01:00 GMT: 00:30 BST plus two hours is 01:30 GMT.
		{"london fall back", "2026-10-25", "00:30", "Europe/London", "2 hours",
			"2026-10-24T23:30:00Z", "2026-10-25T01:30:00Z", "01:30 GMT"},
		// 01:30 happens twice that day; the first (BST) is meant.
		{"london repeated time", "2026-10-25", "01:30", "Europe/London", "90 min",
			"2026-10-25T00:30:00Z", "2026-10-25T02:00:00Z", "02:00 GMT"},
		{"plain winter day", "2026-12-03", "17:00", "America/New_York", "1.5 hours",
			"2026-12-03T22:00:00Z", "2026-12-03T23:30:00Z", "18:30 EST"},
		{"utc", "2026-06-01", "23:30", "UTC", "45 minutes",
			"2026-06-01T23:30:00Z", "2026-06-02T00:15:00Z", "00:15 UTC"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start, end := mustSpan(t, c.date, c.clock, c.zone, c.dur)
			if got := start.Format(time.RFC3339); got != c.wantStart {
				t.Errorf("start %s, want %s", got, c.wantStart)
			}
			if got := end.Format(time.RFC3339); got != c.wantEnd {
				t.Errorf("end %s, want %s", got, c.wantEnd)
			}
			loc, _ := content.LoadZone(c.zone)
			if got := end.In(loc).Format("15:04 MST"); got != c.local {
				t.Errorf("local end %s, want %s", got, c.local)
			}
		})
	}
}

func TestSpanRefusesBadInput(t *testing.T) {
	for _, c := range [][4]string{
		{"2026-02-30", "10:00", "UTC", "1 hour"},
		{"2026-03-01", "24:00", "UTC", "1 hour"},
		{"2026-03-01", "9:00", "UTC", "1 hour"},
		{"2026-03-01", "10:00", "Mars/Olympus", "1 hour"},
		{"2026-03-01", "10:00", "Local", "1 hour"},
		{"2026-03-01", "10:00", "", "1 hour"},
		{"2026-03-01", "10:00", "UTC", "a while"},
	} {
		if _, _, err := Span(c[0], c[1], c[2], c[3]); err == nil {
			t.Errorf("Span%v accepted", c)
		}
	}
}

func TestUpcomingEndsExactlyNow(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	s := &Session{EndsAt: now}
	if s.Upcoming(now) {
		t.Error("a session ending exactly now is upcoming; it belongs in the archive")
	}
	if !s.Upcoming(now.Add(-time.Nanosecond)) {
		t.Error("a session ending a moment from now is not upcoming")
	}
	in := SessionInput{Title: "Now", Date: "2026-05-01", Time: "10:00", Duration: "2 hours", Timezone: "UTC"}
	sess, err := in.validate()
	if err != nil {
		t.Fatal(err)
	}
	if !sess.EndsAt.Equal(now) || sess.View(access.Viewer{}, now).Upcoming {
		t.Errorf("ends %v, view upcoming %v", sess.EndsAt, sess.View(access.Viewer{}, now).Upcoming)
	}
}

// TestWallClockAgainstEveryOffset checks WallClock against a slow reading
// of its rule: every offset in force within two days is tried, and the
// earliest instant whose clock reads the asked time wins; in a gap, the
// offset from before the change applies. Days of clock changes (found by
// scanning each zone hour by hour) are tried at every quarter hour, in
// zones with hour, half-hour and 30-minute-DST changes and across the
// date line.
func TestWallClockAgainstEveryOffset(t *testing.T) {
	zones := []string{"America/New_York", "Europe/London", "Australia/Lord_Howe", "Asia/Kathmandu",
		"Pacific/Apia", "America/Santiago", "Africa/Casablanca", "UTC"}
	for _, name := range zones {
		loc, err := content.LoadZone(name)
		if err != nil {
			t.Fatal(err)
		}
		days := map[string]bool{"2099-01-15": true, "2026-07-01": true}
		from := time.Date(2010, 1, 1, 0, 0, 0, 0, time.UTC)
		_, prev := from.In(loc).Zone()
		for at := from; at.Year() < 2030; at = at.Add(time.Hour) {
			if _, off := at.In(loc).Zone(); off != prev {
				prev = off
				days[at.In(loc).Format(time.DateOnly)] = true
				days[at.In(loc).Add(-24*time.Hour).Format(time.DateOnly)] = true
			}
		}
		for day := range days {
			for minute := 0; minute < 24*60; minute += 15 {
				clock := fmt.Sprintf("%02d:%02d", minute/60, minute%60)
				got, err := WallClock(day, clock, loc)
				if err != nil {
					t.Fatalf("%s %s %s: %v", name, day, clock, err)
				}
				if want := slowWallClock(day, clock, loc); !got.Equal(want) {
					t.Fatalf("%s %s %s: got %s, want %s", name, day, clock, got, want)
				}
			}
		}
	}
}

func slowWallClock(date, clock string, loc *time.Location) time.Time {
	naive, _ := time.Parse("2006-01-02 15:04", date+" "+clock)
	var best time.Time
	for at := naive.Add(-48 * time.Hour); at.Before(naive.Add(48 * time.Hour)); at = at.Add(time.Hour) {
		_, off := at.In(loc).Zone()
		t := naive.Add(-time.Duration(off) * time.Second)
		if t.In(loc).Format("2006-01-02 15:04") == date+" "+clock && (best.IsZero() || t.Before(best)) {
			best = t
		}
	}
	if best.IsZero() {
		_, off := naive.Add(-36 * time.Hour).In(loc).Zone()
		best = naive.Add(-time.Duration(off) * time.Second)
	}
	return best
}

func TestWallClockRefusesMalformedReadings(t *testing.T) {
	for _, c := range [][2]string{
		{"2026-13-01", "10:00"}, {"2026-00-10", "10:00"}, {"2026-04-31", "10:00"}, {"2025-02-29", "10:00"},
		{"2026-4-01", "10:00"}, {"+2026-04-01", "10:00"}, {"2026/04/01", "10:00"}, {"2026-04-0a", "10:00"},
		{"2026-04-01", "23:60"}, {"2026-04-01", "1:00"}, {"2026-04-01", "10-00"}, {"2026-04-01", "+1:00"}, {"2026-04-01", "10:00:00"},
	} {
		if _, err := WallClock(c[0], c[1], time.UTC); err == nil {
			t.Errorf("WallClock(%q, %q) accepted", c[0], c[1])
		}
	}
	if got, err := WallClock("2024-02-29", "00:00", time.UTC); err != nil || got.Format(time.RFC3339) != "2024-02-29T00:00:00Z" {
		t.Errorf("leap day: %v %v", got, err)
	}
}
