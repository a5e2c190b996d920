package booking

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/errs"
	"tribe/internal/netguard"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// feedServer serves one calendar file, answers conditional requests, and
// counts what it was asked.
type feedServer struct {
	*httptest.Server
	mu          sync.Mutex
	body        []byte
	etag        string
	fail        int // answer this status instead, when set
	requests    atomic.Int32
	notModified atomic.Int32
}

func newFeedServer(t *testing.T, body []byte) *feedServer {
	f := &feedServer{body: body, etag: `"v1"`}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		f.mu.Lock()
		defer f.mu.Unlock()
		if f.fail != 0 {
			http.Error(w, "down", f.fail)
			return
		}
		if r.Header.Get("If-None-Match") == f.etag {
			f.notModified.Add(1)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", f.etag)
		w.Header().Set("Content-Type", "text/calendar")
		_, _ = w.Write(f.body)
	}))
	t.Cleanup(f.Close)
	return f
}

func (f *feedServer) set(body []byte, etag string, fail int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.body, f.etag, f.fail = body, etag, fail
}

// ownerWeekly is the owner's Wednesday 10:00–11:00 Toronto meeting from 25
// February 2026, across the change to daylight time of 8 March: the 4 March
// meeting moved to Thursday 14:00, the 11 March one cancelled.
var ownerWeekly = icsFile(
	"BEGIN:VEVENT", "UID:standup@owner", "SUMMARY:Standup",
	"DTSTART;TZID=America/Toronto:20260225T100000", "DTEND;TZID=America/Toronto:20260225T110000",
	"RRULE:FREQ=WEEKLY;BYDAY=WE", "EXDATE;TZID=America/Toronto:20260311T100000", "END:VEVENT",
	"BEGIN:VEVENT", "UID:standup@owner", "RECURRENCE-ID;TZID=America/Toronto:20260304T100000",
	"DTSTART;TZID=America/Toronto:20260305T140000", "DTEND;TZID=America/Toronto:20260305T150000", "END:VEVENT",
)

// calendarService is a booking service that may fetch from the test's
// loopback server, on a clock at Monday 23 February 2026, 09:00 UTC.
func calendarService(t testing.TB, db *store.DB, c *clocktest.Clock) *Service {
	t.Helper()
	return New(db, Config{Site: site, OwnerEmail: "owner@example.com", BaseURL: "https://ruv.example"},
		WithClock(c.Now), WithPrivateCalendars(true))
}

var feb23 = time.Date(2026, time.February, 23, 9, 0, 0, 0, time.UTC)

