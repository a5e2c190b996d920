package booking

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	ics "github.com/arran4/golang-ical"
	"github.com/teambition/rrule-go"

	"tribe/internal/content"
)

// The owner's own calendars are read from iCalendar files (RFC 5545) as
// published by Google Calendar, Outlook and iCloud. Parsing is
// golang-ical's; recurrence is rrule-go's. What is ours is the reading of
// times (the TZID of each value, a VTIMEZONE definition when the name is not
// an IANA zone) and the rules of what blocks: every event blocks its time
// unless it is transparent or cancelled, all-day events block their dates in
// the calendar's zone, and a recurring series is expanded with its EXDATEs
// and its RECURRENCE-ID overrides (a moved or cancelled occurrence).
//
// Recurrences are expanded on wall-clock readings (a "floating" time held in
// UTC) and each reading is then placed in its zone, so a weekly 10:00
// meeting stays at 10:00 on both sides of a daylight-saving change.

// maxOccurrences bounds the expansion of one series, so a feed with a
// minutely rule from decades ago costs bounded work instead of the fetch.
const maxOccurrences = 200000

// zone turns a wall-clock reading (its fields, held in UTC) into an instant.
type zone interface {
	instant(wall time.Time) time.Time
}

// ianaZone is a zone the Go time-zone database knows.
type ianaZone struct{ loc *time.Location }

func (z ianaZone) instant(w time.Time) time.Time {
	return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, z.loc)
}

// definedZone is a zone known only from a VTIMEZONE of the feed (Outlook
// names its zones "W. Europe Standard Time" and defines them there): its
// changes of offset over the years the feed needs.
type definedZone struct {
	initial int          // the offset before the first change, in seconds
	changes []zoneChange // in time order
}

type zoneChange struct {
	at time.Time // the instant of the change
	to int       // the offset from then on, in seconds
}

func (z *definedZone) instant(w time.Time) time.Time {
	off := z.initial
	for _, c := range z.changes {
		if w.Add(-time.Duration(c.to) * time.Second).Before(c.at) {
			break
		}
		off = c.to
	}
	return w.Add(-time.Duration(off) * time.Second)
}

// parseOffset reads a UTC offset written ±HHMM or ±HHMMSS.
func parseOffset(s string) (int, error) {
	s = strings.TrimSpace(s)
	if len(s) != 5 && len(s) != 7 || (s[0] != '+' && s[0] != '-') {
		return 0, fmt.Errorf("bad UTC offset %q", s)
	}
	n := 0
	for i, unit := range []int{3600, 60, 1} {
		if 1+2*i+2 > len(s) {
			break
		}
		v, err := strconv.Atoi(s[1+2*i : 3+2*i])
		if err != nil {
			return 0, fmt.Errorf("bad UTC offset %q", s)
		}
		n += v * unit
	}
	if s[0] == '-' {
		n = -n
	}
	return n, nil
}

// defineZone builds a zone from a VTIMEZONE's STANDARD and DAYLIGHT
// observances, with their changes up to until.
func defineZone(tz *ics.VTimezone, until time.Time) (*definedZone, error) {
	z := &definedZone{}
	first := time.Time{}
	for _, c := range tz.Components {
		var base *ics.ComponentBase
		switch o := c.(type) {
		case *ics.Standard:
			base = &o.ComponentBase
		case *ics.Daylight:
			base = &o.ComponentBase
		default:
			continue
		}
		from, err := parseOffset(propValue(base, ics.ComponentProperty(ics.PropertyTzoffsetfrom)))
		if err != nil {
			return nil, err
		}
		to, err := parseOffset(propValue(base, ics.ComponentProperty(ics.PropertyTzoffsetto)))
		if err != nil {
			return nil, err
		}
		start, _, err := parseWall(propValue(base, ics.ComponentPropertyDtStart))
		if err != nil {
			return nil, err
		}
		if first.IsZero() || start.Before(first) {
			first, z.initial = start, from
		}
		starts := []time.Time{start}
		for _, p := range base.GetProperties(ics.ComponentPropertyRrule) {
			// Zones are defined from long ago (Outlook writes 1601), and the
			// recurrence library cannot count more than 292 years: start
			// a yearly rule without a COUNT a few years before it matters.
			from := start
			if y := until.Year() - 10; from.Year() < y && !strings.Contains(strings.ToUpper(p.Value), "COUNT=") {
				from = time.Date(y, from.Month(), from.Day(), from.Hour(), from.Minute(), from.Second(), 0, time.UTC)
			}
			occ, err := expandRule(p.Value, from, time.Time{}, until)
			if err != nil {
				return nil, err
			}
			starts = append(starts, occ...)
		}
		for _, p := range base.GetProperties(ics.ComponentPropertyRdate) {
			for _, v := range strings.Split(p.Value, ",") {
				if w, _, err := parseWall(v); err == nil {
					starts = append(starts, w)
				}
			}
		}
		for _, w := range starts {
			// The change happens at a reading of the clock before it.
			z.changes = append(z.changes, zoneChange{at: w.Add(-time.Duration(from) * time.Second), to: to})
		}
	}
	if first.IsZero() {
		return nil, errors.New("time zone defines no observance")
	}
	sortChanges(z.changes)
	return z, nil
}

