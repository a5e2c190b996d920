package community

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func validSession() SessionInput {
	n := 40
	return SessionInput{
		Title: "Agent memory", Description: "Bring questions; we build, live.", Tags: []string{"agents", " ", "memory"},
		Date: "2026-03-08", Time: "01:30", Duration: "2 hours", Timezone: "America/New_York",
		MaxAttendees: &n, MeetingID: "123 456", Password: "s3cret", JoinURL: "https://zoom.us/j/123456",
	}
}

func TestSessionValidation(t *testing.T) {
	cases := []struct {
		edit           func(*SessionInput)
		field, message string
	}{
		{func(s *SessionInput) { s.Title = " " }, "title", "Please enter a title"},
		{func(s *SessionInput) { s.Title = strings.Repeat("t", 201) }, "title", "Title must be at most 200 characters."},
		{func(s *SessionInput) { s.Date = "2026-02-30" }, "session_date", "Date must be a real date written YYYY-MM-DD."},
		{func(s *SessionInput) { s.Date = "03/08/2026" }, "session_date", "Date must be a real date written YYYY-MM-DD."},
		{func(s *SessionInput) { s.Time = "7pm" }, "session_time", "Time must be written HH:MM (24-hour)."},
		{func(s *SessionInput) { s.Duration = "a while" }, "duration", "Duration must read like '2 hours', '1.5 hours' or '45 minutes' (at most 24 hours)."},
		{func(s *SessionInput) { s.Timezone = "Eastern" }, "timezone", "Time zone must be an IANA name such as America/New_York."},
		{func(s *SessionInput) { s.Status = "archived" }, "status", "Status must be scheduled, live, completed or cancelled."},
		{func(s *SessionInput) { n := 0; s.MaxAttendees = &n }, "max_attendees", "Max attendees must be a whole number from 1 to 10000."},
		{func(s *SessionInput) { s.JoinURL = "zoom.us/j/1" }, "zoom_join_url", "Invalid join URL format"},
		{func(s *SessionInput) { s.MeetingLink = "javascript:x" }, "meeting_link", "Invalid meeting link format"},
		{func(s *SessionInput) {
			s.Tags = make([]string, 21)
			for i := range s.Tags {
				s.Tags[i] = "t"
			}
		}, "tags", "Tags must be a list of at most 20 words of up to 40 characters."},
	}
	for _, c := range cases {
		in := validSession()
		c.edit(&in)
		_, err := in.validate()
		wantInvalid(t, err, c.field, c.message)
	}
}