func refresh(t testing.TB, s *Service) int {
	t.Helper()
	n, err := s.RefreshCalendars(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func feeds(t testing.TB, s *Service) []CalendarFeed {
	t.Helper()
	f, err := s.Calendars(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return f.Calendars
}

// A scheduler that ignores the owner's own calendar offers times when the
// owner is at their weekly meeting, offers the old time of a moved meeting
// or keeps a cancelled one blocked, and after a daylight-saving change
// blocks the wrong hour. With the owner's feed, slots around the meeting
// go (buffers included) on both sides of the change, the moved meeting
// blocks its new time only, and the cancelled one blocks nothing.
func TestOwnerCalendarRemovesSlotsAcrossDaylightSavingWithMovedAndCancelledMeeting(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(feb23)
		s := calendarService(t, db, c)
		srv := newFeedServer(t, ownerWeekly)
		if !contains(slotsOn(t, s, "session-30", "2026-02-25", "America/Toronto"), "2026-02-25T10:00:00-05:00") {
			t.Fatal("10:00 not free before the calendar was added")
		}
		if err := s.SaveCalendars(ctx, CalendarFeedsInput{URLs: []string{srv.URL + "/owner.ics"}}); err != nil {
			t.Fatal(err)
		}
		if n := refresh(t, s); n != 1 {
			t.Fatalf("fetched %d calendars, want 1", n)
		}
		for _, c := range []struct {
			date, slot string
			free       bool
		}{
			{"2026-02-25", "2026-02-25T10:00:00-05:00", false},
			{"2026-02-25", "2026-02-25T09:30:00-05:00", false}, // its buffer runs into the meeting
			{"2026-02-25", "2026-02-25T09:15:00-05:00", true},
			{"2026-02-25", "2026-02-25T11:00:00-05:00", false}, // the buffer after it
			{"2026-02-25", "2026-02-25T11:15:00-05:00", true},
			{"2026-03-04", "2026-03-04T10:00:00-05:00", true}, // moved away
			{"2026-03-05", "2026-03-05T14:00:00-05:00", false},
			{"2026-03-11", "2026-03-11T10:00:00-04:00", true}, // cancelled
			{"2026-03-18", "2026-03-18T10:00:00-04:00", false},
			{"2026-03-18", "2026-03-18T09:00:00-04:00", true}, // the hour it would wrongly block
			{"2026-03-18", "2026-03-18T11:15:00-04:00", true},
		} {
			if got := contains(slotsOn(t, s, "session-30", c.date, "America/Toronto"), c.slot); got != c.free {
				t.Errorf("%s free = %v, want %v", c.slot, got, c.free)
			}
		}
		// Booking the blocked time directly is refused as well.
		_, err := s.Book(ctx, req("session-30", time.Date(2026, 3, 18, 10, 0, 0, 0, toronto), "late@example.com"))
		if err == nil {
			t.Fatal("booked over the owner's meeting")
		}
		list := feeds(t, s)
		if len(list) != 1 || list[0].LastSuccess == nil || list[0].LastError != "" || list[0].Events != 2 || list[0].Busy == 0 {
			t.Fatalf("calendar state = %+v", list)
		}
	})
}

// A feed fetched in full every five minutes wastes the calendar server's
// patience (and gets the address rate-limited); a failing feed that drops
// its busy times suddenly offers the owner's meetings, and one whose error
// is hidden leaves the owner guessing. Conditional requests answered 304
// keep the busy times; a failure keeps them too and shows the error and the
// last success; the next good fetch clears the error.
func TestOwnerCalendarConditionalFetchAndFailingFeedKeepsLastGoodBusyTimes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(feb23)
		s := calendarService(t, db, c)
		srv := newFeedServer(t, ownerWeekly)
		if err := s.SaveCalendars(ctx, CalendarFeedsInput{URLs: []string{srv.URL}}); err != nil {
			t.Fatal(err)
		}
		refresh(t, s)
		blocked := func() bool {
			return !contains(slotsOn(t, s, "session-30", "2026-02-25", "America/Toronto"), "2026-02-25T10:00:00-05:00")
		}
		if !blocked() {
			t.Fatal("the meeting does not block")
		}
		if n := refresh(t, s); n != 0 {
			t.Fatalf("fetched again before the refresh was due (%d)", n)
		}
		c.Advance(CalendarRefresh)
		refresh(t, s)
		if srv.notModified.Load() != 1 || srv.requests.Load() != 2 {
			t.Fatalf("requests %d, not modified %d: want a conditional second request", srv.requests.Load(), srv.notModified.Load())
		}
		if !blocked() {
			t.Fatal("a 304 dropped the busy times")
		}
		firstSuccess := *feeds(t, s)[0].LastSuccess

		srv.set(nil, `"v2"`, http.StatusInternalServerError)
		c.Advance(CalendarRefresh)
		refresh(t, s)
		f := feeds(t, s)[0]
		if !strings.Contains(f.LastError, "500") || f.LastErrorAt == nil || f.LastSuccess == nil || !f.LastSuccess.Equal(firstSuccess) {
			t.Fatalf("failing feed state = %+v", f)
		}
		if !blocked() {
			t.Fatal("a failing feed dropped its last good busy times")
		}
		// Not a calendar (a sign-in page): also an error, busy times kept.
		srv.set([]byte("<html>sign in</html>"), `"v3"`, 0)
		c.Advance(CalendarRefresh)
		refresh(t, s)
		if f := feeds(t, s)[0]; !strings.Contains(f.LastError, "not an iCalendar file") || !blocked() {
			t.Fatalf("HTML feed: %+v, blocked %v", f, blocked())
		}
		// Fixed, and the meeting gone: the error clears and the time frees.
		srv.set(icsFile(), `"v4"`, 0)
		c.Advance(CalendarRefresh)
		refresh(t, s)
		if f := feeds(t, s)[0]; f.LastError != "" || f.LastErrorAt != nil || blocked() {
			t.Fatalf("recovered feed: %+v, blocked %v", f, blocked())
		}
		// Removing the address removes its busy times.
		srv.set(ownerWeekly, `"v5"`, 0)
		c.Advance(CalendarRefresh)
		refresh(t, s)
		if !blocked() {
			t.Fatal("the meeting does not block again")
		}
		if err := s.SaveCalendars(ctx, CalendarFeedsInput{URLs: nil}); err != nil {
			t.Fatal(err)
		}
		if blocked() || count(t, db, `SELECT COUNT(*) FROM booking_busy`) != 0 {
			t.Fatal("a removed calendar still blocks")
		}
	})
}

