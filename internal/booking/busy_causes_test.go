package booking

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// Each cause of a wrong busy time found by reading real calendar exports,
// with a calendar of our own that shows it. Every test reads the feed
// twice: by itself (expandBusy, with the owner in Toronto) and as the
// owner's calendar on both engines (saved, fetched by the worker, busy
// times and the calendar's status read back), over the window of
// calendarService's clock (23 February 2026 plus 60 days).

// cause is one calendar and what it must give.
type cause struct {
	lines   []string
	want    [][2]time.Time // the busy intervals, exactly
	notes   []string       // substrings the status must show, one each
	skipped int
}

func checkCause(t *testing.T, c cause) {
	t.Helper()
	data := icsFile(c.lines...)
	lo, hi := feb23.Add(-24*time.Hour), feb23.Add(67*24*time.Hour)
	busy, rep, err := expandBusy(data, toronto, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	same := func(where string, got []span, rep feedReport) {
		t.Helper()
		if len(got) != len(c.want) {
			t.Errorf("%s: busy = %v, want %d intervals %v", where, got, len(c.want), c.want)
		}
		for _, w := range c.want {
			if !hasSpan(got, w[0], w[1]) {
				t.Errorf("%s: missing busy %s–%s in %v", where, w[0].Format(time.RFC3339), w[1].Format(time.RFC3339), got)
			}
		}
		if rep.Skipped != c.skipped {
			t.Errorf("%s: skipped %d, want %d", where, rep.Skipped, c.skipped)
		}
		if len(rep.Notes) != len(c.notes) {
			t.Errorf("%s: notes %q, want %d", where, rep.Notes, len(c.notes))
		}
		for _, n := range c.notes {
			if !strings.Contains(strings.Join(rep.Notes, "\n"), n) {
				t.Errorf("%s: notes %q lack %q", where, rep.Notes, n)
			}
		}
	}
	same("expand", busy, rep)

	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		s := calendarService(t, db, clocktest.At(feb23))
		srv := newFeedServer(t, data)
		if err := s.SaveCalendars(ctx, CalendarFeedsInput{URLs: []string{srv.URL}}); err != nil {
			t.Fatal(err)
		}
		refresh(t, s)
		stored, err := readExternalBusy(ctx, db.ReadRows, lo, hi)
		if err != nil {
			t.Fatal(err)
		}
		f := feeds(t, s)[0]
		if f.LastError != "" || f.LastSuccess == nil {
			t.Fatalf("calendar failed: %+v", f)
		}
		same("stored", stored, feedReport{Skipped: f.Skipped, Notes: f.Notes})
	})
}

func hour(from time.Time, d time.Duration) [2]time.Time { return [2]time.Time{from, from.Add(d)} }

// Google and Thunderbird end a series with UNTIL in UTC whatever zone it
// runs in: DTSTART 10:00 Berlin with UNTIL 09:00Z on the last day ends
// exactly at the last instance, which a reading of UNTIL as a Berlin clock
// time (09:00 < 10:00) drops. Five instances, not four.
func TestBusyUntilInUTCAgainstZonedStartKeepsTheLastOccurrence(t *testing.T) {
	checkCause(t, cause{
		lines: []string{"BEGIN:VEVENT", "UID:until@test", "DTSTART;TZID=Europe/Berlin:20260302T100000",
			"DTEND;TZID=Europe/Berlin:20260302T110000", "RRULE:FREQ=DAILY;UNTIL=20260306T090000Z", "END:VEVENT"},
		want: [][2]time.Time{hour(utc(2026, 3, 2, 9, 0), time.Hour), hour(utc(2026, 3, 3, 9, 0), time.Hour),
			hour(utc(2026, 3, 4, 9, 0), time.Hour), hour(utc(2026, 3, 5, 9, 0), time.Hour), hour(utc(2026, 3, 6, 9, 0), time.Hour)},
	})
}

