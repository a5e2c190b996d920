package web

import (
	"strings"
	"testing"
	"time"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func ptr[T any](v T) *T { return &v }

// libraryItem creates an item through the admin route and returns its id.
func (m *testSite) libraryItem(admin testUser, body map[string]any) string {
	m.t.Helper()
	r := m.call(admin, "POST", "/api/admin/library", body)
	if r.status != 201 {
		m.t.Fatalf("create item: %d %s", r.status, r.body)
	}
	return r.json["item"].(map[string]any)["id"].(string)
}

// TestLibraryRoutes: the list and an item as a free member (locked, no
// link), a subscriber (open, progress saved) and an admin (stats), and the
// admin's input refused with a 400 naming the field.
func TestLibraryRoutes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		admin, free, sub := m.user(membersAdminEmail), m.user("free@example.com"), m.user("sub@example.com")
		m.subscribe(sub, "active")
		past := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
		id := m.libraryItem(admin, map[string]any{"kind": "link", "title": "Kickoff replay", "url": "https://vimeo.com/123456789",
			"tags": []string{"kickoff"}, "duration_s": 100, "published_at": past, "chapters": []map[string]any{{"start_s": 50, "title": "Q&A"}, {"start_s": 0, "title": "Intro"}}})
		high := m.libraryItem(admin, map[string]any{"kind": "lesson", "title": "Masterclass", "body": "# Deep", "min_level": 5, "published_at": past})

		r := m.call(free, "GET", "/api/library", nil)
		if r.status != 200 || len(r.json["items"].([]any)) != 2 {
			t.Fatalf("free list: %d %s", r.status, r.body)
		}
		r = m.call(free, "GET", "/api/library/"+id, nil)
		it := r.json["item"].(map[string]any)
		if r.status != 200 || it["locked"] != true || it["lock_reason"] != "membership" || it["embed_url"] != "" || it["url"] != "" {
			t.Errorf("free item: %s", r.body)
		}
		r = m.call(sub, "GET", "/api/library/"+id, nil)
		it = r.json["item"].(map[string]any)
		if it["locked"] != false || it["embed_url"] != "https://player.vimeo.com/video/123456789?dnt=1" {
			t.Errorf("subscriber item: %s", r.body)
		}
		if ch := it["chapters"].([]any); len(ch) != 2 || ch[0].(map[string]any)["title"] != "Intro" {
			t.Errorf("chapters not in order: %v", ch)
		}
		r = m.call(sub, "GET", "/api/library/"+high, nil)
		it = r.json["item"].(map[string]any)
		if it["locked"] != true || it["lock_reason"] != "level" || it["required_level"] != "Master" || it["body"] != "" {
			t.Errorf("level-locked item: %s", r.body)
		}
		if r := m.call(sub, "PUT", "/api/library/"+high+"/progress", map[string]any{"position_s": 1}); r.status != 403 || !strings.Contains(r.body, "Master") {
			t.Errorf("progress on a level-locked item: %d %s", r.status, r.body)
		}
		r = m.call(sub, "PUT", "/api/library/"+id+"/progress", map[string]any{"position_s": 95})
		if r.status != 200 || r.json["progress"].(map[string]any)["completed"] != true {
			t.Errorf("progress: %d %s", r.status, r.body)
		}
		r = m.call(admin, "GET", "/api/admin/library/"+id+"/stats", nil)
		if r.status != 200 || r.json["started"] != 1.0 || r.json["finished"] != 1.0 {
			t.Errorf("stats: %d %s", r.status, r.body)
		}
		for body, field := range map[string]string{
			`{"kind": "podcast", "title": "T"}`:                     "kind",
			`{"kind": "lesson", "title": ""}`:                       "title",
			`{"kind": "lesson", "title": "T", "tags": "x"}`:         "tags",
			`{"kind": "lesson", "title": "T", "min_level": "high"}`: "min_level",
			`{"kind": "link", "title": "T", "url": "ftp://x"}`:      "url",
		} {
			r := m.call(admin, "POST", "/api/admin/library", body)
			e, _ := r.json["error"].(map[string]any)
			if r.status != 400 || e["field"] != field {
				t.Errorf("%s: %d %s; want 400 naming %s", body, r.status, r.body, field)
			}
		}
		if r := m.call(admin, "PATCH", "/api/admin/library/"+id, map[string]any{"published_at": nil}); r.status != 200 {
			t.Fatalf("unpublish: %d %s", r.status, r.body)
		}
		if r := m.call(sub, "GET", "/api/library/"+id, nil); r.status != 404 {
			t.Errorf("unpublished item for a member: %d", r.status)
		}
		if r := m.call(admin, "DELETE", "/api/admin/library/"+id, nil); r.status != 204 {
			t.Errorf("delete: %d", r.status)
		}
		if r := m.call(admin, "GET", "/api/library/"+id, nil); r.status != 404 {
			t.Errorf("deleted item: %d", r.status)
		}
	})
}
