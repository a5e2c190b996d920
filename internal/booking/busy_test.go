package booking

import (
	"strings"
	"testing"
	"time"
)

// ics joins the lines of an iCalendar file with CRLF.
func icsFile(lines ...string) []byte {
	return []byte(strings.Join(append(append([]string{"BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//busy//EN"}, lines...), "END:VCALENDAR"), "\r\n") + "\r\n")
}

// parisZone is Europe/Paris as Outlook writes it: a name no time-zone
// database knows, defined by its VTIMEZONE.
var parisZone = []string{
	"BEGIN:VTIMEZONE", "TZID:Romance Standard Time",
	"BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
	"RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
	"BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
	"RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT",
	"END:VTIMEZONE",
}

func utc(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, time.UTC)
}

func hasSpan(busy []span, from, until time.Time) bool {
	for _, b := range busy {
		if b.from.Equal(from) && b.until.Equal(until) {
			return true
		}
	}
	return false
}

func touches(busy []span, from, until time.Time) bool {
	for _, b := range busy {
		if b.from.Before(until) && from.Before(b.until) {
			return true
		}
	}
	return false
}

// A weekly meeting expanded by hand (or not at all) lands an hour off after
// a daylight-saving change, still blocks the occurrence that was moved or
// cancelled, and misses the moved one's new time. Here a Monday 10:00 Paris
// meeting runs across the change of 29 March 2026, in both the IANA and the
// Outlook way of naming the zone: before the change it is 09:00 UTC, after
// it 08:00 UTC; the 23 March one moved to Tuesday 14:00 and the 6 April one
// cancelled, once by an override with STATUS:CANCELLED and once by EXDATE.
func TestBusyWeeklyMeetingWithMovedAndCancelledOccurrenceAcrossDaylightSaving(t *testing.T) {
	lo, hi := utc(2026, 3, 10, 0, 0), utc(2026, 4, 30, 0, 0)
	for _, c := range []struct {
		name, tzid string
		zone       []string
		cancel     []string // how 6 April is cancelled
		series     []string
	}{
		{name: "IANA zone, cancelled by override", tzid: "Europe/Paris",
			cancel: []string{"BEGIN:VEVENT", "UID:weekly@test", "RECURRENCE-ID;TZID=Europe/Paris:20260406T100000",
				"DTSTART;TZID=Europe/Paris:20260406T100000", "DTEND;TZID=Europe/Paris:20260406T110000", "STATUS:CANCELLED", "END:VEVENT"}},
		{name: "VTIMEZONE definition, cancelled by EXDATE", tzid: "Romance Standard Time", zone: parisZone,
			series: []string{"EXDATE;TZID=Romance Standard Time:20260406T100000"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			lines := append([]string{}, c.zone...)
			lines = append(lines, "BEGIN:VEVENT", "UID:weekly@test", "SUMMARY:Weekly",
				"DTSTART;TZID="+c.tzid+":20260316T100000", "DTEND;TZID="+c.tzid+":20260316T110000",
				"RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6")
			lines = append(lines, c.series...)
			lines = append(lines, "END:VEVENT",
				// The 23 March meeting moved to Tuesday 14:00.
				"BEGIN:VEVENT", "UID:weekly@test", "RECURRENCE-ID;TZID="+c.tzid+":20260323T100000",
				"DTSTART;TZID="+c.tzid+":20260324T140000", "DTEND;TZID="+c.tzid+":20260324T150000", "END:VEVENT")
			lines = append(lines, c.cancel...)
			busy, _, err := expandBusy(icsFile(lines...), time.UTC, lo, hi)
			if err != nil {
				t.Fatal(err)
			}
			want := [][2]time.Time{
				{utc(2026, 3, 16, 9, 0), utc(2026, 3, 16, 10, 0)},  // CET, +01:00
				{utc(2026, 3, 24, 13, 0), utc(2026, 3, 24, 14, 0)}, // moved
				{utc(2026, 3, 30, 8, 0), utc(2026, 3, 30, 9, 0)},   // CEST, +02:00
				{utc(2026, 4, 13, 8, 0), utc(2026, 4, 13, 9, 0)},
				{utc(2026, 4, 20, 8, 0), utc(2026, 4, 20, 9, 0)},
			}
			for _, w := range want {
				if !hasSpan(busy, w[0], w[1]) {
					t.Errorf("missing busy %s–%s in %v", w[0], w[1], busy)
				}
			}
			if len(busy) != len(want) {
				t.Errorf("busy = %v, want exactly %d intervals", busy, len(want))
			}
			if touches(busy, utc(2026, 3, 23, 0, 0), utc(2026, 3, 24, 0, 0)) {
				t.Error("the moved meeting still blocks its old time")
			}
			if touches(busy, utc(2026, 4, 6, 0, 0), utc(2026, 4, 7, 0, 0)) {
				t.Error("the cancelled meeting still blocks")
			}
		})
	}
}