// UNTIL as a DATE against a zoned start ends at that date's midnight UTC
// (as the reference reads it); COUNT counts from DTSTART; an EXDATE written
// in UTC removes the instance it names in another zone; an all-day event
// blocks its date in the owner's zone and a floating time is read there.
func TestBusyUntilDateCountExdateInZonesAllDayAndFloatingTimes(t *testing.T) {
	checkCause(t, cause{
		lines: []string{
			"BEGIN:VEVENT", "UID:untildate@test", "DTSTART;TZID=Europe/Berlin:20260309T100000",
			"DTEND;TZID=Europe/Berlin:20260309T103000", "RRULE:FREQ=DAILY;UNTIL=20260311", "END:VEVENT",
			// New York changes to daylight time on 8 March: 09:00 is 13:00Z.
			"BEGIN:VEVENT", "UID:count@test", "DTSTART;TZID=America/New_York:20260316T090000",
			"DTEND;TZID=America/New_York:20260316T100000", "RRULE:FREQ=DAILY;COUNT=4", "EXDATE:20260317T130000Z", "END:VEVENT",
			"BEGIN:VEVENT", "UID:allday@test", "DTSTART;VALUE=DATE:20260324", "DTEND;VALUE=DATE:20260325", "END:VEVENT",
			"BEGIN:VEVENT", "UID:floating@test", "DTSTART:20260326T090000", "DTEND:20260326T100000", "END:VEVENT",
		},
		want: [][2]time.Time{
			hour(utc(2026, 3, 9, 9, 0), 30*time.Minute), hour(utc(2026, 3, 10, 9, 0), 30*time.Minute),
			hour(utc(2026, 3, 16, 13, 0), time.Hour), hour(utc(2026, 3, 18, 13, 0), time.Hour), hour(utc(2026, 3, 19, 13, 0), time.Hour),
			hour(utc(2026, 3, 24, 4, 0), 24*time.Hour), // Toronto, EDT
			hour(utc(2026, 3, 26, 13, 0), time.Hour),
		},
	})
}

// RDATE;VALUE=PERIOD adds instances with their own length, written as
// start/duration or start/end; a plain RDATE list adds instances of the
// event's length in its zone.
func TestBusyRdatePeriodsAndListsAddInstances(t *testing.T) {
	checkCause(t, cause{
		lines: []string{
			"BEGIN:VEVENT", "UID:period@test", "DTSTART:20260323T100000Z", "DTEND:20260323T110000Z",
			"RDATE;VALUE=PERIOD:20260324T150000Z/PT2H,20260325T090000Z/20260325T093000Z", "END:VEVENT",
			"BEGIN:VEVENT", "UID:rdates@test", "DTSTART;TZID=Europe/Berlin:20260326T100000", "DTEND;TZID=Europe/Berlin:20260326T103000",
			"RDATE;TZID=Europe/Berlin:20260327T100000,20260330T100000", "END:VEVENT",
		},
		want: [][2]time.Time{
			hour(utc(2026, 3, 23, 10, 0), time.Hour), hour(utc(2026, 3, 24, 15, 0), 2*time.Hour), hour(utc(2026, 3, 25, 9, 0), 30*time.Minute),
			hour(utc(2026, 3, 26, 9, 0), 30*time.Minute), hour(utc(2026, 3, 27, 9, 0), 30*time.Minute),
			hour(utc(2026, 3, 30, 8, 0), 30*time.Minute), // Berlin summer time from 29 March
		},
	})
}

// RECURRENCE-ID;RANGE=THISANDFUTURE moves that instance and every later
// one by the same shift on the clock, with the override's length.
func TestBusyThisAndFutureOverrideMovesEveryLaterInstance(t *testing.T) {
	checkCause(t, cause{
		lines: []string{
			"BEGIN:VEVENT", "UID:taf@test", "DTSTART;TZID=Europe/Berlin:20260302T100000", "DTEND;TZID=Europe/Berlin:20260302T110000",
			"RRULE:FREQ=WEEKLY;COUNT=6", "END:VEVENT",
			"BEGIN:VEVENT", "UID:taf@test", "RECURRENCE-ID;RANGE=THISANDFUTURE;TZID=Europe/Berlin:20260316T100000",
			"DTSTART;TZID=Europe/Berlin:20260316T140000", "DTEND;TZID=Europe/Berlin:20260316T153000", "SEQUENCE:1", "END:VEVENT",
		},
		want: [][2]time.Time{
			hour(utc(2026, 3, 2, 9, 0), time.Hour), hour(utc(2026, 3, 9, 9, 0), time.Hour),
			hour(utc(2026, 3, 16, 13, 0), 90*time.Minute), hour(utc(2026, 3, 23, 13, 0), 90*time.Minute),
			hour(utc(2026, 3, 30, 12, 0), 90*time.Minute), hour(utc(2026, 4, 6, 12, 0), 90*time.Minute),
		},
	})
}