func sortChanges(c []zoneChange) {
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j].at.Before(c[j-1].at); j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}

// parseWall reads a DATE or DATE-TIME value as a wall-clock reading held in
// UTC; utc is true for a time written with Z, which is an instant already.
func parseWall(v string) (wall time.Time, utc bool, err error) {
	v = strings.TrimSpace(v)
	switch {
	case len(v) == 8:
		wall, err = time.Parse("20060102", v)
	case len(v) == 15:
		wall, err = time.Parse("20060102T150405", v)
	case len(v) == 16 && (v[15] == 'Z' || v[15] == 'z'):
		wall, err = time.Parse("20060102T150405", v[:15])
		utc = true
	default:
		err = fmt.Errorf("bad date-time %q", v)
	}
	return wall, utc, err
}

// expandRule lists the starts of an RRULE from dtstart (a wall reading)
// that fall in [from, until], dtstart included when the rule yields it.
func expandRule(rule string, dtstart, from, until time.Time) ([]time.Time, error) {
	opt, err := rrule.StrToROptionInLocation(strings.TrimPrefix(strings.TrimSpace(rule), "RRULE:"), time.UTC)
	if err != nil {
		return nil, fmt.Errorf("read RRULE %q: %w", rule, err)
	}
	opt.Dtstart = dtstart
	r, err := rrule.NewRRule(*opt)
	if err != nil {
		return nil, fmt.Errorf("read RRULE %q: %w", rule, err)
	}
	var out []time.Time
	next := r.Iterator()
	for range maxOccurrences {
		t, ok := next()
		if !ok || t.After(until) {
			return out, nil
		}
		if !t.Before(from) {
			out = append(out, t)
		}
	}
	return nil, fmt.Errorf("RRULE %q repeats too often", rule)
}

func propValue(c *ics.ComponentBase, p ics.ComponentProperty) string {
	if prop := c.GetProperty(p); prop != nil {
		return prop.Value
	}
	return ""
}

// feedReader reads the times of one feed.
type feedReader struct {
	calZone zone            // the calendar's zone: floating times and all-day dates
	zones   map[string]zone // by TZID
	// The wanted time widened by two days each side, as readings: no
	// zone is that far from UTC.
	wallLo, wallHi time.Time
}

// value is one read DATE or DATE-TIME: an instant, or for a DATE a date.
type value struct {
	at     time.Time // the instant (for a DATE: midnight of the date in the calendar's zone)
	wall   time.Time // the reading in its own zone, held in UTC
	zone   zone      // nil when the value was written in UTC
	allDay bool
}

func (f *feedReader) zoneOf(p *ics.IANAProperty) zone {
	if id, ok := p.ICalParameters[string(ics.ParameterTzid)]; ok && len(id) == 1 {
		name := strings.Trim(id[0], `"`)
		if z, ok := f.zones[name]; ok {
			return z
		}
		if loc, err := content.LoadZone(name); err == nil {
			z := ianaZone{loc}
			f.zones[name] = z
			return z
		}
	}
	return f.calZone
}

// read reads a property holding one date or date-time.
func (f *feedReader) read(p *ics.IANAProperty) (value, error) {
	if p == nil {
		return value{}, errors.New("missing")
	}
	return f.readOne(p, p.Value)
}

