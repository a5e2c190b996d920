package booking

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/teambition/rrule-go"

	"tribe/internal/content"
	"tribe/internal/ical"
)

// The owner's own calendars are read from iCalendar files (RFC 5545) as
// published by Google Calendar, Outlook, iCloud and Thunderbird, with the
// busy time calendar software (and python-recurring-ical-events, the
// reference) would show. The content lines are read by internal/ical, which
// skips a component it cannot read instead of failing the file; recurrence
// rules are expanded by rrule-go. What is ours is the reading of times (the
// TZID of each value: an IANA zone, a Windows zone id, a libical-prefixed
// name, or a VTIMEZONE definition), the rules of what blocks (every event
// unless transparent or cancelled; all-day events over their dates in the
// calendar's zone), and a series' instances: RRULE, RDATE (dates and
// periods), EXDATE, RECURRENCE-ID overrides (one instance, or with
// RANGE=THISANDFUTURE every later one), and of two versions of one instance
// the one with the higher SEQUENCE, then the later DTSTAMP.
//
// Recurrences are expanded on wall-clock readings (a "floating" time held in
// UTC) and each reading is then placed in its zone, so a weekly 10:00
// meeting stays at 10:00 on both sides of a daylight-saving change.
//
// A feed is also a stranger's file the server reads: every cost is capped
// (feedLimits) and what a cap leaves out is told on the calendar's status,
// never silently dropped and never guessed.

// feedLimits bounds what reading one feed may cost.
type feedLimits struct {
	maxBusy       int           // busy intervals one feed may give
	maxInWindow   int           // instances of one series inside the window
	maxSteps      int           // instances one series may run through to reach the window
	maxDepth      int           // nesting of components
	maxComponents int           // components in the file
	maxZoneSteps  int           // changes of offset one VTIMEZONE may define
	maxZones      int           // VTIMEZONE definitions one feed may have built
	budget        time.Duration // processor time for the whole expansion
}

// defaultFeedLimits: a real calendar stays far inside each (a busy owner
// has a few thousand busy intervals in a 60-day window; a meeting every 15
// minutes of every day is 5,760 instances in that window).
var defaultFeedLimits = feedLimits{
	maxBusy: 20000, maxInWindow: 6000, maxSteps: 50000,
	maxDepth: 12, maxComponents: 50000, maxZoneSteps: 100000, maxZones: 50,
	budget: 3 * time.Second,
}

// feedReport is what a read found besides busy time, for the owner.
type feedReport struct {
	Events int // events read (series, single events and overrides)
	// Skipped counts the components that could not be read or placed.
	Skipped int
	// Notes are short sentences on what was left out or reduced; empty
	// when the whole feed was read as written.
	Notes []string
}

// zone turns a wall-clock reading (its fields, held in UTC) into an instant
// and back.
type zone interface {
	instant(wall time.Time) time.Time
	wallOf(at time.Time) time.Time
}

// ianaZone is a zone the Go time-zone database knows.
type ianaZone struct{ loc *time.Location }

func (z ianaZone) instant(w time.Time) time.Time {
	return placeWall(z, func(at time.Time) int { _, off := at.In(z.loc).Zone(); return off }, w)
}

// placeWall is the instant a wall reading names in zone z, whose offset at
// an instant offsetAt gives, by RFC 5545 §3.3.5: of two instants that read
// w (the hour an autumn change repeats), the first; a reading a spring
// change skips, with the offset in force before the gap. (Go's time.Date
// leaves both choices unspecified.) No zone's offset exceeds 14 hours, so
// the offsets 26 hours either side of w are those before and after any
// change that can make w ambiguous or missing.
func placeWall(z zone, offsetAt func(time.Time) int, w time.Time) time.Time {
	before := w.Add(-time.Duration(offsetAt(w.Add(-26*time.Hour))) * time.Second)
	after := w.Add(-time.Duration(offsetAt(w.Add(26*time.Hour))) * time.Second)
	okBefore, okAfter := z.wallOf(before).Equal(w), z.wallOf(after).Equal(w)
	switch {
	case okBefore && okAfter:
		if after.Before(before) {
			return after
		}
		return before
	case okAfter:
		return after
	}
	return before
}

func (z ianaZone) wallOf(at time.Time) time.Time {
	l := at.In(z.loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), 0, time.UTC)
}

// definedZone is a zone known only from a VTIMEZONE of the feed: its
// changes of offset over the years the feed needs, in time order, looked
// up by binary search (a zone of 60,000 changes costs a sort, not a scan
// per reading).
type definedZone struct {
	initial int          // the offset before the first change, in seconds
	changes []zoneChange // in time order
}