// Zones that are not IANA names: Windows ids as Outlook writes them
// without a VTIMEZONE, libical's prefixed names, a VTIMEZONE whose id
// carries stray quotes and spaces (read by its own rules). A zone still
// unknown skips its event and says so, instead of reading it in the
// owner's zone hours off.
func TestBusyWindowsLibicalAndStrayZoneNamesAndUnknownZoneOnStatus(t *testing.T) {
	checkCause(t, cause{
		lines: []string{
			"BEGIN:VTIMEZONE", `TZID:"Custom India "`, "BEGIN:STANDARD", "DTSTART:19700101T000000",
			"TZOFFSETFROM:+0530", "TZOFFSETTO:+0530", "END:STANDARD", "END:VTIMEZONE",
			"BEGIN:VEVENT", "UID:w1@test", "DTSTART;TZID=W. Europe Standard Time:20260316T100000",
			"DTEND;TZID=W. Europe Standard Time:20260316T110000", "END:VEVENT",
			"BEGIN:VEVENT", "UID:w2@test", `DTSTART;TZID="Pacific Standard Time":20260317T090000`,
			`DTEND;TZID="Pacific Standard Time":20260317T100000`, "END:VEVENT",
			"BEGIN:VEVENT", "UID:l1@test", "DTSTART;TZID=/freeassociation.sourceforge.net/Tzfile/Europe/London:20260318T100000",
			"DURATION:PT1H", "END:VEVENT",
			"BEGIN:VEVENT", "UID:l2@test", "DTSTART;TZID=/mozilla.org/20070129_1/America/New_York:20260319T100000",
			"DURATION:PT1H", "END:VEVENT",
			"BEGIN:VEVENT", "UID:v1@test", `DTSTART;TZID="Custom India":20260320T100000`, "DURATION:PT1H", "END:VEVENT",
			"BEGIN:VEVENT", "UID:u1@test", "DTSTART;TZID=Mars/Olympus_Mons:20260321T100000", "DURATION:PT1H", "END:VEVENT",
			// Only its end in an unknown zone: no length to guess either.
			"BEGIN:VEVENT", "UID:u2@test", "DTSTART:20260322T100000Z", "DTEND;TZID=Nowhere/Land:20260322T110000", "END:VEVENT",
		},
		want: [][2]time.Time{
			hour(utc(2026, 3, 16, 9, 0), time.Hour),  // Berlin, CET
			hour(utc(2026, 3, 17, 16, 0), time.Hour), // Los Angeles, PDT
			hour(utc(2026, 3, 18, 10, 0), time.Hour), // London, GMT
			hour(utc(2026, 3, 19, 14, 0), time.Hour), // New York, EDT
			hour(utc(2026, 3, 20, 4, 30), time.Hour), // +05:30 by the VTIMEZONE
		},
		notes:   []string{`unknown time zone "Mars/Olympus_Mons"; 1 event skipped`, `unknown time zone "Nowhere/Land"; 1 event skipped`},
		skipped: 2,
	})
}

// Two versions of one instance (a client that appends its updates): the
// one with the higher SEQUENCE wins, then the later DTSTAMP; the older
// must not block as well.
func TestBusyTwoVersionsOfOneInstanceKeepTheNewest(t *testing.T) {
	checkCause(t, cause{
		lines: []string{
			"BEGIN:VEVENT", "UID:dup@test", "DTSTART;TZID=Europe/Berlin:20260303T120000", "DTEND;TZID=Europe/Berlin:20260303T130000",
			"RRULE:FREQ=WEEKLY;COUNT=2", "END:VEVENT",
			"BEGIN:VEVENT", "UID:dup@test", "RECURRENCE-ID;TZID=Europe/Berlin:20260310T120000", "SEQUENCE:2",
			"DTSTART;TZID=Europe/Berlin:20260311T150000", "DTEND;TZID=Europe/Berlin:20260311T160000", "END:VEVENT",
			"BEGIN:VEVENT", "UID:dup@test", "RECURRENCE-ID;TZID=Europe/Berlin:20260310T120000", "SEQUENCE:1",
			"DTSTART;TZID=Europe/Berlin:20260310T150000", "DTEND;TZID=Europe/Berlin:20260310T160000", "END:VEVENT",
			"BEGIN:VEVENT", "UID:stamp@test", "DTSTAMP:20260201T000000Z", "DTSTART:20260305T100000Z", "DTEND:20260305T110000Z", "END:VEVENT",
			"BEGIN:VEVENT", "UID:stamp@test", "DTSTAMP:20260101T000000Z", "DTSTART:20260304T100000Z", "DTEND:20260304T110000Z", "END:VEVENT",
		},
		want: [][2]time.Time{
			hour(utc(2026, 3, 3, 11, 0), time.Hour), hour(utc(2026, 3, 11, 14, 0), time.Hour), hour(utc(2026, 3, 5, 10, 0), time.Hour),
		},
	})
}