func (f *feedReader) readOne(p *ics.IANAProperty, v string) (value, error) {
	wall, utc, err := parseWall(v)
	if err != nil {
		return value{}, err
	}
	if utc {
		return value{at: wall, wall: wall}, nil
	}
	allDay := len(strings.TrimSpace(v)) == 8
	z := f.zoneOf(p)
	if allDay {
		// A date is a day of the calendar's zone, whatever zone it names.
		z = f.calZone
	}
	return value{at: z.instant(wall), wall: wall, zone: z, allDay: allDay}, nil
}

// readAll reads a property that may hold a comma-separated list (EXDATE).
func (f *feedReader) readAll(p *ics.IANAProperty) []value {
	var out []value
	for _, v := range strings.Split(p.Value, ",") {
		if x, err := f.readOne(p, v); err == nil {
			out = append(out, x)
		}
	}
	return out
}

// parseDuration reads an iCalendar DURATION (RFC 5545 3.3.6).
func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimLeft(s, "+-")
	if !strings.HasPrefix(s, "P") || len(s) < 3 {
		return 0, fmt.Errorf("bad duration %q", s)
	}
	var d time.Duration
	inTime := false
	num := ""
	for _, r := range s[1:] {
		switch {
		case r >= '0' && r <= '9':
			num += string(r)
		case r == 'T':
			inTime = true
		default:
			n, err := strconv.Atoi(num)
			if err != nil {
				return 0, fmt.Errorf("bad duration %q", s)
			}
			num = ""
			unit := map[rune]time.Duration{'W': 7 * 24 * time.Hour, 'D': 24 * time.Hour, 'H': time.Hour, 'M': time.Minute, 'S': time.Second}[r]
			if unit == 0 || (r == 'M' && !inTime) {
				return 0, fmt.Errorf("bad duration %q", s)
			}
			d += time.Duration(n) * unit
		}
	}
	if num != "" {
		return 0, fmt.Errorf("bad duration %q", s)
	}
	if neg {
		d = -d
	}
	return d, nil
}

// occurrence is one instance of an event: its start and end instants.
type occurrence struct{ start, end time.Time }

// eventLength is how long each instance of an event lasts: DTEND - DTSTART
// on the clock (so an all-day event of one date lasts that date, whatever
// its length in hours), or DURATION, or by RFC 5545's default one day for a
// date and nothing for a date-time.
type eventLength struct {
	days int           // whole dates (all-day events)
	dur  time.Duration // elapsed time
	wall time.Duration // on the clock of the start's zone
}

// span is at most how long an instance lasts, so the expansion starts early
// enough to catch one begun before the window that is still running in it.
func (l eventLength) span() time.Duration {
	return time.Duration(l.days)*24*time.Hour + l.dur + l.wall + 2*time.Hour
}

func (f *feedReader) length(e *ics.VEvent, start value) eventLength {
	if p := e.GetProperty(ics.ComponentPropertyDtEnd); p != nil {
		if end, err := f.read(p); err == nil {
			if start.allDay {
				return eventLength{days: max(int(end.wall.Sub(start.wall).Hours()/24), 1)}
			}
			if end.zone != nil && start.zone != nil && end.zone == start.zone {
				return eventLength{wall: end.wall.Sub(start.wall)}
			}
			return eventLength{dur: end.at.Sub(start.at)}
		}
	}
	if p := e.GetProperty(ics.ComponentPropertyDuration); p != nil {
		if d, err := parseDuration(p.Value); err == nil {
			if start.allDay {
				return eventLength{days: max(int(d.Hours()/24), 1)}
			}
			return eventLength{dur: d}
		}
	}
	if start.allDay {
		return eventLength{days: 1}
	}
	return eventLength{}
}

// place is the occurrence of an event that starts at wall reading w (in the
// start's zone; for a UTC start, w is the instant).
func (f *feedReader) place(start value, l eventLength, w time.Time) occurrence {
	if start.zone == nil {
		return occurrence{w, w.Add(l.dur)}
	}
	from := start.zone.instant(w)
	switch {
	case l.days > 0:
		return occurrence{from, f.calZone.instant(w.AddDate(0, 0, l.days))}
	case l.wall != 0:
		return occurrence{from, start.zone.instant(w.Add(l.wall))}
	}
	return occurrence{from, from.Add(l.dur)}
}

