package community

import (
	"fmt"
	"time"

	"tribe/internal/content"
)

// Session is a live group session as stored, with its computed times.
type Session struct {
	ID            string
	Title         string
	Description   string
	Tags          []string
	Date          string // YYYY-MM-DD in Timezone
	Time          string // HH:MM in Timezone
	Duration      string
	Timezone      string
	Status        string
	MaxAttendees  *int
	MeetingID     string
	Password      string
	JoinURL       string
	MeetingLink   string
	StartsAt      time.Time
	EndsAt        time.Time
	CreatedAt     time.Time
	UpdatedAt     time.Time
	scheduleError error
}

// Upcoming reports whether the session has not ended at now.
func (s *Session) Upcoming(now time.Time) bool { return s.EndsAt.After(now) }

// SessionStateEnded is the state of a session whose end has passed without
// an admin marking it completed (or cancelled).
const SessionStateEnded = "ended"

// State is what the session is at now, for people to read, where the stored
// status cannot know the time: cancelled and completed as stored; past its
// end, ended (a session that is over is never "scheduled" or "live"); between
// its start and end, live; before its start, the stored status.
func (s *Session) State(now time.Time) string {
	switch {
	case s.Status == "cancelled" || s.Status == "completed":
		return s.Status
	case !s.Upcoming(now):
		return SessionStateEnded
	case !now.Before(s.StartsAt):
		return "live"
	}
	return s.Status
}

// WallClock reads date (YYYY-MM-DD) and clock (HH:MM) as a local time in
// loc. A time skipped by a spring-forward change is moved forward by the gap
// (02:30 on that day becomes 03:30); a time that occurs twice on a fall-back
// day means its first occurrence.
func WallClock(date, clock string, loc *time.Location) (time.Time, error) {
	y, mo, day, ok := readDate(date)
	if !ok {
		return time.Time{}, fmt.Errorf("read session date %q: not YYYY-MM-DD", date)
	}
	h, mi, ok := readClock(clock)
	if !ok {
		return time.Time{}, fmt.Errorf("read session time %q: not HH:MM", clock)
	}
	// The instant t = naive - off reads h:mi in loc exactly when off is the
	// offset in force at t. Only the offsets in force around that day can
	// be, so each is tried; the earliest match wins when two do. Zone
	// lookups are what this costs (every session of a list pays it), so
	// each candidate is checked with one.
	naive := time.Date(y, mo, day, h, mi, 0, 0, time.UTC)
	_, before := naive.Add(-36 * time.Hour).In(loc).Zone()
	_, after := naive.Add(36 * time.Hour).In(loc).Zone()
	var best time.Time
	for i, off := range [2]int{before, after} {
		if i == 1 && off == before {
			break
		}
		t := naive.Add(-time.Duration(off) * time.Second)
		if _, inForce := t.In(loc).Zone(); inForce == off && (best.IsZero() || t.Before(best)) {
			best = t
		}
	}
	if best.IsZero() {
		// In a gap: keep the offset from before the change, which lands
		// the gap's length later on the new clock.
		best = naive.Add(-time.Duration(before) * time.Second)
	}
	return best.In(loc), nil
}

// readDate reads YYYY-MM-DD, refusing a day its month does not have.
func readDate(s string) (y int, m time.Month, d int, ok bool) {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return 0, 0, 0, false
	}
	y, okY := digits(s[0:4])
	mo, okM := digits(s[5:7])
	d, okD := digits(s[8:10])
	if !okY || !okM || !okD || mo < 1 || mo > 12 || d < 1 {
		return 0, 0, 0, false
	}
	// time.Date normalises 02-30 to 03-02; a day that moved did not exist.
	if _, _, got := time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC).Date(); got != d {
		return 0, 0, 0, false
	}
	return y, time.Month(mo), d, true
}

// readClock reads HH:MM on a 24-hour clock.
func readClock(s string) (h, m int, ok bool) {
	if len(s) != 5 || s[2] != ':' {
		return 0, 0, false
	}
	h, okH := digits(s[0:2])
	m, okM := digits(s[3:5])
	if !okH || !okM || h > 23 || m > 59 {
		return 0, 0, false
	}
	return h, m, true
}

// digits reads a run of ASCII digits (no sign, no spaces) as a number.
func digits(s string) (int, bool) {
	n := 0
	for i := range len(s) {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(s) > 0
}

// Span is when a session starts and ends, from its stored fields. The end is
// real elapsed time after the start, so a two-hour session across a
// daylight-saving change still lasts two hours.
func Span(date, clock, zone, duration string) (start, end time.Time, err error) {
	loc, err := content.LoadZone(zone)
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
