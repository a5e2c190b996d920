package web

import (
	"context"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/community"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestSessionCardsLinkTheirReplay: a session that is over links the
// published replay of it (its recording rather than its other items), for
// a free member as for a subscriber; an upcoming session, an unpublished
// replay and a session without one link nothing; the library's list
// filters by the session.
func TestSessionCardsLinkTheirReplay(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		c := clocktest.At(time.Date(2030, time.March, 10, 12, 0, 0, 0, time.UTC))
		m := newTestSite(t, db, membersEnv(), withClock(c.Now))
		admin, free, sub := m.user(membersAdminEmail), m.user("free@example.com"), m.user("sub@example.com")
		m.subscribe(sub, "active")
		session := func(title, date string) string {
			t.Helper()
			s, err := community.CreateSession(context.Background(), db, "", community.SessionInput{
				Title: title, Date: date, Time: "17:00", Duration: "2 hours", Timezone: "UTC"})
			if err != nil {
				t.Fatal(err)
			}
			return s.ID
		}
		past, bare, draftOnly, coming := session("Agent memory", "2030-03-02"), session("No recording", "2030-03-03"),
			session("Not yet published", "2030-03-04"), session("Next week", "2030-03-17")
		published := c.Now().Add(-time.Hour).Format(time.RFC3339)
		slides := m.libraryItem(admin, map[string]any{"kind": "material", "title": "Slides", "session_id": past, "published_at": published})
		rec := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Agent memory replay", "session_id": past,
			"published_at": c.Now().Add(-2 * time.Hour).Format(time.RFC3339)})
		m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Draft", "session_id": draftOnly})
		early := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Trailer", "session_id": coming, "published_at": published})

		want := map[string]string{past: rec, bare: "", draftOnly: "", coming: ""}
		for name, u := range map[string]testUser{"free": free, "subscriber": sub, "admin": admin} {
			r := m.call(u, "GET", "/api/sessions", nil)
			if r.status != 200 {
				t.Fatalf("%s sessions: %d %s", name, r.status, r.body)
			}
			for _, s := range r.json["sessions"].([]any) {
				s := s.(map[string]any)
				got, _ := s["replay_id"].(string)
				if got != want[s["id"].(string)] {
					t.Errorf("%s: %q links %q, want %q", name, s["title"], got, want[s["id"].(string)])
				}
			}
			one := m.call(u, "GET", "/api/sessions/"+past, nil)
			if got, _ := one.json["session"].(map[string]any)["replay_id"].(string); got != rec {
				t.Errorf("%s: one session links %q, want %q", name, got, rec)
			}
		}
		r := m.call(sub, "GET", "/api/library?session_id="+past, nil)
		items := r.json["items"].([]any)
		if r.status != 200 || len(items) != 2 {
			t.Fatalf("filtered by session: %d %s", r.status, r.body)
		}
		for _, it := range items {
			if id := it.(map[string]any)["id"]; id != rec && id != slides {
				t.Errorf("filtered list holds %v", id)
			}
		}
		if r := m.call(sub, "GET", "/api/library?session_id="+coming, nil); len(r.json["items"].([]any)) != 1 ||
			r.json["items"].([]any)[0].(map[string]any)["id"] != early {
			t.Errorf("the upcoming session's items: %s", r.body)
		}
		if r := m.call(sub, "GET", "/api/library?session_id="+bare, nil); r.status != 200 || len(r.json["items"].([]any)) != 0 {
			t.Errorf("a session without items: %d %s", r.status, r.body)
		}
	})
}

// TestInsightsCountReplaysWatched: Insights counts per month the
// recordings members played (once per member and recording, however often
// they come back), the members who played any, and the recordings
// finished; lessons and the admin's own saves of a material do not count,
// and a recording deleted later stays counted in its months.
func TestInsightsCountReplaysWatched(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		c := clocktest.At(time.Date(2030, time.January, 20, 10, 0, 0, 0, time.UTC))
		m := newTestSite(t, db, membersEnv(), withClock(c.Now))
		admin, ann, bob := m.user(membersAdminEmail), m.user("ann@example.com"), m.user("bob@example.com")
		m.subscribe(ann, "active")
		m.subscribe(bob, "active")
		published := c.Now().Add(-time.Hour).Format(time.RFC3339)
		one := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "One", "duration_s": 100, "published_at": published})
		two := m.libraryItem(admin, map[string]any{"kind": "recording", "title": "Two", "duration_s": 100, "published_at": published})
		lesson := m.libraryItem(admin, map[string]any{"kind": "lesson", "title": "Lesson", "body": "Read", "published_at": published})
		play := func(u testUser, id string, at int) {
			t.Helper()
			if r := m.call(u, "PUT", "/api/library/"+id+"/progress", map[string]any{"position_s": at}); r.status != 200 {
				t.Fatalf("progress: %d %s", r.status, r.body)
			}
		}
		// January: Ann plays One on two days and finishes it; Bob opens Two
		// at 0 s (not watched) and reads the lesson.
		play(ann, one, 30)
		c.Advance(24 * time.Hour)
		play(ann, one, 95)
		play(bob, two, 0)
		play(bob, lesson, 10)
		// February: Ann comes back to One (finished already), Bob watches Two.
		c.Set(time.Date(2030, time.February, 3, 9, 0, 0, 0, time.UTC))
		play(ann, one, 10)
		play(bob, two, 50)
		play(bob, two, 60)
		if r := m.call(admin, "DELETE", "/api/admin/library/"+two, nil); r.status != 204 {
			t.Fatalf("delete: %d", r.status)
		}

		r := m.call(admin, "GET", "/api/admin/insights?from=2030-01-01&to=2030-02-03", nil)
		if r.status != 200 {
			t.Fatalf("insights: %d %s", r.status, r.body)
		}
		type counts struct{ watched, viewers, finished float64 }
		want := map[string]counts{"2030-01": {1, 1, 1}, "2030-02": {2, 2, 0}}
		months := r.json["months"].([]any)
		if len(months) != 2 {
			t.Fatalf("months: %s", r.body)
		}
		for _, mo := range months {
			mo := mo.(map[string]any)
			got := counts{mo["replays_watched"].(float64), mo["replay_viewers"].(float64), mo["replays_finished"].(float64)}
			if got != want[mo["month"].(string)] {
				t.Errorf("%s: %+v, want %+v", mo["month"], got, want[mo["month"].(string)])
			}
		}
		// A range that starts mid-month counts only its own days.
		r = m.call(admin, "GET", "/api/admin/insights?from=2030-01-21&to=2030-01-31", nil)
		if mo := r.json["months"].([]any)[0].(map[string]any); mo["replays_watched"] != 1.0 || mo["replays_finished"] != 1.0 {
			t.Errorf("from the 21st: %v", mo)
		}
		r = m.call(admin, "GET", "/api/admin/insights?from=2030-01-22&to=2030-01-31", nil)
		if mo := r.json["months"].([]any)[0].(map[string]any); mo["replays_watched"] != 0.0 {
			t.Errorf("from the 22nd: %v", mo)
		}
	})
}
