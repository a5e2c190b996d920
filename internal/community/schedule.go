package community

import (
	"fmt"
	"strings"
	"sync"
	"time"
)

// LoadZone resolves an IANA time-zone name. "Local" and the empty name are
// refused: a session's time must not depend on the server's own zone.
func LoadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" || strings.ContainsAny(name, " \\") {
		return nil, fmt.Errorf("unknown time zone %q", name)
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location), nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("unknown time zone %q: %w", name, err)
	}
	zones.Store(name, loc)
	return loc, nil
}

// zones remembers loaded time zones. time.LoadLocation unpacks the zone from
// the embedded database on every call (a third of a session list's time);
// its answer cannot change while the binary runs, so keeping it is safe.
// Only names that loaded are kept, so the map holds at most the IANA zones.
var zones sync.Map // name -> *time.Location

// WallClock reads date (YYYY-MM-DD) and clock (HH:MM) as a local time in
// loc. A time skipped by a spring-forward change is moved forward by the gap
// (02:30 on that day becomes 03:30); a time that occurs twice on a fall-back
// day means its first occurrence.
func WallClock(date, clock string, loc *time.Location) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, date)
	if err != nil || len(date) != 10 {
		return time.Time{}, fmt.Errorf("read session date %q: not YYYY-MM-DD", date)
	}
	c, err := time.Parse("15:04", clock)
	if err != nil || len(clock) != 5 {
		return time.Time{}, fmt.Errorf("read session time %q: not HH:MM", clock)
	}
	y, mo, day := d.Date()
	h, mi := c.Hour(), c.Minute()
	// Try both offsets in force around that day: the instant whose local
	// clock reads h:mi in loc is the answer; the earliest when two match.
	naive := time.Date(y, mo, day, h, mi, 0, 0, time.UTC)
	var best time.Time
	for _, probe := range []time.Time{naive.Add(-36 * time.Hour), naive.Add(36 * time.Hour)} {
		_, off := probe.In(loc).Zone()
		t := naive.Add(-time.Duration(off) * time.Second).In(loc)
		if t.Hour() == h && t.Minute() == mi && t.Day() == day {
			if best.IsZero() || t.Before(best) {
				best = t
			}
		}
	}
	if best.IsZero() {
		// In a gap: keep the offset from before the change, which lands
		// the gap's length later on the new clock.
		_, off := naive.Add(-36 * time.Hour).In(loc).Zone()
		best = naive.Add(-time.Duration(off) * time.Second).In(loc)
	}
	return best, nil
}

// Span is when a session starts and ends, from its stored fields. The end is
// real elapsed time after the start, so a two-hour session across a
// daylight-saving change still lasts two hours.
func Span(date, clock, zone, duration string) (start, end time.Time, err error) {
	loc, err := LoadZone(zone)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	start, err = WallClock(date, clock, loc)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	d, err := ParseDuration(duration)
	if err != nil {
		return time.Time{}, time.Time{}, fmt.Errorf("read session duration %q: %w", duration, err)
	}
	return start.UTC(), start.Add(d).UTC(), nil
}