// blocks reports whether an event takes the owner's time: not when it is
// marked free (TRANSP:TRANSPARENT) or cancelled.
func blocks(e *ics.VEvent) bool {
	if strings.EqualFold(strings.TrimSpace(propValue(&e.ComponentBase, ics.ComponentPropertyTransp)), "TRANSPARENT") {
		return false
	}
	return !strings.EqualFold(strings.TrimSpace(propValue(&e.ComponentBase, ics.ComponentPropertyStatus)), "CANCELLED")
}

// recurrenceKey names an instance of a series: its UID and original start.
func recurrenceKey(uid string, at time.Time) string {
	return uid + "\x00" + at.UTC().Format(time.RFC3339)
}

// expandBusy reads an iCalendar file and lists the busy intervals that
// touch [lo, hi), merged, and how many events it read. defaultZone is the
// owner's, for a feed that names no zone of its own.
func expandBusy(data []byte, defaultZone *time.Location, lo, hi time.Time) ([]span, int, error) {
	cal, err := ics.ParseCalendarWithOptions(bytes.NewReader(data), ics.WithUnknownPropertyHandler(ics.AcceptUnknownPropertyHandler))
	if err != nil {
		return nil, 0, fmt.Errorf("not an iCalendar file: %w", err)
	}
	f := &feedReader{calZone: ianaZone{defaultZone}, zones: map[string]zone{},
		wallLo: lo.UTC().Add(-48 * time.Hour), wallHi: hi.UTC().Add(48 * time.Hour)}
	for _, p := range cal.CalendarProperties {
		if p.IANAToken == "X-WR-TIMEZONE" {
			if loc, err := content.LoadZone(strings.TrimSpace(p.Value)); err == nil {
				f.calZone = ianaZone{loc}
			}
		}
	}
	for _, tz := range cal.Timezones() {
		id := strings.TrimSpace(propValue(&tz.ComponentBase, ics.ComponentPropertyTzid))
		if id == "" {
			continue
		}
		if loc, err := content.LoadZone(id); err == nil {
			f.zones[id] = ianaZone{loc}
			continue
		}
		if z, err := defineZone(tz, f.wallHi); err == nil {
			f.zones[id] = z
		}
	}

	// Overrides first: a RECURRENCE-ID instance replaces the series'
	// instance it names, whether it moves it, changes it or cancels it.
	events := cal.Events()
	replaced := map[string]bool{}
	for _, e := range events {
		rid := e.GetProperty(ics.ComponentPropertyRecurrenceId)
		if rid == nil {
			continue
		}
		if v, err := f.read(rid); err == nil {
			replaced[recurrenceKey(e.Id(), v.at)] = true
		}
	}

	var busy []span
	add := func(o occurrence) {
		if o.end.After(o.start) && o.end.After(lo) && o.start.Before(hi) {
			busy = append(busy, span{o.start, o.end})
		}
	}
	for _, e := range events {
		start, err := f.read(e.GetProperty(ics.ComponentPropertyDtStart))
		if err != nil {
			continue
		}
		isOverride := e.HasProperty(ics.ComponentPropertyRecurrenceId)
		if !blocks(e) {
			continue
		}
		l := f.length(e, start)
		rules := e.GetProperties(ics.ComponentPropertyRrule)
		rdates := e.GetProperties(ics.ComponentPropertyRdate)
		if isOverride || (len(rules) == 0 && len(rdates) == 0) {
			add(f.place(start, l, start.wall))
			continue
		}
		// The series' instants less its EXDATEs and overridden instances.
		skip := map[string]bool{}
		for _, p := range e.GetProperties(ics.ComponentPropertyExdate) {
			for _, v := range f.readAll(p) {
				skip[recurrenceKey("", v.at)] = true
			}
		}
		walls := []time.Time{start.wall}
		for _, p := range rules {
			occ, err := expandRule(p.Value, start.wall, f.wallLo.Add(-l.span()), f.wallHi)
			if err != nil {
				continue
			}
			walls = append(walls, occ...)
		}
		for _, p := range rdates {
			for _, v := range f.readAll(p) {
				if start.zone == nil {
					walls = append(walls, v.at)
				} else {
					walls = append(walls, v.wall)
				}
			}
		}
		seen := map[time.Time]bool{}
		for _, w := range walls {
			if seen[w] {
				continue
			}
			seen[w] = true
			o := f.place(start, l, w)
			if skip[recurrenceKey("", o.start)] || replaced[recurrenceKey(e.Id(), o.start)] {
				continue
			}
			add(o)
		}
	}
	return merge(busy), len(events), nil
}
