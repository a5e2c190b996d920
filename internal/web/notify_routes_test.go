package web

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/community"
	"tribe/internal/notify"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// post sends a POST the way a mail provider or a browser form does, with
// no session cookie.
func post(t *testing.T, rawURL string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", rawURL, strings.NewReader("List-Unsubscribe=One-Click"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := noRedirects.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(raw)
}

// One-click unsubscribe (RFC 8058) that unsubscribes on GET (link scanners
// open every link), or that a mail provider's POST cannot reach because it
// has no session or comes from another site: opening the link shows a
// question and changes nothing; the provider's POST, without a cookie and
// cross-site, turns the mail off; the confirm page's own form does too and
// answers with a page; a forged token changes nothing.
func TestOneClickUnsubscribeWorksSignedOutAndNeverOnGet(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ctx := context.Background()
		ada := m.user("ada@example.com")
		svc := m.s.Services.Notify
		link, err := svc.UnsubscribeURL(ctx, ada.id, notify.KindSessionReminders)
		if err != nil {
			t.Fatal(err)
		}
		u, _ := url.Parse(link)
		local := m.srv.URL + u.RequestURI()
		settings := func() notify.Settings {
			t.Helper()
			st, err := svc.SettingsOf(ctx, ada.id)
			if err != nil {
				t.Fatal(err)
			}
			return st
		}
		for range 3 {
			r := m.call(testUser{}, "GET", u.RequestURI(), nil)
			if r.status != 200 || !strings.Contains(r.body, "Stop session reminders?") || !strings.Contains(r.body, `method="post"`) {
				t.Fatalf("confirm page: %d %s", r.status, r.body)
			}
			if r.header.Get("Cache-Control") != "no-store" || r.header.Get("Referrer-Policy") != "no-referrer" {
				t.Fatalf("confirm page headers: %v", r.header)
			}
		}
		if !settings().SessionReminders {
			t.Fatal("a GET unsubscribed")
		}
		if status, body := post(t, m.srv.URL+"/api/unsubscribe?token=forged.token", nil); status != 400 || !strings.Contains(body, "invalid_token") {
			t.Fatalf("forged token: %d %s", status, body)
		}
		if status, body := post(t, local, map[string]string{"Sec-Fetch-Site": "cross-site", "Origin": "https://mail.example"}); status != 200 ||
			!strings.Contains(body, `"kind":"session_reminders"`) {
			t.Fatalf("provider's one-click POST: %d %s", status, body)
		}
		if st := settings(); st.SessionReminders || !st.WeeklyDigest {
			t.Fatalf("after one-click: %+v", st)
		}
		status, body := post(t, local, map[string]string{"Accept": "text/html,application/xhtml+xml", "Sec-Fetch-Site": "same-origin"})
		if status != 200 || !strings.Contains(body, "You are unsubscribed") || !strings.Contains(body, "session reminders") {
			t.Fatalf("confirm form's POST: %d %s", status, body)
		}
	})
}

// Settings a member cannot trust: defaults are every mail on and no zone;
// a change is kept, a wrong type or an unknown zone is refused with the
// field named and saves nothing, and the member's reminders state times in
// the zone they chose.
func TestNotificationSettingsDefaultsValidationAndSaving(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ada := m.user("ada@example.com")
		r := m.call(ada, "GET", "/api/members/me/notifications", nil)
		if r.status != 200 || r.json["session_reminders"] != true || r.json["weekly_digest"] != true || r.json["time_zone"] != "" {
			t.Fatalf("defaults: %d %s", r.status, r.body)
		}
		for _, bad := range []any{
			map[string]any{"time_zone": "Mars/Olympus", "weekly_digest": false},
			map[string]any{"weekly_digest": "no"},
			`{"weekly_digest": false} {}`,
		} {
			r := m.call(ada, "PUT", "/api/members/me/notifications", bad)
			if r.status != 400 {
				t.Fatalf("%v: %d %s", bad, r.status, r.body)
			}
		}
		r = m.call(ada, "PUT", "/api/members/me/notifications", map[string]any{"time_zone": "Mars/Olympus", "weekly_digest": false})
		if e, _ := r.json["error"].(map[string]any); e["field"] != "time_zone" {
			t.Fatalf("refusal names no field: %s", r.body)
		}
		if r := m.call(ada, "GET", "/api/members/me/notifications", nil); r.json["weekly_digest"] != true {
			t.Fatalf("a refused change was half-saved: %s", r.body)
		}
		r = m.call(ada, "PUT", "/api/members/me/notifications", map[string]any{"weekly_digest": false, "time_zone": "Asia/Kolkata"})
		if r.status != 200 || r.json["weekly_digest"] != false || r.json["time_zone"] != "Asia/Kolkata" || r.json["session_reminders"] != true {
			t.Fatalf("saved: %d %s", r.status, r.body)
		}
	})
}