// Events that must not block (free time, cancelled events) and those that
// must (all-day events over their whole dates in the calendar's zone, UTC
// times, events lasting a DURATION, floating times in the calendar's zone).
func TestBusyReadsAllDayTransparentCancelledUTCAndFloatingEvents(t *testing.T) {
	lo, hi := utc(2026, 5, 1, 0, 0), utc(2026, 6, 1, 0, 0)
	busy, n, err := expandBusy(icsFile(
		"X-WR-TIMEZONE:America/New_York",
		"BEGIN:VEVENT", "UID:a", "DTSTART;VALUE=DATE:20260504", "DTEND;VALUE=DATE:20260506", "SUMMARY:Conference", "END:VEVENT",
		"BEGIN:VEVENT", "UID:b", "DTSTART:20260511T150000Z", "DTEND:20260511T160000Z", "TRANSP:TRANSPARENT", "END:VEVENT",
		"BEGIN:VEVENT", "UID:c", "DTSTART:20260512T150000Z", "DTEND:20260512T160000Z", "STATUS:CANCELLED", "END:VEVENT",
		"BEGIN:VEVENT", "UID:d", "DTSTART:20260513T150000Z", "DURATION:PT1H30M", "END:VEVENT",
		"BEGIN:VEVENT", "UID:e", "DTSTART:20260514T090000", "DTEND:20260514T100000", "END:VEVENT",
		"BEGIN:VEVENT", "UID:f", "DTSTART;VALUE=DATE:20260518", "RRULE:FREQ=DAILY;COUNT=3", "EXDATE;VALUE=DATE:20260519", "END:VEVENT",
		"BEGIN:VEVENT", "UID:g", "DTSTART:20260101T150000Z", "DTEND:20260101T153000Z", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1", "END:VEVENT",
	), time.UTC, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	if n.Events != 7 {
		t.Errorf("read %d events, want 7", n.Events)
	}
	want := [][2]time.Time{
		{utc(2026, 5, 1, 15, 0), utc(2026, 5, 1, 15, 30)}, // monthly series begun in January
		{utc(2026, 5, 4, 4, 0), utc(2026, 5, 6, 4, 0)},    // two dates in New York (EDT)
		{utc(2026, 5, 13, 15, 0), utc(2026, 5, 13, 16, 30)},
		{utc(2026, 5, 14, 13, 0), utc(2026, 5, 14, 14, 0)}, // floating 09:00 in New York
		{utc(2026, 5, 18, 4, 0), utc(2026, 5, 19, 4, 0)},
		{utc(2026, 5, 20, 4, 0), utc(2026, 5, 21, 4, 0)},
	}
	for _, w := range want {
		if !hasSpan(busy, w[0], w[1]) {
			t.Errorf("missing busy %s–%s in %v", w[0], w[1], busy)
		}
	}
	if len(busy) != len(want) {
		t.Errorf("busy = %v, want exactly %d intervals", busy, len(want))
	}
}

// A feed that is not a calendar is an error (the owner sees it), and a
// rule that repeats every second from decades ago costs bounded work.
func TestBusyRefusesNonCalendarsAndBoundsRunawayRules(t *testing.T) {
	if _, _, err := expandBusy([]byte("<html>Sign in</html>"), time.UTC, utc(2026, 1, 1, 0, 0), utc(2026, 2, 1, 0, 0)); err == nil {
		t.Fatal("an HTML page read as a calendar")
	}
	start := time.Now()
	busy, _, err := expandBusy(icsFile("BEGIN:VEVENT", "UID:x", "DTSTART:19900101T000000Z", "DTEND:19900101T000001Z",
		"RRULE:FREQ=SECONDLY", "END:VEVENT", "BEGIN:VEVENT", "UID:y", "DTSTART:20260105T100000Z", "DTEND:20260105T110000Z", "END:VEVENT"),
		time.UTC, utc(2026, 1, 1, 0, 0), utc(2026, 2, 1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("a runaway rule took %s", time.Since(start))
	}
	if !hasSpan(busy, utc(2026, 1, 5, 10, 0), utc(2026, 1, 5, 11, 0)) {
		t.Errorf("the rest of the feed was lost: %v", busy)
	}
}