type zoneChange struct {
	at time.Time // the instant of the change
	to int       // the offset from then on, in seconds
}

// offsetAt is the offset in force at an instant.
func (z *definedZone) offsetAt(at time.Time) int {
	i := sort.Search(len(z.changes), func(i int) bool { return z.changes[i].at.After(at) })
	if i == 0 {
		return z.initial
	}
	return z.changes[i-1].to
}

func (z *definedZone) instant(w time.Time) time.Time { return placeWall(z, z.offsetAt, w) }

func (z *definedZone) wallOf(at time.Time) time.Time {
	return at.UTC().Add(time.Duration(z.offsetAt(at)) * time.Second)
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
func defineZone(tz *ical.Component, until time.Time, lim feedLimits, deadline time.Time) (*definedZone, error) {
	z := &definedZone{}
	first := time.Time{}
	for _, o := range tz.Components {
		if o.Name != "STANDARD" && o.Name != "DAYLIGHT" {
			continue
		}
		from, err := parseOffset(propValue(o, "TZOFFSETFROM"))
		if err != nil {
			return nil, err
		}
		to, err := parseOffset(propValue(o, "TZOFFSETTO"))
		if err != nil {
			return nil, err
		}
		start, _, err := parseWall(propValue(o, "DTSTART"))
		if err != nil {
			return nil, err
		}
		if first.IsZero() || start.Before(first) {
			first, z.initial = start, from
		}
		starts := []time.Time{start}
		for _, p := range o.All("RRULE") {
			// Zones are defined from long ago (Outlook writes 1601), and the
			// recurrence library cannot count more than 292 years: start
			// a yearly rule without a COUNT a few years before it matters.
			from := start
			if y := until.Year() - 10; from.Year() < y && !strings.Contains(strings.ToUpper(p.Value), "COUNT=") {
				from = time.Date(y, from.Month(), from.Day(), from.Hour(), from.Minute(), from.Second(), 0, time.UTC)
			}
			r, err := newRule(p.Value, from, time.Time{}, false, until)
			if err != nil {
				return nil, err
			}
			occ, err := r.between(time.Time{}, until, lim.maxZoneSteps, lim.maxZoneSteps, deadline)
			if err != nil {
				return nil, err
			}
			starts = append(starts, occ...)
		}
		for _, p := range o.All("RDATE") {
			for v := range strings.SplitSeq(p.Value, ",") {
				if w, _, err := parseWall(v); err == nil {
					starts = append(starts, w)
				}
			}
		}
		for _, w := range starts {
			// The change happens at a reading of the clock before it.
			z.changes = append(z.changes, zoneChange{at: w.Add(-time.Duration(from) * time.Second), to: to})
		}
		if len(z.changes) > lim.maxZoneSteps {
			return nil, errors.New("time zone defines too many changes")
		}
	}
	if first.IsZero() {
		return nil, errors.New("time zone defines no observance")
	}
	slices.SortStableFunc(z.changes, func(a, b zoneChange) int { return a.at.Compare(b.at) })
	return z, nil
}

// parseWall reads a DATE or DATE-TIME value as a wall-clock reading held in
// UTC; utc is true for a time written with Z, which is an instant already.
func parseWall(v string) (wall time.Time, utc bool, err error) {
	v = strings.TrimSpace(v)
	switch {
	case len(v) == 8, len(v) == 9 && (v[8] == 'Z' || v[8] == 'z'):
		// A date; Google's birthday calendar writes some with a Z.
		wall, err = time.Parse("20060102", v[:8])
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

// errRepeatsTooOften is a series beyond the caps of feedLimits.
var errRepeatsTooOften = errors.New("repeats too often")

// errOutOfTime is an expansion past the feed's budget.
var errOutOfTime = errors.New("out of time")

// rule is one RRULE ready to expand from its DTSTART.
type rule struct {
	r *rrule.RRule
}

// newRule reads an RRULE for a series starting at dtstart (a wall reading).
// untilWall, when haveUntil, is the rule's UNTIL already read as a wall
// reading of the series' zone (see untilOf); the rule's own UNTIL is then
// ignored. horizon is the last reading wanted: the rule ends there (the
// library would otherwise end a rule without UNTIL 292 years after its
// start, and a series begun in 1601 would have no instance today).
func newRule(text string, dtstart, untilWall time.Time, haveUntil bool, horizon time.Time) (*rule, error) {
	var parts []string
	for part := range strings.SplitSeq(strings.TrimPrefix(strings.TrimSpace(text), "RRULE:"), ";") {
		k, v, _ := strings.Cut(part, "=")
		k = strings.ToUpper(strings.TrimSpace(k))
		// Outlook writes BYDAY=MO, TU, WE: the spaces mean nothing.
		v = strings.ReplaceAll(v, " ", "")
		switch {
		case k == "":
			continue
		case k == "RSCALE" && strings.EqualFold(v, "GREGORIAN"), k == "SKIP":
			// RFC 7529: the Gregorian scale is ours already; SKIP differs
			// from RFC 5545's reading only for dates a month lacks.
			continue
		case k == "UNTIL" && haveUntil:
			continue
		case k == "COUNT" && strings.HasPrefix(strings.TrimSpace(v), "-"):
			// A negative COUNT (seen in the wild) means no count.
			continue
		}
		parts = append(parts, k+"="+v)
	}
	opt, err := rrule.StrToROptionInLocation(strings.Join(parts, ";"), time.UTC)
	if err != nil {
		return nil, fmt.Errorf("read RRULE %q: %w", text, err)
	}
	opt.Until = horizon
	if haveUntil && untilWall.Before(horizon) {
		opt.Until = untilWall
	}
	opt.Dtstart = dtstart
	r, err := rrule.NewRRule(*opt)
	if err != nil {
		return nil, fmt.Errorf("read RRULE %q: %w", text, err)
	}
	return &rule{r: r}, nil
}

// period is how far apart a rule's periods are, when whole periods can be
// skipped without changing its instances (no COUNT, a fixed-length period).
func (r *rule) period() time.Duration {
	o := r.r.OrigOptions
	if o.Count != 0 {
		return 0
	}
	n := time.Duration(max(o.Interval, 1))
	switch o.Freq {
	case rrule.SECONDLY:
		return n * time.Second
	case rrule.MINUTELY:
		return n * time.Minute
	case rrule.HOURLY:
		return n * time.Hour
	case rrule.DAILY:
		return n * 24 * time.Hour
	case rrule.WEEKLY:
		return n * 7 * 24 * time.Hour
	}
	return 0
}

// between lists the rule's instants in [from, until]: at most inWindow of
// them, after running through at most steps before from; past either, or
// past the deadline (when not zero), it is errRepeatsTooOften/errOutOfTime.
func (r *rule) between(from, until time.Time, inWindow, steps int, deadline time.Time) ([]time.Time, error) {
	// A frequent rule without a COUNT begun long ago would run through
	// every instance since: start it instead a whole number of periods
	// later, just before it matters, which gives the same instances.
	if p := r.period(); p > 0 && !from.IsZero() {
		start := r.r.GetDTStart()
		if gap := from.Sub(start); gap > 2*p {
			skip := (gap/p - 1) * p
			r.r.DTStart(start.Add(skip))
		}
	}
	var out []time.Time
	next := r.r.Iterator()
	for n := 0; ; n++ {
		if n%64 == 63 && !deadline.IsZero() && time.Now().After(deadline) {
			return nil, errOutOfTime
		}
		t, ok := next()
		if !ok || t.After(until) {
			return out, nil
		}
		if t.Before(from) {
			if steps--; steps < 0 {
				return nil, errRepeatsTooOften
			}
			continue
		}
		if len(out) >= inWindow {
			return nil, errRepeatsTooOften
		}
		out = append(out, t)
	}
}

func propValue(c *ical.Component, name string) string {
	if p := c.Prop(name); p != nil {
		return p.Value
	}
	return ""
}

// feedReader reads the times of one feed.
type feedReader struct {
	calZone zone                       // the calendar's zone: floating times and all-day dates
	zones   map[string]zone            // by cleaned TZID; nil for one found unknown
	defs    map[string]*ical.Component // the feed's VTIMEZONEs by cleaned TZID
	lim     feedLimits
	// The wanted time widened by two days each side, as readings: no
	// zone is that far from UTC.
	wallLo, wallHi time.Time
	deadline       time.Time
	outOfTime      bool // a zone's definition ran past the deadline
	built          int  // VTIMEZONE definitions built
	looked         int  // zone names looked up
}

// value is one read DATE or DATE-TIME: an instant, or for a DATE a date.
type value struct {
	at       time.Time // the instant (for a DATE: midnight of the date in the calendar's zone)
	wall     time.Time // the reading in its own zone, held in UTC
	zone     zone      // nil when the value was written in UTC
	allDay   bool
	floating bool // a DATE-TIME with neither Z nor TZID
}

// unknownZoneError is a TZID no rule of zoneNamed could place.
type unknownZoneError struct{ name string }

func (e unknownZoneError) Error() string { return "unknown time zone " + e.name }

// cleanTZID is a TZID as it is looked up: without the quotes, spaces and
// invisible characters exports leave around it.
func cleanTZID(id string) string {
	id = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\u200b' || r == '\ufeff' || r == '\u00a0' {
			return -1
		}
		return r
	}, id)
	return strings.Trim(id, " \"'")
}

