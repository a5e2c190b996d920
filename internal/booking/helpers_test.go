package booking

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/store"
)

var site = func() *content.Site {
	s, err := content.Load("")
	if err != nil {
		panic(err)
	}
	return s
}()

// monday is the test clock's start: Monday 5 January 2026, 09:00 UTC
// (04:00 in the default zone, America/Toronto).
var monday = time.Date(2026, time.January, 5, 9, 0, 0, 0, time.UTC)

// newService is a booking service over db with payments on or off, on a
// clock standing at monday.
func newService(t testing.TB, db *store.DB, payments bool) (*Service, *clocktest.Clock) {
	t.Helper()
	c := clocktest.At(monday)
	s := New(db, Config{Site: site, OwnerEmail: "owner@example.com", BaseURL: "https://ruv.example", Payments: payments},
		WithClock(c.Now))
	return s, c
}

// toronto is the default owner zone.
var toronto = mustZone("America/Toronto")

func mustZone(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return loc
}

// at is a time on the owner's default clock.
func at(y int, m time.Month, d, h, min int) time.Time {
	return time.Date(y, m, d, h, min, 0, 0, toronto)
}

func req(typ string, start time.Time, email string) Request {
	return Request{Type: typ, Start: start.Format(time.RFC3339), Name: "Ada Lovelace", Email: email,
		Notes: "Agents, memory and evaluation.", TimeZone: "Europe/London", ClientAddr: "client-" + email, HoldKey: "browser-of-" + email}
}

func book(t testing.TB, s *Service, r Request) *Created {
	t.Helper()
	c, err := s.Book(context.Background(), r)
	if err != nil {
		t.Fatalf("book %s at %s: %v", r.Type, r.Start, err)
	}
	return c
}

func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	if errs.CodeOf(err) != code {
		t.Fatalf("error %v (code %q), want code %q", err, errs.CodeOf(err), code)
	}
}

func wantField(t testing.TB, err error, field string) {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) || e.Code != errs.Invalid || e.Field != field {
		t.Fatalf("error %v, want invalid %q", err, field)
	}
}

func count(t testing.TB, db *store.DB, query string, args ...any) int {
	t.Helper()
	var n int
	if err := db.Read.QueryRowContext(context.Background(), query, args...).Scan(&n); err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	return n
}

func email(i int) string { return fmt.Sprintf("booker%d@example.com", i) }

// slotsOn is the free starts of a type on one date of zone tz.
func slotsOn(t testing.TB, s *Service, typ, date, tz string) []string {
	t.Helper()
	a, err := s.Slots(context.Background(), typ, date, date, tz)
	if err != nil {
		t.Fatalf("slots of %s on %s: %v", typ, date, err)
	}
	return a.Days[0].Slots
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// weekday is the i-th weekday from Monday 12 January 2026 at hour:minute
// on the owner's clock: holds spread over days, so the daily ceiling on
// unpaid holds is not what a test meets.
func weekday(i, hour, minute int) time.Time {
	d := at(2026, time.January, 12, hour, minute)
	for n := 0; n < i; {
		d = d.AddDate(0, 0, 1)
		if wd := d.Weekday(); wd != time.Saturday && wd != time.Sunday {
			n++
		}
	}
	return d
}
