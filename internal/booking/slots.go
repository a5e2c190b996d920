package booking

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"tribe/internal/access"
	"tribe/internal/community"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// Availability is the free slots of one type, per day of the visitor's
// calendar.
type Availability struct {
	TimeZone string `json:"time_zone"`
	Days     []Day  `json:"days"`
}

// Day is one date of the visitor's calendar and its free starts, RFC 3339
// instants written with the visitor zone's offset.
type Day struct {
	Date  string   `json:"date"`
	Slots []string `json:"slots"`
}

// span is a half-open interval of time [from, until).
type span struct{ from, until time.Time }

// wallInstant is the instant the owner's clock reads minute (of the day
// that starts at midnight, a date at 00:00 UTC standing for the owner's
// date) in loc. A reading skipped by a spring-forward change does not exist
// (ok false); one that happens twice on a fall-back day means its first
// occurrence, so a repeated hour never offers a slot twice.
func wallInstant(midnight time.Time, minute int, loc *time.Location) (t time.Time, ok bool) {
	naive := midnight.Add(time.Duration(minute) * time.Minute)
	// Only the offsets in force around that day can apply; t = naive - off
	// reads the wanted time exactly when off is in force at t.
	_, before := naive.Add(-36 * time.Hour).In(loc).Zone()
	_, after := naive.Add(36 * time.Hour).In(loc).Zone()
	for _, off := range [2]int{before, after} {
		c := naive.Add(-time.Duration(off) * time.Second)
		if _, inForce := c.In(loc).Zone(); inForce == off && (!ok || c.Before(t)) {
			t, ok = c, true
		}
	}
	return t, ok
}

// wallEnd is the instant a range of hours ends. An end inside a skipped
// hour is the end of the gap: the first reading after it that the clock
// shows.
func wallEnd(midnight time.Time, minute int, loc *time.Location) time.Time {
	for m := minute; ; m++ {
		if t, ok := wallInstant(midnight, m, loc); ok {
			return t
		}
	}
}

// eachStart calls fn, in time order, with every start in [lo, hi) that the
// owner's hours offer for a call of length d: from each range's start, every
// step on the owner's clock, while the call (in elapsed time) ends within
// the range.
func (r *rules) eachStart(lo, hi time.Time, d time.Duration, fn func(start time.Time, ownerDate string)) {
	first := lo.In(r.loc)
	last := hi.In(r.loc)
	day := time.Date(first.Year(), first.Month(), first.Day()-1, 0, 0, 0, 0, time.UTC)
	end := time.Date(last.Year(), last.Month(), last.Day()+1, 0, 0, 0, 0, time.UTC)
	for ; !day.After(end); day = day.AddDate(0, 0, 1) {
		date := day.Format(time.DateOnly)
		hours := r.hours(date, day.Weekday())
		if len(hours) == 0 {
			continue
		}
		// Most days have one offset from end to end: their readings map to
		// instants by subtraction. Days near a change take the full path.
		_, before := day.Add(-36 * time.Hour).In(r.loc).Zone()
		_, after := day.Add(60 * time.Hour).In(r.loc).Zone()
		instant := func(m int) (time.Time, bool) {
			if before == after {
				return day.Add(time.Duration(m)*time.Minute - time.Duration(before)*time.Second), true
			}
			return wallInstant(day, m, r.loc)
		}
		for _, h := range hours {
			rangeEnd := wallEnd(day, h[1], r.loc)
			for m := h[0]; m < h[1]; m += r.step {
				start, ok := instant(m)
				if !ok {
					continue // a time the clock skips
				}
				if start.Add(d).After(rangeEnd) {
					break
				}
				if !start.Before(lo) && start.Before(hi) {
					fn(start, date)
				}
			}
		}
	}
}

// calendar is what takes the owner's time: merged busy spans (bookings with
// their buffers, live sessions) and the bookings counted per owner date.
type calendar struct {
	busy   []span
	perDay map[string]int
}