// The digest and the at-risk list are only as good as "last seen": a
// signed-in request records the visit (once an hour), and an admin's move
// or cancel of a session through the site drops its queued reminders.
func TestVisitRecordedAndSessionChangeDropsQueuedReminders(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		c := clocktest.At(time.Date(2030, time.March, 1, 9, 0, 0, 0, time.UTC))
		m := newTestSite(t, db, membersEnv(), withClock(c.Now))
		ctx := context.Background()
		ada := m.user("ada@example.com")
		m.subscribe(ada, "active")
		admin := m.user(membersAdminEmail)
		if r := m.call(ada, "GET", "/api/members/me/notifications", nil); r.status != 200 {
			t.Fatal(r.body)
		}
		var seen store.Time
		if err := db.Read.QueryRow(`SELECT last_seen_at FROM member_activity WHERE user_id = $1`, ada.id).Scan(&seen); err != nil || !seen.Equal(c.Now()) {
			t.Fatalf("visit not recorded: %v %v", seen, err)
		}
		s, err := community.CreateSession(ctx, db, "", community.SessionInput{Title: "Build", Date: "2030-03-02", Time: "09:00",
			Duration: "1 hour", Timezone: "UTC", JoinURL: "https://meet.example/x"})
		if err != nil {
			t.Fatal(err)
		}
		if n, err := m.s.Services.Notify.PlanReminders(ctx); err != nil || n != 1 {
			t.Fatalf("planned %d (%v), want 1", n, err)
		}
		r := m.call(admin, "PUT", "/api/admin/sessions/"+s.ID+"/status", map[string]string{"status": "cancelled"})
		if r.status != 200 {
			t.Fatalf("cancel: %d %s", r.status, r.body)
		}
		var left int
		if err := db.Read.QueryRow(`SELECT COUNT(*) FROM mail_outbox WHERE idempotency_key LIKE 'session-reminder-%'`).Scan(&left); err != nil || left != 0 {
			t.Fatalf("%d reminders left after the cancel (%v)", left, err)
		}
		if n, err := m.s.Services.Notify.PlanReminders(ctx); err != nil || n != 0 {
			t.Fatalf("planned %d for a cancelled session (%v)", n, err)
		}
	})
}

// A member who never opened Profile got reminders in UTC: the browser's
// zone, sent with the sign-up and the sign-in, becomes the reminder zone
// when none is set; a zone the member chose is never replaced, and a zone
// the server does not know neither fails the sign-in nor is saved.
func TestMemberWhoNeverOpenedProfileGetsTheBrowserZoneAtSignIn(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		zoneOf := func(b *browser) any {
			t.Helper()
			r := b.do("GET", "/api/members/me/notifications", nil)
			if r.status != 200 {
				t.Fatalf("settings: %d %s", r.status, r.body)
			}
			return r.json["time_zone"]
		}
		ada := newBrowser(t, m.srv)
		r := ada.do("POST", "/api/auth/signup", map[string]string{"full_name": "Ada", "email": "ada@example.com",
			"password": "analytical", "time_zone": "Europe/Berlin"})
		if r.status != 201 {
			t.Fatalf("sign-up: %d %s", r.status, r.body)
		}
		if z := zoneOf(ada); z != "Europe/Berlin" {
			t.Fatalf("zone after sign-up %v", z)
		}
		// Signing in from a browser elsewhere keeps the zone the account has.
		r = ada.do("POST", "/api/auth/signin", map[string]string{"email": "ada@example.com", "password": "analytical", "time_zone": "Asia/Tokyo"})
		if r.status != 200 || zoneOf(ada) != "Europe/Berlin" {
			t.Fatalf("sign-in replaced the zone: %d %v", r.status, zoneOf(ada))
		}

		bob := newBrowser(t, m.srv)
		if r := bob.signUp("Bob", "bob@example.com", "analytical"); r.status != 201 {
			t.Fatalf("sign-up: %d %s", r.status, r.body)
		}
		if z := zoneOf(bob); z != "" {
			t.Fatalf("zone without one sent %v", z)
		}
		r = bob.do("POST", "/api/auth/signin", map[string]string{"email": "bob@example.com", "password": "analytical", "time_zone": "Mars/Olympus"})
		if r.status != 200 || zoneOf(bob) != "" {
			t.Fatalf("unknown zone: %d %s, saved %v", r.status, r.body, zoneOf(bob))
		}
		r = bob.do("POST", "/api/auth/signin", map[string]string{"email": "bob@example.com", "password": "analytical", "time_zone": "America/Chicago"})
		if r.status != 200 || zoneOf(bob) != "America/Chicago" {
			t.Fatalf("sign-in did not adopt the zone: %d %v", r.status, zoneOf(bob))
		}
	})
}