// One component a parser cannot read (a DTSTART with a broken parameter)
// is skipped and counted, not the whole feed; a broken X-APPLE line an
// event does not need is passed over; a repeat rule that cannot be read
// reduces its event to the first instance and says so.
func TestBusyBadComponentIsSkippedAndBadRuleShownNotWorking(t *testing.T) {
	checkCause(t, cause{
		lines: []string{
			"BEGIN:VEVENT", "UID:good@test", "DTSTART:20260331T100000Z", "DTEND:20260331T110000Z", "END:VEVENT",
			"BEGIN:VEVENT", "UID:bad@test", "DTSTART;X-BROKEN:20260401T100000Z", "DTEND:20260401T110000Z", "END:VEVENT",
			"BEGIN:VEVENT", "UID:apple@test", "DTSTART:20260402T100000Z", "DTEND:20260402T110000Z",
			"X-APPLE-STRUCTURED-LOCATION;X-APPLE-RADIUS;VALUE=URI:geo:37.3,-122.0", "END:VEVENT",
			"BEGIN:VEVENT", "UID:rule@test", "DTSTART:20260403T100000Z", "DTEND:20260403T110000Z", "RRULE:FREQ=SOMETIMES;COUNT=5", "END:VEVENT",
		},
		want: [][2]time.Time{hour(utc(2026, 3, 31, 10, 0), time.Hour), hour(utc(2026, 4, 2, 10, 0), time.Hour), hour(utc(2026, 4, 3, 10, 0), time.Hour)},
		notes: []string{"1 event could not be read and was skipped",
			"1 repeating event has a repeat rule that cannot be read; it counts only its first time"},
		skipped: 1,
	})
}

// hostile builds a feed of n events, each made by ev(i).
func hostile(n int, ev func(i int) []string) []byte {
	var lines []string
	for i := range n {
		lines = append(lines, ev(i)...)
	}
	return icsFile(lines...)
}

// expandHostile reads a hostile feed with the default caps but a processor
// budget of a minute, so that what each test checks is its own cap and not
// how busy the machine is (TestBusyExpansionBudgetStopsAndSays checks the
// budget).
func expandHostile(t *testing.T, data []byte) ([]span, feedReport) {
	t.Helper()
	lim := defaultFeedLimits
	lim.budget = time.Minute
	busy, rep, err := expandBusyWithin(data, toronto, feb23.Add(-24*time.Hour), feb23.Add(67*24*time.Hour), lim)
	if err != nil {
		t.Fatal(err)
	}
	return busy, rep
}

func hasNote(rep feedReport, part string) bool {
	return strings.Contains(strings.Join(rep.Notes, "\n"), part)
}

// 200 events repeating every minute (a 25 KB file) took 1.8 GB and 70 s:
// each series now stops at its cap of instances in the window and is
// refused as busy time with a note, and the feed's ordinary events stay.
func TestBusyMinutelySeriesBeyondTheCapAreRefusedWithANote(t *testing.T) {
	data := hostile(200, func(i int) []string {
		return []string{"BEGIN:VEVENT", fmt.Sprintf("UID:m%d@test", i), "DTSTART:20260101T000000Z", "DURATION:PT1M", "RRULE:FREQ=MINUTELY", "END:VEVENT"}
	})
	data = append(data[:len(data)-len("END:VCALENDAR\r\n")], []byte("BEGIN:VEVENT\r\nUID:ok\r\nDTSTART:20260305T100000Z\r\nDTEND:20260305T110000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")...)
	busy, rep := expandHostile(t, data)
	if !hasNote(rep, "200 repeating events repeat more than 6,000 times") || len(busy) != 1 {
		t.Fatalf("notes %q, busy %v", rep.Notes, busy)
	}
}