func TestSessionsStoreAndView(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		adminID := addUser(t, db, "admin@example.com")
		later := validSession()
		later.Date, later.Time, later.Title = "2026-12-03", "17:00", "Later"
		if _, err := CreateSession(ctx, db, adminID, later); err != nil {
			t.Fatal(err)
		}
		s, err := CreateSession(ctx, db, adminID, validSession())
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(s.Tags, ",") != "agents,memory" || s.Status != "scheduled" || *s.MaxAttendees != 40 {
			t.Fatalf("stored %+v", s)
		}
		now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
		viewers := map[string]access.Viewer{
			"free":   {UserID: "free-member"},
			"member": {UserID: "paying-member", Member: true},
			"admin":  {UserID: adminID, Admin: true},
		}
		views := map[string][]byte{}
		for name, v := range viewers {
			list, err := ListSessions(ctx, db, v, now)
			if err != nil || len(list) != 2 || list[0].ID != s.ID {
				t.Fatalf("%s: list not in date order: %v", name, err)
			}
			if got := list[0].EndsAt.Format(time.RFC3339); got != "2026-03-08T08:30:00Z" {
				t.Fatalf("ends_at %s", got)
			}
			one, err := GetSession(ctx, db, v, s.ID, now)
			if err != nil {
				t.Fatal(err)
			}
			views[name], _ = json.Marshal(list[0])
			if single, _ := json.Marshal(one); !bytes.Equal(single, views[name]) {
				t.Fatalf("%s: GetSession %s differs from ListSessions %s", name, single, views[name])
			}
		}
		if !bytes.Equal(views["member"], views["admin"]) {
			t.Errorf("members and admins see the same session: %s vs %s", views["member"], views["admin"])
		}
		free, paid := views["free"], views["member"]
		for _, secret := range []string{"zoom_meeting_id", "zoom_password", "zoom_join_url", "meeting_link", "123 456", "s3cret", "zoom.us"} {
			if bytes.Contains(free, []byte(secret)) {
				t.Errorf("free member's JSON contains %q: %s", secret, free)
			}
		}
		if !bytes.Contains(free, []byte(`"locked":true`)) || !bytes.Contains(free, []byte(`"upcoming":false`)) {
			t.Errorf("free JSON %s", free)
		}
		for _, want := range []string{`"zoom_meeting_id":"123 456"`, `"zoom_password":"s3cret"`, `"meeting_link":""`, `"locked":false`} {
			if !bytes.Contains(paid, []byte(want)) {
				t.Errorf("subscriber JSON lacks %s: %s", want, paid)
			}
		}

		upd := validSession()
		upd.Status, upd.Tags, upd.MaxAttendees = "live", nil, nil
		got, err := UpdateSession(ctx, db, s.ID, upd)
		if err != nil || got.Status != "live" || len(got.Tags) != 0 || got.MaxAttendees != nil {
			t.Fatalf("update: %+v %v", got, err)
		}
		// s is over (March 2026): SetSessionStatus would refuse to cancel it
		// (TestStatusOfAPastSession), the full edit may.
		upd.Status = "cancelled"
		got, err = UpdateSession(ctx, db, s.ID, upd)
		if err != nil || got.Status != "cancelled" {
			t.Fatalf("cancel: %+v %v", got, err)
		}
		_, err = SetSessionStatus(ctx, db, s.ID, "gone", time.Now())
		wantInvalid(t, err, "status", "Status must be scheduled, live, completed or cancelled.")
		feed, err := FeedCalendar(ctx, db, viewers["member"], "https://tribe.example")
		if err != nil || bytes.Count(feed, []byte("BEGIN:VEVENT")) != 1 || !bytes.Contains(feed, []byte("SUMMARY:Later")) {
			t.Fatalf("the feed must leave out cancelled sessions: %v\n%s", err, feed)
		}
		_, ics, err := SessionCalendar(ctx, db, viewers["free"], s.ID, "https://tribe.example")
		if err != nil || bytes.Contains(ics, []byte("s3cret")) {
			t.Fatalf("a free member's calendar file must not carry the meeting password: %v\n%s", err, ics)
		}
		_, ics, err = SessionCalendar(ctx, db, viewers["member"], s.ID, "https://tribe.example")
		if err != nil || !bytes.Contains(ics, []byte("s3cret")) {
			t.Fatalf("a member's calendar file carries the meeting password: %v\n%s", err, ics)
		}
		if err := DeleteSession(ctx, db, s.ID); err != nil {
			t.Fatal(err)
		}
		wantCode(t, DeleteSession(ctx, db, s.ID), errs.NotFound)
		_, err = UpdateSession(ctx, db, s.ID, validSession())
		wantCode(t, err, errs.NotFound)
	})
}

func TestICS(t *testing.T) {
	updated := time.Date(2026, 2, 1, 9, 0, 0, 0, time.UTC)
	in := validSession()
	in.Title = "Agents, memory; and \\ more"
	in.Description = "Line one\nLine two with a long tail: " + strings.Repeat("é", 60)
	s, err := in.validate()
	if err != nil {
		t.Fatal(err)
	}
	s.ID, s.UpdatedAt = "abc", updated
	paid := string(Calendar{BaseURL: "https://ruv.io", WithMeeting: true}.ICS([]*Session{s}))
	free := string(Calendar{BaseURL: "https://ruv.io", Name: "Tribe"}.ICS([]*Session{s}))

	for _, cal := range []string{paid, free} {
		if !strings.HasPrefix(cal, "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") || !strings.HasSuffix(cal, "END:VCALENDAR\r\n") {
			t.Fatalf("framing: %q", cal)
		}
		if strings.Contains(strings.ReplaceAll(cal, "\r\n", ""), "\n") {
			t.Fatal("a bare LF in the calendar")
		}
		for _, l := range strings.Split(strings.TrimSuffix(cal, "\r\n"), "\r\n") {
			if len(l) > 75 {
				t.Errorf("line of %d octets: %q", len(l), l)
			}
			if !utf8.ValidString(l) {
				t.Errorf("folding split a character: %q", l)
			}
		}
		unfolded := strings.ReplaceAll(cal, "\r\n ", "")
		for _, want := range []string{
			"UID:abc@ruv.io\r\n", "DTSTAMP:20260201T090000Z\r\n", "DTSTART:20260308T063000Z\r\n",
			"DTEND:20260308T083000Z\r\n", `SUMMARY:Agents\, memory\; and \\ more` + "\r\n",
			`DESCRIPTION:Line one\nLine two with a long tail: ` + strings.Repeat("é", 60), "CATEGORIES:agents,memory\r\n",
			"STATUS:CONFIRMED\r\n",
		} {
			if !strings.Contains(unfolded, want) {
				t.Errorf("calendar lacks %q:\n%s", want, unfolded)
			}
		}
	}
	if !strings.Contains(paid, "URL:https://zoom.us/j/123456\r\n") || !strings.Contains(strings.ReplaceAll(paid, "\r\n ", ""), `Password: s3cret`) {
		t.Errorf("subscriber calendar lacks meeting details:\n%s", paid)
	}
	for _, secret := range []string{"zoom.us", "s3cret", "123 456", "URL:"} {
		if strings.Contains(strings.ReplaceAll(free, "\r\n ", ""), secret) {
			t.Errorf("free calendar contains %q", secret)
		}
	}
	if !strings.Contains(free, "X-WR-CALNAME:Tribe\r\n") {
		t.Error("feed name missing")
	}
	s.Status = "cancelled"
	if !strings.Contains(string(Calendar{}.ICS([]*Session{s})), "STATUS:CANCELLED\r\n") {
		t.Error("cancelled status")
	}
}

func TestFeedTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		u := addUser(t, db, "feed@example.com")
		if f, err := GetFeed(ctx, db, u); err != nil || f != nil {
			t.Fatalf("no feed yet: %v %v", f, err)
		}
		tok, _, err := CreateFeed(ctx, db, u)
		if err != nil || len(tok) < 40 {
			t.Fatalf("token %q %v", tok, err)
		}
		if n := count(t, db, `SELECT COUNT(*) FROM calendar_feeds WHERE token_hash = $1`, tok); n != 0 {
			t.Fatal("the raw token is stored")
		}
		owner, err := LookupFeed(ctx, db, tok)
		if err != nil || owner != u {
			t.Fatalf("lookup: %q %v", owner, err)
		}
		rotated, _, err := CreateFeed(ctx, db, u)
		if err != nil || rotated == tok {
			t.Fatal("rotation must give a new token")
		}
		_, err = LookupFeed(ctx, db, tok)
		wantCode(t, err, errs.NotFound)
		if _, err := LookupFeed(ctx, db, rotated); err != nil {
			t.Fatal(err)
		}
		if err := DeleteFeed(ctx, db, u); err != nil {
			t.Fatal(err)
		}
		_, err = LookupFeed(ctx, db, rotated)
		wantCode(t, err, errs.NotFound)
	})
}

// TestPastSessionIsNeverShownAsScheduled: a session that had ended still
// carried its stored "scheduled" badge in the archive and the admin's list.
// Its state says what it is at the time of the answer.
func TestPastSessionIsNeverShownAsScheduled(t *testing.T) {
	start := time.Date(2026, 3, 8, 17, 0, 0, 0, time.UTC)
	at := func(status string) *Session {
		return &Session{Status: status, StartsAt: start, EndsAt: start.Add(2 * time.Hour)}
	}
	before, during, after := start.Add(-time.Minute), start.Add(time.Hour), start.Add(3*time.Hour)
	for _, tc := range []struct {
		status string
		now    time.Time
		want   string
	}{
		{"scheduled", before, "scheduled"},
		{"scheduled", during, "live"},
		{"scheduled", after, "ended"},
		{"scheduled", start.Add(2 * time.Hour), "ended"},
		{"live", before, "live"},
		{"live", after, "ended"},
		{"completed", after, "completed"},
		{"completed", before, "completed"},
		{"cancelled", before, "cancelled"},
		{"cancelled", during, "cancelled"},
		{"cancelled", after, "cancelled"},
	} {
		s := at(tc.status)
		if got := s.State(tc.now); got != tc.want {
			t.Errorf("%s at %s: state %q, want %q", tc.status, tc.now.Format(time.Kitchen), got, tc.want)
		}
		view, _ := json.Marshal(s.View(access.Viewer{}, tc.now))
		if want := `"status":"` + tc.status + `","state":"` + tc.want + `"`; !bytes.Contains(view, []byte(want)) {
			t.Errorf("JSON %s lacks %s", view, want)
		}
	}
}