// zoneNamed places a TZID: an IANA zone; the feed's own VTIMEZONE of that
// name; a Windows zone id (through CLDR's table); a libical name such as
// /freeassociation.sourceforge.net/Tzfile/Europe/London,
// /mozilla.org/20070129_1/America/New_York or /Europe/Stockholm (its IANA
// tail). Anything else
// is an unknownZoneError: never the owner's zone, which would be hours off.
func (f *feedReader) zoneNamed(raw string) (zone, error) {
	id := cleanTZID(raw)
	if z, ok := f.zones[id]; ok {
		if z == nil {
			if f.outOfTime {
				return nil, errOutOfTime
			}
			return nil, unknownZoneError{id}
		}
		return z, nil
	}
	z := f.lookupZone(id)
	f.zones[id] = z
	if z == nil {
		if f.outOfTime {
			return nil, errOutOfTime
		}
		return nil, unknownZoneError{id}
	}
	return z, nil
}

func (f *feedReader) lookupZone(id string) zone {
	// Looking a name up reads the time-zone database: a feed naming
	// thousands of zones gets the first maxZones*4 looked up.
	if f.looked++; id == "" || f.looked > 4*f.lim.maxZones {
		return nil
	}
	if loc, err := content.LoadZone(id); err == nil {
		return ianaZone{loc}
	}
	if def, ok := f.defs[id]; ok && f.built < f.lim.maxZones {
		// Each definition costs its rules' expansion: a feed of
		// thousands of zones of its own is hostile, and past the cap its
		// zones are unknown (and said so).
		f.built++
		z, err := defineZone(def, f.wallHi, f.lim, f.deadline)
		if err == nil {
			return z
		}
		if errors.Is(err, errOutOfTime) {
			f.outOfTime = true
		}
	}
	if name, ok := ical.WindowsZone(id); ok {
		if loc, err := content.LoadZone(name); err == nil {
			return ianaZone{loc}
		}
	}
	if strings.HasPrefix(id, "/") {
		segs := strings.Split(strings.Trim(id, "/"), "/")
		for i := range segs {
			if loc, err := content.LoadZone(strings.Join(segs[i:], "/")); err == nil {
				return ianaZone{loc}
			}
		}
	}
	return nil
}