// A rule repeating every second from long ago, with a COUNT so that no
// period can be skipped, runs into the steps cap and is refused.
func TestBusySecondlySeriesFromLongAgoIsRefused(t *testing.T) {
	busy, rep := expandHostile(t, hostile(3, func(i int) []string {
		return []string{"BEGIN:VEVENT", fmt.Sprintf("UID:s%d@test", i), "DTSTART:19900101T000000Z", "DURATION:PT1S", "RRULE:FREQ=SECONDLY;COUNT=2000000000", "END:VEVENT"}
	}))
	if !hasNote(rep, "3 repeating events repeat") || len(busy) != 0 {
		t.Fatalf("notes %q, busy %d", rep.Notes, len(busy))
	}
}

// Series inside their own cap but many of them: the feed stops at 20,000
// busy intervals and says so.
func TestBusyFeedCapOfBusyIntervals(t *testing.T) {
	busy, rep := expandHostile(t, hostile(30, func(i int) []string {
		return []string{"BEGIN:VEVENT", fmt.Sprintf("UID:h%d@test", i), fmt.Sprintf("DTSTART:20260301T00%02d00Z", 2*i), "DURATION:PT1M", "RRULE:FREQ=HOURLY", "END:VEVENT"}
	}))
	if !hasNote(rep, "more than 20,000 busy times") || len(busy) > 20000 || len(busy) < 19000 {
		t.Fatalf("notes %q, busy %d", rep.Notes, len(busy))
	}
}

// 5 MB of nested BEGIN lines took 850 MB: components nested beyond the cap
// are passed over by counting, and the events beside them are read.
func TestBusyNestingBeyondTheCapIsSkipped(t *testing.T) {
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:ok\r\nDTSTART:20260305T100000Z\r\nDTEND:20260305T110000Z\r\nEND:VEVENT\r\n")
	for range 300000 {
		b.WriteString("BEGIN:X\r\n")
	}
	busy, rep := expandHostile(t, []byte(b.String()))
	if !hasNote(rep, "component nested more than 12 deep skipped") || len(busy) != 1 {
		t.Fatalf("notes %q, busy %v", rep.Notes, busy)
	}
}

// A file of more components than the cap is read up to the cap.
func TestBusyComponentCountCap(t *testing.T) {
	busy, rep := expandHostile(t, hostile(60000, func(i int) []string {
		return []string{"BEGIN:VEVENT", "UID:c" + fmt.Sprint(i), "DTSTART:20260305T100000Z", "DURATION:PT1M", "END:VEVENT"}
	}))
	// The VCALENDAR itself is one of the 50,000.
	if !hasNote(rep, "more than 50,000 components") || rep.Events != 49999 || len(busy) != 1 {
		t.Fatalf("notes %q, events %d, busy %v", rep.Notes, rep.Events, busy)
	}
}

// A VTIMEZONE of 60,000 changes took 11 s (an insertion sort and a scan
// per reading): now a sort and a binary search, and its events land by its
// rules.
func TestBusyZoneWithManyChangesIsNotQuadratic(t *testing.T) {
	var rdates []string
	for i := range 60000 {
		rdates = append(rdates, time.Date(1900, 1, 1, 2, 0, 0, 0, time.UTC).Add(time.Duration(i)*24*time.Hour).Format("20060102T150405"))
	}
	// Reversed, so a sort that trusts the order is not enough.
	for i, j := 0, len(rdates)-1; i < j; i, j = i+1, j-1 {
		rdates[i], rdates[j] = rdates[j], rdates[i]
	}
	start := time.Now()
	busy, rep := expandHostile(t, icsFile("BEGIN:VTIMEZONE", "TZID:Many", "BEGIN:STANDARD", "DTSTART:18991231T020000",
		"TZOFFSETFROM:+0300", "TZOFFSETTO:+0300", "RDATE:"+strings.Join(rdates, ","), "END:STANDARD", "END:VTIMEZONE",
		"BEGIN:VEVENT", "UID:z", "DTSTART;TZID=Many:20260305T100000", "DURATION:PT1H", "END:VEVENT"))
	if len(rep.Notes) != 0 || !hasSpan(busy, utc(2026, 3, 5, 7, 0), utc(2026, 3, 5, 8, 0)) {
		t.Fatalf("notes %q, busy %v", rep.Notes, busy)
	}
	if took := time.Since(start); took > 10*time.Second { // about 40 ms on an idle machine
		t.Errorf("a zone of 60,000 changes took %s", took)
	}
}

