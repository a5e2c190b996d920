package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// An owner who adds their calendar and sees nothing change cannot tell a
// working address from a mistyped one, and a slot offered during their
// meeting is booked by someone. Saving an address checks it and wakes the
// calendar worker (the save itself never fetches or reads a stranger's
// file: TestCalendarSaveNeverFetchesOrParsesInTheRequest); once the worker
// has fetched, the list shows the last success, the meeting's slot is gone
// from the public slots, and a broken address shows its error; a private
// address without the operator's setting is a 400 naming the field.
func TestOwnerAddsCalendarAndItsMeetingLeavesTheSlots(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		env := membersEnv()
		env["TRIBE_CALENDAR_ALLOW_PRIVATE"] = "true"
		m := newTestSite(t, db, env)
		owner := m.user(membersAdminEmail)
		slot := m.freeSlot("session-30", 3, 0)
		start, err := time.Parse(time.RFC3339, slot)
		if err != nil {
			t.Fatal(err)
		}
		feed := "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\nBEGIN:VEVENT\r\nUID:dentist@test\r\nDTSTART:" +
			start.UTC().Format("20060102T150405Z") + "\r\nDTEND:" + start.Add(time.Hour).UTC().Format("20060102T150405Z") +
			"\r\nSUMMARY:Dentist\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/broken.ics" {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("Content-Type", "text/calendar")
			_, _ = w.Write([]byte(feed))
		}))
		defer srv.Close()

		r := m.call(owner, "PUT", "/api/admin/booking/calendars", map[string]any{"urls": []string{srv.URL + "/owner.ics", srv.URL + "/broken.ics"}})
		if r.status != 200 {
			t.Fatalf("save calendars: %d %s", r.status, r.body)
		}
		select {
		case <-m.s.Services.Booking.CalendarsChanged():
		default:
			t.Fatal("saving did not wake the calendar worker")
		}
		// What the worker does when woken.
		if _, err := m.s.Services.Booking.RefreshCalendars(t.Context()); err != nil {
			t.Fatal(err)
		}
		r = m.call(owner, "GET", "/api/admin/booking/calendars", nil)
		list := r.json["calendars"].([]any)
		if len(list) != 2 {
			t.Fatalf("calendars = %s", r.body)
		}
		good, broken := list[0].(map[string]any), list[1].(map[string]any)
		if good["last_success"] == nil || good["last_error"] != "" || good["events"].(float64) != 1 {
			t.Fatalf("working calendar = %v", good)
		}
		if broken["last_success"] != nil || !strings.Contains(broken["last_error"].(string), "404") {
			t.Fatalf("broken calendar = %v", broken)
		}
		if again := m.freeSlot("session-30", 3, 0); again == slot {
			t.Fatalf("the slot during the owner's event is still offered: %s", slot)
		}
		if got := m.call(owner, "GET", "/api/admin/booking/calendars", nil); got.status != 200 || len(got.json["calendars"].([]any)) != 2 {
			t.Fatalf("list calendars: %d %s", got.status, got.body)
		}
	})
}

// Reading a stranger's calendar inside the admin's save request holds the
// request (and a connection of the server) for as long as the file takes:
// a hostile feed turned one save into a minute of work. The save checks the
// addresses and answers at once with each new one waiting for its first
// fetch; nothing is requested from the calendar server until the worker
// runs.
func TestCalendarSaveNeverFetchesOrParsesInTheRequest(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		env := membersEnv()
		env["TRIBE_CALENDAR_ALLOW_PRIVATE"] = "true"
		m := newTestSite(t, db, env)
		owner := m.user(membersAdminEmail)
		var requests atomic.Int32
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			requests.Add(1)
			_, _ = w.Write([]byte("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n"))
		}))
		defer srv.Close()
		r := m.call(owner, "PUT", "/api/admin/booking/calendars", map[string]any{"urls": []string{srv.URL + "/a.ics"}})
		if r.status != 200 {
			t.Fatalf("save: %d %s", r.status, r.body)
		}
		c := r.json["calendars"].([]any)[0].(map[string]any)
		if requests.Load() != 0 || c["last_success"] != nil || c["last_error"] != "" {
			t.Fatalf("the save fetched (%d requests): %v", requests.Load(), c)
		}
		if _, err := m.s.Services.Booking.RefreshCalendars(t.Context()); err != nil {
			t.Fatal(err)
		}
		if requests.Load() != 1 {
			t.Fatalf("the worker made %d requests, want 1", requests.Load())
		}
	})
}

func TestCalendarAddressesArePublicHTTPSUnlessTheOperatorAllows(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		owner := m.user(membersAdminEmail)
		for _, bad := range []string{"http://calendar.example.com/a.ics", "https://127.0.0.1/a.ics", "https://169.254.169.254/"} {
			r := m.call(owner, "PUT", "/api/admin/booking/calendars", map[string]any{"urls": []string{bad}})
			if r.status != 400 || !strings.Contains(r.body, `"field":"urls"`) {
				t.Errorf("%s: %d %s", bad, r.status, r.body)
			}
		}
		many := make([]string, 11)
		for i := range many {
			many[i] = "https://calendar.example.com/" + string(rune('a'+i)) + ".ics"
		}
		if r := m.call(owner, "PUT", "/api/admin/booking/calendars", map[string]any{"urls": many}); r.status != 400 {
			t.Errorf("eleven calendars: %d %s", r.status, r.body)
		}
		if r := m.call(owner, "GET", "/api/admin/booking/calendars", nil); len(r.json["calendars"].([]any)) != 0 {
			t.Fatalf("a refused save wrote: %s", r.body)
		}
	})
}