// read reads a property holding one date or date-time.
func (f *feedReader) read(p *ical.Property) (value, error) {
	if p == nil {
		return value{}, errors.New("missing")
	}
	return f.readOne(p, p.Value)
}

func (f *feedReader) readOne(p *ical.Property, v string) (value, error) {
	wall, utc, err := parseWall(v)
	if err != nil {
		return value{}, err
	}
	if utc {
		return value{at: wall, wall: wall}, nil
	}
	if len(strings.TrimRight(strings.TrimSpace(v), "Zz")) == 8 {
		// A date is a day of the calendar's zone, whatever zone it names.
		return value{at: f.calZone.instant(wall), wall: wall, zone: f.calZone, allDay: true}, nil
	}
	if id := p.Param("TZID"); id != "" {
		z, err := f.zoneNamed(id)
		if err != nil {
			return value{}, err
		}
		return value{at: z.instant(wall), wall: wall, zone: z}, nil
	}
	return value{at: f.calZone.instant(wall), wall: wall, zone: f.calZone, floating: true}, nil
}

// readList reads a property that may hold a comma-separated list (EXDATE,
// RDATE); an RDATE period (start/end or start/duration) gives its length.
func (f *feedReader) readList(p *ical.Property) ([]value, []time.Duration, error) {
	var (
		out  []value
		lens []time.Duration
	)
	for v := range strings.SplitSeq(p.Value, ",") {
		if strings.TrimSpace(v) == "" {
			continue
		}
		startText, endText, isPeriod := strings.Cut(v, "/")
		x, err := f.readOne(p, startText)
		var uz unknownZoneError
		if errors.As(err, &uz) || errors.Is(err, errOutOfTime) {
			return nil, nil, err
		}
		if err != nil {
			continue // one unreadable date of a list costs only itself
		}
		var l time.Duration
		if isPeriod {
			if d, err := parseDuration(endText); err == nil {
				l = d
			} else if end, err := f.readOne(p, endText); err == nil {
				l = end.at.Sub(x.at)
			} else {
				return nil, nil, fmt.Errorf("bad period %q", v)
			}
			if l <= 0 {
				return nil, nil, fmt.Errorf("bad period %q", v)
			}
		}
		out = append(out, x)
		lens = append(lens, l)
	}
	return out, lens, nil
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
			if err != nil || n > 1e6 {
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

// eventLength is how long each instance of an event lasts: for dates, the
// dates DTEND - DTSTART spans (so an all-day event of one date lasts that
// date, whatever its length in hours); for date-times the exact time from
// DTSTART to DTEND, which every instance keeps (RFC 5545 §3.8.5.3: an
// instance that crosses a change of offset lasts as long as the first, not
// to the same reading of the clock), or DURATION; by RFC 5545's default one
// day for a date and nothing for a date-time.
type eventLength struct {
	days int           // whole dates (all-day events)
	dur  time.Duration // elapsed time
}

// span is at most how long an instance lasts, so the expansion starts early
// enough to catch one begun before the window that is still running in it.
func (l eventLength) span() time.Duration {
	return time.Duration(l.days)*24*time.Hour + l.dur + 2*time.Hour
}

func (f *feedReader) length(e *ical.Component, start value) eventLength {
	if p := e.Prop("DTEND"); p != nil {
		if end, err := f.read(p); err == nil {
			if start.allDay {
				return eventLength{days: max(int(end.wall.Sub(start.wall).Hours()/24), 1)}
			}
			return eventLength{dur: end.at.Sub(start.at)}
		}
	}
	if p := e.Prop("DURATION"); p != nil {
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
		if l.days > 0 {
			return occurrence{w, w.AddDate(0, 0, l.days)}
		}
		return occurrence{w, w.Add(l.dur)}
	}
	from := start.zone.instant(w)
	switch {
	case l.days > 0:
		return occurrence{from, f.calZone.instant(w.AddDate(0, 0, l.days))}
	}
	return occurrence{from, from.Add(l.dur)}
}

// blocks reports whether an event takes the owner's time: not when it is
// marked free (TRANSP:TRANSPARENT) or cancelled.
func blocks(e *ical.Component) bool {
	if strings.EqualFold(strings.TrimSpace(propValue(e, "TRANSP")), "TRANSPARENT") {
		return false
	}
	return !strings.EqualFold(strings.TrimSpace(propValue(e, "STATUS")), "CANCELLED")
}

// essential are the properties that decide an event's busy time: a line
// of one of them that cannot be read makes the event unreadable; any other
// unreadable line (an X-APPLE-... parameter a client wrote oddly, the tail
// of a badly folded ATTENDEE) is passed over.
var essential = map[string]bool{"DTSTART": true, "DTEND": true, "DURATION": true, "RRULE": true,
	"RDATE": true, "EXDATE": true, "RECURRENCE-ID": true, "UID": true, "STATUS": true, "TRANSP": true}

// event is one VEVENT read: a series (or single event) or an override of
// one instance of a series.
type event struct {
	c      *ical.Component
	uid    string
	start  value
	length eventLength
	blocks bool
	seq    int
	stamp  time.Time
	// For an override: the instant of the instance it replaces, and
	// whether it also replaces every later one (RANGE=THISANDFUTURE).
	rid           *value
	thisAndFuture bool
}

// newer reports whether a is a later version of the same instance than b:
// the higher SEQUENCE, then the later DTSTAMP (as calendar clients apply
// updates).
func newer(a, b *event) bool {
	if a.seq != b.seq {
		return a.seq > b.seq
	}
	return a.stamp.After(b.stamp)
}

// expandBusy reads an iCalendar file and lists the busy intervals that
// touch [lo, hi), merged, and what it read and left out. defaultZone is
// the owner's, for a feed that names no zone of its own.
func expandBusy(data []byte, defaultZone *time.Location, lo, hi time.Time) ([]span, feedReport, error) {
	return expandBusyWithin(data, defaultZone, lo, hi, defaultFeedLimits)
}

func expandBusyWithin(data []byte, defaultZone *time.Location, lo, hi time.Time, lim feedLimits) ([]span, feedReport, error) {
	var rep feedReport
	cal, sk, err := ical.Read(data, ical.Limits{MaxDepth: lim.maxDepth, MaxComponents: lim.maxComponents})
	if err != nil {
		return nil, rep, fmt.Errorf("not an iCalendar file: %w", err)
	}
	if sk.TooDeep > 0 {
		rep.Skipped += sk.TooDeep
		rep.Notes = append(rep.Notes, counted(sk.TooDeep, "component", "components")+fmt.Sprintf(" nested more than %d deep skipped", lim.maxDepth))
	}
	if sk.OverCount > 0 {
		rep.Skipped += sk.OverCount
		rep.Notes = append(rep.Notes, fmt.Sprintf("the calendar holds more than %s components; the rest were not read", thousands(lim.maxComponents)))
	}
	f := &feedReader{calZone: ianaZone{defaultZone}, zones: map[string]zone{}, defs: map[string]*ical.Component{}, lim: lim,
		wallLo: lo.UTC().Add(-48 * time.Hour), wallHi: hi.UTC().Add(48 * time.Hour), deadline: time.Now().Add(lim.budget)}
	if tz := propValue(cal, "X-WR-TIMEZONE"); tz != "" {
		if z := f.lookupZone(cleanTZID(tz)); z != nil {
			f.calZone = z
		}
	}
	for _, c := range cal.Components {
		if c.Name == "VTIMEZONE" {
			if id := cleanTZID(propValue(c, "TZID")); id != "" {
				f.defs[id] = c
			}
		}
	}

	// Read every event, keeping of two versions of one instance (or of one
	// series) the newer.
	unknownZones := map[string]int{}
	lateEvents := 0 // events whose zone could not be defined within the budget
	var order []string
	masters := map[string]*event{}
	overrides := map[string]*event{}
	for i, c := range cal.Components {
		if c.Name != "VEVENT" {
			continue
		}
		e, err := f.readEvent(c)
		if err != nil {
			var uz unknownZoneError
			switch {
			case errors.As(err, &uz):
				unknownZones[uz.name]++
			case errors.Is(err, errOutOfTime):
				lateEvents++
			}
			rep.Skipped++
			continue
		}
		rep.Events++
		if e.uid == "" {
			e.uid = fmt.Sprintf("\x00%d", i)
		}
		if e.rid != nil {
			key := recurrenceKey(e.uid, e.rid.at)
			if old, ok := overrides[key]; !ok || newer(e, old) {
				overrides[key] = e
			}
			continue
		}
		switch old, ok := masters[e.uid]; {
		case !ok:
			masters[e.uid] = e
			order = append(order, e.uid)
		case newer(e, old):
			masters[e.uid] = e
		case !newer(old, e):
			// Two versions with the same SEQUENCE and DTSTAMP (a UID a
			// client reused): neither can be told the newer, so both
			// block, as the reference shows both; the second takes no
			// overrides, which name the first.
			key := fmt.Sprintf("%s\x00%d", e.uid, i)
			masters[key] = e
			order = append(order, key)
		}
	}
	if lateEvents > 0 {
		rep.Notes = append(rep.Notes, "reading the calendar's time zones took too long; "+counted(lateEvents, "event skipped", "events skipped"))
	}
	if bad := rep.Skipped - sk.TooDeep - sk.OverCount - sumCounts(unknownZones) - lateEvents; bad > 0 {
		rep.Notes = append(rep.Notes, counted(bad, "event could not be read and was skipped", "events could not be read and were skipped"))
	}
	names := sortedKeys(unknownZones)
	for i, name := range names {
		if i == 5 {
			rest := 0
			for _, n := range names[i:] {
				rest += unknownZones[n]
			}
			rep.Notes = append(rep.Notes, fmt.Sprintf("%d more unknown time zones; %s", len(names)-i, counted(rest, "event skipped", "events skipped")))
			break
		}
		rep.Notes = append(rep.Notes, fmt.Sprintf("unknown time zone %q; %s", name, counted(unknownZones[name], "event skipped", "events skipped")))
	}

	// Overrides by series, in time order.
	bySeries := map[string][]*event{}
	for _, o := range overrides {
		bySeries[o.uid] = append(bySeries[o.uid], o)
	}
	for _, list := range bySeries {
		slices.SortFunc(list, func(a, b *event) int { return a.rid.at.Compare(b.rid.at) })
	}
	for uid := range bySeries {
		if _, ok := masters[uid]; !ok {
			order = append(order, uid)
		}
	}

	x := expansion{f: f, lo: lo, hi: hi, lim: lim}
	for _, uid := range order {
		// One call of the recurrence library can take a good part of a
		// second (a rule that never matches is searched to the year
		// 9999), so the budget is checked before every series too.
		if !x.outOfTime && time.Now().After(f.deadline) {
			x.outOfTime = true
		}
		if x.outOfTime {
			x.unexpanded++
			continue
		}
		x.series(masters[uid], bySeries[uid])
	}
	if x.badRules > 0 {
		rep.Notes = append(rep.Notes, counted(x.badRules, "repeating event has a repeat rule that cannot be read; it counts only its first time",
			"repeating events have a repeat rule that cannot be read; each counts only its first time"))
	}
	if x.tooOften > 0 {
		rep.Notes = append(rep.Notes, counted(x.tooOften, "repeating event repeats", "repeating events repeat")+
			fmt.Sprintf(" more than %s times in the booking window (or too often to reach it) and not counted as busy time", thousands(lim.maxInWindow)))
	}
	if x.outOfTime {
		rep.Notes = append(rep.Notes, "reading the calendar took too long; "+counted(x.unexpanded, "repeating event", "repeating events")+" not counted as busy time")
	}
	if x.truncated {
		rep.Notes = append(rep.Notes, fmt.Sprintf("more than %s busy times in the booking window; the later ones were not counted", thousands(lim.maxBusy)))
	}
	return merge(x.busy), rep, nil
}

// readEvent reads one VEVENT's identity and times.
func (f *feedReader) readEvent(c *ical.Component) (*event, error) {
	for _, n := range c.BadNames {
		if essential[n] {
			return nil, errors.New(c.Bad)
		}
	}
	start, err := f.read(c.Prop("DTSTART"))
	if err != nil {
		return nil, err
	}
	if p := c.Prop("DTEND"); p != nil {
		// An end in a zone that cannot be placed would leave the event
		// with no length, blocking nothing without a word.
		if _, err := f.read(p); err != nil {
			if uz := (unknownZoneError{}); errors.As(err, &uz) || errors.Is(err, errOutOfTime) {
				return nil, err
			}
		}
	}
	e := &event{c: c, uid: strings.TrimSpace(propValue(c, "UID")), start: start, blocks: blocks(c)}
	e.length = f.length(c, start)
	e.seq, _ = strconv.Atoi(strings.TrimSpace(propValue(c, "SEQUENCE")))
	if st, _, err := parseWall(propValue(c, "DTSTAMP")); err == nil {
		e.stamp = st
	}
	if p := c.Prop("RECURRENCE-ID"); p != nil {
		rid, err := f.read(p)
		if err != nil {
			return nil, err
		}
		e.rid = &rid
		e.thisAndFuture = strings.EqualFold(p.Param("RANGE"), "THISANDFUTURE")
	}
	// Every other time of the event must be readable too: an EXDATE in an
	// unknown zone would otherwise block a cancelled instance.
	for _, name := range []string{"EXDATE", "RDATE"} {
		for _, p := range c.All(name) {
			if _, _, err := f.readList(p); err != nil {
				return nil, err
			}
		}
	}
	return e, nil
}

// expansion gathers the busy time of a feed's series within its caps.
type expansion struct {
	f      *feedReader
	lo, hi time.Time
	lim    feedLimits
	busy   []span

	badRules, tooOften, unexpanded int
	truncated, outOfTime           bool
}

func (x *expansion) add(o occurrence) {
	if !o.end.After(o.start) || !o.end.After(x.lo) || !o.start.Before(x.hi) {
		return
	}
	if len(x.busy) >= x.lim.maxBusy {
		x.truncated = true
		return
	}
	x.busy = append(x.busy, span{o.start, o.end})
}

// untilOf reads a rule's UNTIL as a wall reading of the series' zone, the
// way the reference does: a UTC time is an instant; a DATE against a
// date-time start is midnight (UTC for a zoned start, the reading for a
// floating one); a time without Z against a zoned start is read as UTC.
func untilOf(text string, start value) (time.Time, bool, error) {
	var until string
	for part := range strings.SplitSeq(text, ";") {
		if k, v, _ := strings.Cut(part, "="); strings.EqualFold(strings.TrimSpace(k), "UNTIL") {
			until = strings.TrimSpace(v)
		}
	}
	if until == "" {
		return time.Time{}, false, nil
	}
	w, utc, err := parseWall(until)
	if err != nil {
		return time.Time{}, false, err
	}
	switch {
	case start.allDay:
		return time.Date(w.Year(), w.Month(), w.Day(), 0, 0, 0, 0, time.UTC), true, nil
	case start.zone == nil || start.floating:
		return w, true, nil
	}
	_ = utc // a zoned start reads every UNTIL as UTC
	return start.zone.wallOf(w), true, nil
}

// series adds the busy time of one series (master may be nil when a feed
// holds only overrides of it) with its overrides.
func (x *expansion) series(master *event, overrides []*event) {
	f := x.f
	// Instants are compared as Unix seconds: a time.Time map key holds
	// its zone, and 13:00Z is 09:00 in New York.
	var (
		exAt   = map[int64]bool{}
		exDate = map[time.Time]bool{}
	)
	replaced := map[int64]bool{}
	for _, o := range overrides {
		replaced[o.rid.at.Unix()] = true
	}
	var futures []*event
	for _, o := range overrides {
		if o.thisAndFuture {
			futures = append(futures, o)
		}
	}
	if master != nil {
		for _, p := range master.c.All("EXDATE") {
			vals, _, _ := f.readList(p)
			for _, v := range vals {
				if v.allDay {
					exDate[v.wall] = true
				} else {
					exAt[v.at.Unix()] = true
				}
			}
		}
	}
	excluded := func(at, wall time.Time) bool {
		return exAt[at.Unix()] || exDate[time.Date(wall.Year(), wall.Month(), wall.Day(), 0, 0, 0, 0, time.UTC)]
	}
	// An override is an instance of its own, unless an EXDATE removed it.
	for _, o := range overrides {
		if excluded(o.rid.at, o.rid.wall) || !o.blocks {
			continue
		}
		x.add(f.place(o.start, o.length, o.start.wall))
	}
	if master == nil || propValue(master.c, "RRULE") == "" && master.c.Prop("RDATE") == nil && len(futures) == 0 {
		if master != nil && master.blocks && !excluded(master.start.at, master.start.wall) && !replaced[master.start.at.Unix()] {
			x.add(f.place(master.start, master.length, master.start.wall))
		}
		return
	}

	// How far a THISANDFUTURE override moves the instances after it: the
	// expansion looks that much further each side.
	var reach time.Duration
	for _, o := range futures {
		d := o.start.at.Sub(o.rid.at)
		reach = max(reach, d, -d)
	}
	from, until := f.wallLo.Add(-master.length.span()-reach), f.wallHi.Add(reach)

	walls := []time.Time{master.start.wall}
	periodLen := map[time.Time]time.Duration{} // by wall reading, held in UTC
	// DTSTART is an instance unless every rule ends before it (as the
	// reference reads it).
	var lastUntil time.Time
	open := false
	for _, p := range master.c.All("RRULE") {
		if strings.TrimSpace(p.Value) == "" {
			continue // an empty RRULE (seen in holiday feeds) is no rule
		}
		uw, have, err := untilOf(p.Value, master.start)
		var r *rule
		if err == nil {
			r, err = newRule(p.Value, master.start.wall, uw, have, until)
		}
		if err != nil {
			x.badRules++
			continue
		}
		if !have {
			open = true
		} else if uw.After(lastUntil) {
			lastUntil = uw
		}
		occ, err := r.between(from, until, x.lim.maxInWindow, x.lim.maxSteps, f.deadline)
		switch {
		case errors.Is(err, errOutOfTime):
			x.outOfTime = true
			x.unexpanded++
			return
		case err != nil:
			x.tooOften++
			return
		}
		walls = append(walls, occ...)
	}
	if !open && !lastUntil.IsZero() && master.start.wall.After(lastUntil) {
		walls = walls[1:]
	}
	for _, p := range master.c.All("RDATE") {
		vals, lens, _ := f.readList(p)
		for i, v := range vals {
			w := v.wall
			if master.start.zone == nil || v.zone != master.start.zone && !v.allDay {
				// Another zone (or UTC): the same instant on the series' clock.
				w = v.at
				if master.start.zone != nil {
					w = master.start.zone.wallOf(v.at)
				}
			}
			walls = append(walls, w)
			if lens[i] > 0 {
				periodLen[w] = lens[i]
			}
		}
	}
	seen := map[time.Time]bool{}
	for _, w := range walls {
		if seen[w] {
			continue
		}
		seen[w] = true
		o := f.place(master.start, master.length, w)
		if excluded(o.start, w) || replaced[o.start.Unix()] {
			continue
		}
		base := master
		// The latest THISANDFUTURE override before this instance moves it
		// by its own shift and gives it its length and state (futures are
		// in time order: a binary search, not a scan per instance).
		if i := sort.Search(len(futures), func(i int) bool { return !futures[i].rid.at.Before(o.start) }); i > 0 {
			base = futures[i-1]
		}
		if base != master {
			if base.start.zone != nil && base.start.zone == master.start.zone && base.rid.zone == master.start.zone {
				o = f.place(master.start, base.length, w.Add(base.start.wall.Sub(base.rid.wall)))
			} else {
				o = f.place(master.start, base.length, w)
				d := base.start.at.Sub(base.rid.at)
				o = occurrence{o.start.Add(d), o.end.Add(d)}
			}
		}
		if l, ok := periodLen[w]; ok {
			o.end = o.start.Add(l)
		}
		if base.blocks {
			x.add(o)
		}
	}
}

// recurrenceKey names an instance of a series: its UID and original start.
func recurrenceKey(uid string, at time.Time) string {
	return uid + "\x00" + at.UTC().Format(time.RFC3339)
}

func sumCounts(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// counted is "1 thing" or "n things".
func counted(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// thousands writes n with comma separators (20,000).
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