// The expansion has a processor budget: past it, the series not yet
// expanded are not counted and the status says so (a budget of nothing
// here, so the test does not depend on the machine's speed).
func TestBusyExpansionBudgetStopsAndSays(t *testing.T) {
	lim := defaultFeedLimits
	lim.budget = 0
	busy, rep, err := expandBusyWithin(hostile(2, func(i int) []string {
		return []string{"BEGIN:VEVENT", fmt.Sprintf("UID:b%d@test", i), "DTSTART:20260301T000000Z", "DURATION:PT1M", "RRULE:FREQ=HOURLY", "END:VEVENT"}
	}), toronto, feb23, feb23.Add(67*24*time.Hour), lim)
	if err != nil {
		t.Fatal(err)
	}
	if !hasNote(rep, "took too long; 2 repeating events not counted") || len(busy) != 0 {
		t.Fatalf("notes %q, busy %d", rep.Notes, len(busy))
	}
}

// Every VTIMEZONE of a feed costs the expansion of its rules: 12,000 zones
// of their own, each used, took seconds. At most 50 definitions are built;
// the events of the others are skipped as in an unknown zone, and said so.
func TestBusyZoneDefinitionsCap(t *testing.T) {
	var lines []string
	for i := range 60 {
		lines = append(lines, "BEGIN:VTIMEZONE", fmt.Sprintf("TZID:Own %02d", i), "BEGIN:STANDARD", "DTSTART:19700101T000000",
			"TZOFFSETFROM:+0100", "TZOFFSETTO:+0100", "END:STANDARD", "END:VTIMEZONE",
			"BEGIN:VEVENT", fmt.Sprintf("UID:own%d", i), fmt.Sprintf("DTSTART;TZID=Own %02d:20260305T100000", i), "DURATION:PT1H", "END:VEVENT")
	}
	busy, rep := expandHostile(t, icsFile(lines...))
	if rep.Events != 50 || rep.Skipped != 10 || !hasNote(rep, "5 more unknown time zones; 5 events skipped") ||
		!hasSpan(busy, utc(2026, 3, 5, 9, 0), utc(2026, 3, 5, 10, 0)) {
		t.Fatalf("events %d, skipped %d, notes %q, busy %v", rep.Events, rep.Skipped, rep.Notes, busy)
	}
}

// Quirks of real exports, from other calendar libraries' test files: a
// TZID of libical's form with only a leading slash, BYDAY values with
// spaces (Outlook), and a DATE written with a Z (Google's birthdays).
func TestBusyQuirksOfRealExportsAreReadNotDropped(t *testing.T) {
	checkCause(t, cause{
		lines: []string{
			"BEGIN:VEVENT", "UID:sthlm@test", "DTSTART;TZID=/Europe/Stockholm:20260316T100000", "DURATION:PT1H", "END:VEVENT",
			"BEGIN:VEVENT", "UID:spaces@test", "DTSTART:20260316T120000Z", "DURATION:PT30M", "RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=MO, WE", "END:VEVENT",
			"BEGIN:VEVENT", "UID:bday@test", "DTSTART;VALUE=DATE:20260319", "RDATE;VALUE=DATE:20260327Z", "END:VEVENT",
		},
		want: [][2]time.Time{
			hour(utc(2026, 3, 16, 9, 0), time.Hour),
			hour(utc(2026, 3, 16, 12, 0), 30*time.Minute), hour(utc(2026, 3, 18, 12, 0), 30*time.Minute),
			hour(utc(2026, 3, 23, 12, 0), 30*time.Minute), hour(utc(2026, 3, 25, 12, 0), 30*time.Minute),
			hour(utc(2026, 3, 19, 4, 0), 24*time.Hour), hour(utc(2026, 3, 27, 4, 0), 24*time.Hour),
		},
	})
}