// free reports whether the blocked time b touches nothing busy.
func (c *calendar) free(b span) bool {
	i := sort.Search(len(c.busy), func(i int) bool { return c.busy[i].until.After(b.from) })
	return i == len(c.busy) || !c.busy[i].from.Before(b.until)
}

// merge sorts spans and joins those that overlap, so that both ends are in
// order and one binary search answers whether a span is free.
func merge(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return a.from.Compare(b.from) })
	out := spans[:0]
	for _, s := range spans {
		if n := len(out); n > 0 && !s.from.After(out[n-1].until) {
			if s.until.After(out[n-1].until) {
				out[n-1].until = s.until
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

type queryFunc func(ctx context.Context, query string, args ...any) (*sql.Rows, error)

// blockingSQL is the statuses whose rows hold time; countedSQL adds those
// that still count toward a day's maximum.
const (
	blockingSQL = `('held', 'requested', 'confirmed')`
	countedSQL  = `('held', 'requested', 'confirmed', 'completed', 'no_show')`
)

// readBookings adds to cal the bookings that touch [lo, hi): their blocked
// time (held ones only until they lapse at now) and their count per owner
// date. exclude leaves one booking out (the one being moved).
func readBookings(ctx context.Context, q queryFunc, r *rules, cal *calendar, lo, hi, now time.Time, exclude string) error {
	// Seats are not the owner's one-to-one calls: their occurrence is the
	// busy time (readEvents).
	rows, err := q(ctx, `SELECT id, status, start_at, blocked_from, blocked_until, expires_at FROM bookings
		WHERE blocked_until > $1 AND blocked_from < $2 AND event_id IS NULL AND status IN `+countedSQL, store.At(lo), store.At(hi))
	if err != nil {
		return fmt.Errorf("read busy times: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var (
			id, status         string
			start, from, until store.Time
			expires            store.NullTime
		)
		if err := rows.Scan(&id, &status, &start, &from, &until, &expires); err != nil {
			return fmt.Errorf("read busy times: %w", err)
		}
		if id == exclude || (status == StatusHeld && (!expires.Valid || !expires.Time.After(now))) {
			continue
		}
		cal.perDay[start.In(r.loc).Format(time.DateOnly)]++
		if strings.Contains(blockingSQL, "'"+status+"'") {
			cal.busy = append(cal.busy, span{from.Time, until.Time})
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read busy times: %w", err)
	}
	return nil
}

// liveSessions is the tribe's scheduled and running live sessions that
// touch [lo, hi), widened by the margin: the owner leads them, so their time is busy;
// and the busy time of the owner's own calendars. They are
// read through the community package (read-only, kept until the table
// changes).
func (s *Service) liveSessions(ctx context.Context, lo, hi, now time.Time) ([]span, error) {
	all, err := community.ListSessions(ctx, s.db, access.Viewer{}, now)
	if err != nil {
		return nil, fmt.Errorf("read live sessions: %w", err)
	}
	var out []span
	for _, ls := range all {
		if (ls.Status == "scheduled" || ls.Status == "live") && ls.EndsAt.After(lo.Add(-margin)) && ls.StartsAt.Before(hi.Add(margin)) {
			out = append(out, span{ls.StartsAt, ls.EndsAt})
		}
	}
	// The owner's own calendars (calendars.go) are busy time of the same
	// kind: outside the bookings table, read before a booking's write.
	ext, err := readExternalBusy(ctx, s.db.ReadRows, lo.Add(-margin), hi.Add(margin))
	if err != nil {
		return nil, err
	}
	return append(out, ext...), nil
}

// blocked is the time a call [start, start+d) takes with its buffers.
func (r *rules) blocked(start time.Time, d time.Duration) span {
	return span{start.Add(-r.bufferBefore), start.Add(d).Add(r.bufferAfter)}
}

// dayFull reports whether the owner's date already has its maximum.
func (r *rules) dayFull(cal *calendar, ownerDate string) bool {
	return r.maxPerDay > 0 && cal.perDay[ownerDate] >= r.maxPerDay
}

// Slots lists the free starts of a type from one date to another (both
// included, at most 62 days) of the visitor's calendar in zone tz.
func (s *Service) Slots(ctx context.Context, typeID, from, to, tz string) (*Availability, error) {
	t, err := s.nativeType(typeID)
	if err != nil {
		return nil, err
	}
	if t.Seated() {
		return nil, errs.Field("type", "This training is booked by the seat: list its dates with /api/booking/events.")
	}
	vloc, err := content.LoadZone(strings.TrimSpace(tz))
	if err != nil {
		return nil, errs.Field("tz", "Time zone must be an IANA name such as Europe/Paris.")
	}
	first, err := time.Parse(time.DateOnly, from)
	if err != nil || len(from) != 10 {
		return nil, errs.Field("from", "From must be a date written YYYY-MM-DD.")
	}
	last, err := time.Parse(time.DateOnly, to)
	if err != nil || len(to) != 10 {
		return nil, errs.Field("to", "To must be a date written YYYY-MM-DD.")
	}
	days := int(last.Sub(first)/(24*time.Hour)) + 1
	switch {
	case days < 1:
		return nil, errs.Field("to", "To must not be before from.")
	case days > maxRangeDays:
		return nil, errs.Field("to", fmt.Sprintf("Ask for at most %d days at a time.", maxRangeDays))
	}
	_, r, err := s.settings(ctx)
	if err != nil {
		return nil, err
	}
	now := s.now()
	out := &Availability{TimeZone: vloc.String(), Days: make([]Day, days)}
	index := map[string]int{}
	for i := range days {
		d := first.AddDate(0, 0, i).Format(time.DateOnly)
		out.Days[i] = Day{Date: d, Slots: []string{}}
		index[d] = i
	}
	lo := time.Date(first.Year(), first.Month(), first.Day(), 0, 0, 0, 0, vloc)
	hi := time.Date(last.Year(), last.Month(), last.Day()+1, 0, 0, 0, 0, vloc)
	if earliest := now.Add(r.notice); lo.Before(earliest) {
		lo = earliest
	}
	if latest := now.Add(r.window); hi.After(latest) {
		hi = latest
	}
	if !lo.Before(hi) {
		return out, nil
	}
	d := time.Duration(t.Minutes) * time.Minute
	live, err := s.liveSessions(ctx, lo, hi, now)
	if err != nil {
		return nil, err
	}
	cal, err := readCalendar(ctx, s.db.ReadRows, r, live, lo, hi, now, "")
	if err != nil {
		return nil, err
	}
	r.eachStart(lo, hi, d, func(start time.Time, ownerDate string) {
		if r.dayFull(cal, ownerDate) || !cal.free(r.blocked(start, d)) {
			return
		}
		local := start.In(vloc)
		if i, ok := index[local.Format(time.DateOnly)]; ok {
			out.Days[i].Slots = append(out.Days[i].Slots, local.Format(time.RFC3339))
		}
	})
	return out, nil
}

// margin widens a read around [lo, hi) to whole owner days (for the daily
// maximum) and the buffers.
const margin = 48 * time.Hour

// readCalendar reads the bookings around [lo, hi) through q and merges
// them with the live sessions read before.
func readCalendar(ctx context.Context, q queryFunc, r *rules, live []span, lo, hi, now time.Time, exclude string) (*calendar, error) {
	cal := &calendar{perDay: map[string]int{}}
	if err := readBookings(ctx, q, r, cal, lo.Add(-margin), hi.Add(margin), now, exclude); err != nil {
		return nil, err
	}
	if err := readEvents(ctx, q, cal, lo.Add(-margin), hi.Add(margin)); err != nil {
		return nil, err
	}
	cal.busy = merge(append(cal.busy, live...))
	return cal, nil
}
