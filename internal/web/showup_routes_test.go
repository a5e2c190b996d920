package web

import (
	"context"
	"encoding/csv"
	"net/http"
	"strings"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/clock/clocktest"
	"tribe/internal/community"
	"tribe/internal/events"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// showupSite is a members site whose rules read the test clock, 16:00 UTC
// on 2 March 2030, an hour before its one session starts.
type showupSite struct {
	*testSite
	clock   *clocktest.Clock
	session string // id of the session at 17:00 UTC for 2 hours
	start   time.Time
}

func newShowupSite(t *testing.T, db *store.DB) *showupSite {
	t.Helper()
	c := clocktest.At(time.Date(2030, time.March, 2, 16, 0, 0, 0, time.UTC))
	m := newTestSite(t, db, membersEnv(), withClock(c.Now))
	s, err := community.CreateSession(context.Background(), db, "", community.SessionInput{
		Title: "=Agent memory", Date: "2030-03-02", Time: "17:00", Duration: "2 hours", Timezone: "UTC",
		JoinURL: "https://zoom.us/j/987654321", MeetingLink: "https://meet.example/abc",
	})
	if err != nil {
		t.Fatal(err)
	}
	return &showupSite{testSite: m, clock: c, session: s.ID, start: s.StartsAt}
}

// sessionJSON is the session as u reads it from GET /api/sessions/{id}.
func (m *showupSite) sessionJSON(u testUser) map[string]any {
	m.t.Helper()
	r := m.call(u, "GET", "/api/sessions/"+m.session, nil)
	if r.status != 200 {
		m.t.Fatalf("GET session: %d %s", r.status, r.body)
	}
	return r.json["session"].(map[string]any)
}

func (m *showupSite) progress(u testUser) map[string]any {
	m.t.Helper()
	r := m.call(u, "GET", "/api/members/me/progress", nil)
	if r.status != 200 {
		m.t.Fatalf("GET progress: %d %s", r.status, r.body)
	}
	return r.json
}

// TestRSVPOverHTTPCountsAndTellsEveryTab: a subscriber's answer comes back
// in the session JSON (count and own choice), every open tab is told, and
// free members, a past session and bad bodies are refused with nothing
// written.
func TestRSVPOverHTTPCountsAndTellsEveryTab(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newShowupSite(t, db)
		ada, bob, free := m.user("ada@example.com"), m.user("bob@example.com"), m.user("free@example.com")
		m.subscribe(ada, "active")
		m.subscribe(bob, "active")
		path := "/api/sessions/" + m.session + "/rsvp"

		freeTab := openStream(t, m.srv.URL, free.token)
		freeTab.ready(t)

		r := m.call(ada, "PUT", path, map[string]any{"going": true})
		if r.status != 200 {
			t.Fatalf("RSVP: %d %s", r.status, r.body)
		}
		sess := r.json["session"].(map[string]any)
		if sess["going_count"] != 1.0 || sess["my_rsvp"] != true {
			t.Fatalf("answer: going_count %v, my_rsvp %v", sess["going_count"], sess["my_rsvp"])
		}
		freeTab.expect(t, events.TopicSessions)

		// Bob sees the count and his own (missing) answer; the free member
		// sees the count too.
		if b := m.sessionJSON(bob); b["going_count"] != 1.0 || b["my_rsvp"] != nil {
			t.Fatalf("Bob's view: %v %v", b["going_count"], b["my_rsvp"])
		}
		if f := m.sessionJSON(free); f["going_count"] != 1.0 || f["locked"] != true {
			t.Fatalf("free view: %v", f)
		}

		for _, bad := range []struct {
			u    testUser
			body any
			code int
			msg  string
		}{
			{free, map[string]any{"going": true}, 403, community.ErrRSVPForMembers.Message},
			{bob, map[string]any{}, 400, "Say whether you are going: true or false."},
			{bob, map[string]any{"going": "yes"}, 400, ""},
			{bob, `{"going": true} {"going": false}`, 400, ""},
		} {
			r := m.call(bad.u, "PUT", path, bad.body)
			if r.status != bad.code || (bad.msg != "" && r.errMessage() != bad.msg) {
				t.Errorf("%v: %d %s, want %d %q", bad.body, r.status, r.body, bad.code, bad.msg)
			}
		}
		if r := m.call(bob, "PUT", "/api/sessions/nope/rsvp", map[string]any{"going": true}); r.status != 404 {
			t.Errorf("unknown session: %d", r.status)
		}

		// At the start the RSVP closes.
		m.clock.Set(m.start)
		if r := m.call(ada, "PUT", path, map[string]any{"going": false}); r.status != 409 || r.errMessage() != community.ErrSessionStarted.Message {
			t.Errorf("after the start: %d %s", r.status, r.body)
		}
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM session_rsvps`).Scan(&n)
		if n != 1 {
			t.Fatalf("%d rsvps stored, want Ada's only", n)
		}
		if a := m.sessionJSON(ada); a["my_rsvp"] != true {
			t.Fatalf("Ada's answer changed after the start: %v", a["my_rsvp"])
		}
	})
}

// TestJoinRedirectRecordsAttendanceInItsWindow: the join URL sends a
// subscriber to the meeting every time but counts only a click from 15
// minutes before the start to the end; the dashboard's count follows, and
// the member's own tab is told.
func TestJoinRedirectRecordsAttendanceInItsWindow(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newShowupSite(t, db)
		ada, free := m.user("ada@example.com"), m.user("free@example.com")
		m.subscribe(ada, "active")
		join := "/api/sessions/" + m.session + "/join"

		tab := openStream(t, m.srv.URL, ada.token)
		tab.ready(t)

		// An hour early: redirected, nothing recorded.
		r := m.call(ada, "GET", join, nil)
		if r.status != http.StatusSeeOther || r.header.Get("Location") != "https://zoom.us/j/987654321" || r.header.Get("Cache-Control") != "no-store" {
			t.Fatalf("early join: %d %v", r.status, r.header)
		}
		if p := m.progress(ada); p["attended"] != 0.0 {
			t.Fatalf("an early click counted: %v", p)
		}
		tab.quiet(t, 200*time.Millisecond)

		m.clock.Set(m.start.Add(-10 * time.Minute))
		if r := m.call(ada, "GET", join, nil); r.status != http.StatusSeeOther {
			t.Fatalf("join in the window: %d %s", r.status, r.body)
		}
		tab.expect(t, events.TopicProgress)
		m.clock.Set(m.start.Add(time.Hour))
		m.call(ada, "GET", join, nil) // a second click is the same attendance
		if p := m.progress(ada); p["attended"] != 1.0 || p["level"] != "Apprentice" {
			t.Fatalf("after joining: %v", p)
		}

		// Free members and anonymous callers never get the link.
		for _, u := range []testUser{free, {}} {
			r := m.call(u, "GET", join, nil)
			if r.status < 400 || r.header.Get("Location") != "" || strings.Contains(r.body, "zoom.us") {
				t.Errorf("a caller without access got %d %v %s", r.status, r.header, r.body)
			}
		}
		var n int
		_ = db.Read.QueryRow(`SELECT COUNT(*) FROM session_attendance`).Scan(&n)
		if n != 1 {
			t.Fatalf("%d attendance rows, want Ada's only", n)
		}
	})
}

// TestAttendanceSheetJSONCSVAndCorrections: the admin's sheet lists who
// answered, joined or was marked, as JSON or CSV (by query or Accept), and
// a correction says who made it; refused before the start.
func TestAttendanceSheetJSONCSVAndCorrections(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newShowupSite(t, db)
		admin := m.user(membersAdminEmail)
		m.exec(`UPDATE profiles SET full_name = 'Owner' WHERE id = $1`, admin.id)
		ada, bob := m.user("ada@example.com"), m.user("bob@example.com")
		m.exec(`UPDATE profiles SET full_name = '=1+2' WHERE id = $1`, bob.id)
		m.subscribe(ada, "active")
		m.subscribe(bob, "active")
		sheetPath := "/api/admin/sessions/" + m.session + "/attendance"

		m.call(ada, "PUT", "/api/sessions/"+m.session+"/rsvp", map[string]any{"going": true})
		if r := m.call(admin, "PUT", sheetPath, map[string]any{"user_id": bob.id, "present": true}); r.status != 409 {
			t.Fatalf("a correction before the start: %d %s", r.status, r.body)
		}

		m.clock.Set(m.start.Add(5 * time.Minute))
		m.call(ada, "GET", "/api/sessions/"+m.session+"/join", nil)
		m.clock.Set(m.start.Add(3 * time.Hour))
		for _, bad := range []map[string]any{{"user_id": bob.id}, {"present": true}, {"user_id": "nobody", "present": true}} {
			if r := m.call(admin, "PUT", sheetPath, bad); r.status != 400 && r.status != 404 {
				t.Errorf("%v: %d %s", bad, r.status, r.body)
			}
		}
		bobTab := openStream(t, m.srv.URL, bob.token)
		bobTab.ready(t)
		r := m.call(admin, "PUT", sheetPath, map[string]any{"user_id": bob.id, "present": true})
		if r.status != 200 {
			t.Fatalf("correction: %d %s", r.status, r.body)
		}
		bobTab.expect(t, events.TopicProgress)
		if r.json["present"] != 2.0 || r.json["going"] != 1.0 || len(r.json["rows"].([]any)) != 2 {
			t.Fatalf("sheet: %s", r.body)
		}
		var bobRow map[string]any
		for _, row := range r.json["rows"].([]any) {
			if row := row.(map[string]any); row["user_id"] == bob.id {
				bobRow = row
			}
		}
		if bobRow["correction"] != "present" || bobRow["corrected_by"] != "Owner" || bobRow["corrected_at"] == nil || bobRow["joined_at"] != nil {
			t.Fatalf("Bob's row: %v", bobRow)
		}
		if p := m.progress(bob); p["attended"] != 1.0 {
			t.Fatalf("Bob marked present: %v", p)
		}

		for _, req := range []struct{ path, accept string }{{sheetPath + "?format=csv", ""}, {sheetPath, "text/csv"}, {sheetPath, "application/json;q=0.5, text/csv"}} {
			hr, _ := http.NewRequest("GET", m.srv.URL+req.path, nil)
			hr.AddCookie(&http.Cookie{Name: auth.CookieName, Value: admin.token})
			if req.accept != "" {
				hr.Header.Set("Accept", req.accept)
			}
			r := m.do(hr)
			if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/csv") ||
				r.header.Get("Content-Disposition") != `attachment; filename="attendance-2030-03-02-agent-memory.csv"` {
				t.Fatalf("%+v: %d %v", req, r.status, r.header)
			}
			recs, err := csv.NewReader(strings.NewReader(r.body)).ReadAll()
			if err != nil || len(recs) != 3 || !strings.Contains(r.body, "\r\n") {
				t.Fatalf("CSV %q: %v", r.body, err)
			}
			if !strings.Contains(r.body, "'=1+2") {
				t.Errorf("a formula-like name was not neutralised: %q", r.body)
			}
		}
		// A JSON Accept still gets JSON.
		if r := m.call(admin, "GET", sheetPath, nil); r.status != 200 || r.json["session_id"] != m.session {
			t.Fatalf("JSON sheet: %d %s", r.status, r.body)
		}
	})
}

// TestAwardsFlowRaisesTheLevelAndCongratulatesOnce: a subscriber with three
// sessions suggests a contribution, an admin accepts it, the member is a
// Contributor and is congratulated once.
func TestAwardsFlowRaisesTheLevelAndCongratulatesOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newShowupSite(t, db)
		admin, ada, free := m.user(membersAdminEmail), m.user("ada@example.com"), m.user("free@example.com")
		m.subscribe(ada, "active")
		ctx := context.Background()
		for i := range 3 {
			s, err := community.CreateSession(ctx, db, "", community.SessionInput{Title: "Past", Date: "2030-02-0" + string(rune('1'+i)), Time: "17:00", Duration: "1 hour", Timezone: "UTC"})
			if err != nil {
				t.Fatal(err)
			}
			if r := m.call(admin, "PUT", "/api/admin/sessions/"+s.ID+"/attendance", map[string]any{"user_id": ada.id, "present": true}); r.status != 200 {
				t.Fatalf("mark present: %d %s", r.status, r.body)
			}
		}
		p := m.progress(ada)
		next := p["next"].(map[string]any)
		if p["level"] != "Apprentice" || p["attended"] != 3.0 || next["level"] != "Contributor" || next["fraction"] != 0.5 {
			t.Fatalf("three sessions: %v", p)
		}
		for _, key := range []string{"level", "attended", "projects", "contributions", "mentored", "workshops", "next"} {
			if _, ok := p[key]; !ok {
				t.Errorf("progress lacks %q", key)
			}
		}

		if r := m.call(free, "POST", "/api/members/me/awards", map[string]string{"kind": "contribution", "note": "x"}); r.status != 403 {
			t.Fatalf("a free member suggested: %d", r.status)
		}
		if r := m.call(ada, "POST", "/api/members/me/awards", map[string]string{"kind": "karma", "note": "x"}); r.status != 400 {
			t.Fatalf("an unknown kind: %d", r.status)
		}
		r := m.call(ada, "POST", "/api/members/me/awards", map[string]string{"kind": "contribution", "note": "Wrote the evals guide"})
		if r.status != 201 {
			t.Fatalf("suggest: %d %s", r.status, r.body)
		}
		id := r.json["award"].(map[string]any)["id"].(string)
		if r := m.call(admin, "GET", "/api/admin/awards", nil); len(r.json["awards"].([]any)) != 1 {
			t.Fatalf("admin list: %s", r.body)
		}
		adaTab := openStream(t, m.srv.URL, ada.token)
		adaTab.ready(t)
		if r := m.call(admin, "POST", "/api/admin/awards/"+id+"/accept", nil); r.status != 200 {
			t.Fatalf("accept: %d %s", r.status, r.body)
		}
		adaTab.expect(t, events.TopicProgress)
		if r := m.call(admin, "POST", "/api/admin/awards/"+id+"/accept", nil); r.status != 409 {
			t.Fatalf("accept twice: %d", r.status)
		}
		p = m.progress(ada)
		if p["level"] != "Contributor" || p["reached"] != "Contributor" || p["contributions"] != 1.0 {
			t.Fatalf("after the contribution: %v", p)
		}
		if r := m.call(ada, "PUT", "/api/members/me/progress/seen", map[string]string{"level": "Master"}); r.status != 409 {
			t.Fatalf("seen a level not reached: %d", r.status)
		}
		if r := m.call(ada, "PUT", "/api/members/me/progress/seen", map[string]string{"level": "Contributor"}); r.status != 204 {
			t.Fatalf("seen: %d %s", r.status, r.body)
		}
		if p := m.progress(ada); p["reached"] != nil {
			t.Fatalf("congratulated twice: %v", p)
		}
		if r := m.call(ada, "GET", "/api/members/me/awards", nil); len(r.json["awards"].([]any)) != 1 {
			t.Fatalf("own awards: %s", r.body)
		}
	})
}