// Two instances fetching every feed each double the load on the calendar
// server, and instances that each keep their own copy disagree about which
// slots are free. Two services on one database refreshing at the same
// moment make one request between them and offer the same slots.
func TestOwnerCalendarFetchedOnceAcrossInstancesWhichAgree(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(feb23)
		a, b := calendarService(t, db, c), calendarService(t, db, c)
		srv := newFeedServer(t, ownerWeekly)
		if err := a.SaveCalendars(ctx, CalendarFeedsInput{URLs: []string{srv.URL}}); err != nil {
			t.Fatal(err)
		}
		for round := range 3 {
			var wg sync.WaitGroup
			for _, s := range []*Service{a, b, a, b} {
				wg.Go(func() {
					if _, err := s.RefreshCalendars(ctx); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			if got := srv.requests.Load(); got != int32(round+1) {
				t.Fatalf("round %d: %d requests, want %d", round, got, round+1)
			}
			c.Advance(CalendarRefresh)
		}
		sa := slotsOn(t, a, "session-30", "2026-03-18", "Europe/Paris")
		sb := slotsOn(t, b, "session-30", "2026-03-18", "Europe/Paris")
		if strings.Join(sa, ",") != strings.Join(sb, ",") || contains(sa, "2026-03-18T15:00:00+01:00") {
			t.Fatalf("instances disagree or ignore the meeting:\n%v\n%v", sa, sb)
		}
	})
}

// An admin's calendar address is a request the server makes: without care
// it reaches the server's own network (cloud metadata, databases, admin
// ports). Addresses naming private or local hosts, plain http and other
// schemes are refused with a field error; a public name that resolves to
// a private address is refused when connecting; redirects are limited.
func TestOwnerCalendarRefusesPrivateAddressesAndLimitsRedirects(t *testing.T) {
	strict := &calendarConfig{}
	for _, bad := range []string{
		"http://calendar.example.com/x.ics", "ftp://calendar.example.com/x.ics", "https://127.0.0.1/x.ics",
		"https://10.1.2.3/x.ics", "https://169.254.169.254/latest/meta-data", "https://[::1]/x.ics", "https://localhost/x.ics",
		"https://intranet/x.ics", "https://[fd00::1]/x.ics", "https://100.64.0.1/x.ics", "webcal://192.168.1.1/x.ics", "not a url", "",
	} {
		_, err := strict.normalizeCalendarURL(bad)
		var e *errs.Error
		if !errorsAs(err, &e) || e.Field != "urls" {
			t.Errorf("%q: %v, want a urls field error", bad, err)
		}
	}
	for in, want := range map[string]string{
		"webcal://p01-calendars.icloud.com/published/2/abc":             "https://p01-calendars.icloud.com/published/2/abc",
		"WEBCAL://calendar.google.com/calendar/ical/x/basic.ics":        "https://calendar.google.com/calendar/ical/x/basic.ics",
		" https://outlook.office365.com/owa/calendar/a/b/calendar.ics ": "https://outlook.office365.com/owa/calendar/a/b/calendar.ics",
	} {
		if got, err := strict.normalizeCalendarURL(in); err != nil || got != want {
			t.Errorf("%q = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, a := range []string{"127.0.0.1", "10.0.0.1", "172.16.0.1", "192.168.0.1", "169.254.169.254", "::1", "fe80::1", "fc00::1", "::ffff:127.0.0.1", "0.0.0.0", "100.64.1.1"} {
		if netguard.PublicAddr(netip.MustParseAddr(a)) {
			t.Errorf("%s counted as public", a)
		}
	}
	for _, a := range []string{"8.8.8.8", "2606:4700:4700::1111"} {
		if !netguard.PublicAddr(netip.MustParseAddr(a)) {
			t.Errorf("%s counted as private", a)
		}
	}

	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(feb23)
		srv := newFeedServer(t, ownerWeekly)
		// Stored as if the name were public: the dialer still refuses the
		// loopback address it resolves to, and nothing is requested.
		s := New(db, Config{Site: site, OwnerEmail: "owner@example.com"}, WithClock(c.Now))
		if _, err := db.Write.ExecContext(ctx, `INSERT INTO booking_calendars (id, url, next_fetch_at) VALUES ('c1', $1, $2)`,
			strings.Replace(srv.URL, "http://", "https://", 1), store.At(feb23)); err != nil {
			t.Fatal(err)
		}
		refresh(t, s)
		if f := feeds(t, s)[0]; !strings.Contains(f.LastError, "private or local network") || srv.requests.Load() != 0 {
			t.Fatalf("private fetch: %+v, %d requests", f, srv.requests.Load())
		}
		if err := s.SaveCalendars(ctx, CalendarFeedsInput{URLs: []string{srv.URL}}); errs.CodeOf(err) != errs.Invalid {
			t.Fatalf("saving a loopback address: %v", err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM booking_calendars`); n != 1 {
			t.Fatalf("a refused save wrote: %d calendars", n)
		}

		// An endless chain of redirects ends after a few.
		var hops atomic.Int32
		loop := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hops.Add(1)
			http.Redirect(w, r, "/again", http.StatusFound)
		}))
		defer loop.Close()
		p := calendarService(t, db, c)
		if err := p.SaveCalendars(ctx, CalendarFeedsInput{URLs: []string{loop.URL}}); err != nil {
			t.Fatal(err)
		}
		refresh(t, p)
		if f := feeds(t, p)[0]; !strings.Contains(f.LastError, "redirects") || hops.Load() != maxRedirects+1 {
			t.Fatalf("redirect loop: %+v after %d hops", f, hops.Load())
		}
	})
}

// A calendar bigger than the cap would hold the fetch and the memory of the
// server; it is refused and the owner told.
func TestOwnerCalendarRefusesFeedsOverFiveMegabytes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		c := clocktest.At(feb23)
		s := calendarService(t, db, c)
		big := append(icsFile(), make([]byte, maxCalendarBytes)...)
		srv := newFeedServer(t, big)
		if err := s.SaveCalendars(ctx, CalendarFeedsInput{URLs: []string{srv.URL}}); err != nil {
			t.Fatal(err)
		}
		refresh(t, s)
		if f := feeds(t, s)[0]; !strings.Contains(f.LastError, "larger than 5 MB") || f.LastSuccess != nil {
			t.Fatalf("oversized feed: %+v", f)
		}
	})
}

func errorsAs(err error, target **errs.Error) bool { return errors.As(err, target) }
