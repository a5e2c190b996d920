package web

import (
	"strings"
	"sync"
	"testing"

	"tribe/internal/events"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func (m *testSite) count(query string, args ...any) int {
	m.t.Helper()
	var n int
	if err := m.db.Read.QueryRowContext(m.t.Context(), query, args...).Scan(&n); err != nil {
		m.t.Fatalf("%s: %v", query, err)
	}
	return n
}

func projectOf(r reply) map[string]any {
	p, _ := r.json["project"].(map[string]any)
	return p
}

// TestProjectsBoardOverHTTPIsLiveCountsAndModerated: a subscriber shares
// a project, every open tab is told, another reacts (twice: still one) and
// comments (live too), the project counts towards the author's level; bad
// input is refused with its field and nothing written; an admin hides the
// project with a reason, which only the author reads, and it stops
// counting.
func TestProjectsBoardOverHTTPIsLiveCountsAndModerated(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ada, bob, free, boss := m.user("ada@example.com"), m.user("bob@example.com"), m.user("free@example.com"), m.user(membersAdminEmail)
		m.subscribe(ada, "active")
		m.subscribe(bob, "active")

		bobTab := openStream(t, m.srv.URL, bob.token)
		bobTab.ready(t)

		for _, bad := range []struct {
			body  map[string]any
			field string
		}{
			{map[string]any{"title": "", "link": "https://x.dev", "description": "d"}, "title"},
			{map[string]any{"title": "T", "link": "javascript:alert(1)", "description": "d"}, "link"},
			{map[string]any{"title": "T", "link": "https://x.dev", "description": strings.Repeat("d", 501)}, "description"},
			{map[string]any{"title": "T", "link": "https://x.dev", "description": "d", "repo_url": "git@github.com:a/b"}, "repo_url"},
		} {
			r := m.call(ada, "POST", "/api/projects", bad.body)
			if r.status != 400 || r.errField() != bad.field {
				t.Errorf("POST %v: %d %s, want 400 on %s", bad.body, r.status, r.body, bad.field)
			}
		}
		if r := m.call(free, "POST", "/api/projects", map[string]any{"title": "T", "link": "https://x.dev", "description": "d"}); r.status != 403 {
			t.Fatalf("a free member posts: %d %s", r.status, r.body)
		}
		if n := m.count(`SELECT COUNT(*) FROM projects`); n != 0 {
			t.Fatalf("%d projects written by refused posts", n)
		}

		r := m.call(ada, "POST", "/api/projects", map[string]any{"title": "Agent memory kit", "link": "https://example.com/kit",
			"description": "Memory for agents.", "repo_url": "https://github.com/ada/kit", "tags": []string{"Go", "agents"}})
		if r.status != 201 {
			t.Fatalf("share: %d %s", r.status, r.body)
		}
		p := projectOf(r)
		id := p["id"].(string)
		if p["mine"] != true || p["reactions"] != 0.0 || p["author_name"] != "ada" {
			t.Fatalf("shared project: %v", p)
		}
		bobTab.expect(t, events.TopicProjects)
		if got := m.call(ada, "GET", "/api/members/me/progress", nil); got.json["projects"] != 1.0 {
			t.Fatalf("progress after sharing: %s", got.body)
		}

		for range 2 {
			r = m.call(bob, "PUT", "/api/projects/"+id+"/reaction", nil)
			if r.status != 200 || projectOf(r)["reactions"] != 1.0 || projectOf(r)["reacted"] != true {
				t.Fatalf("react: %d %s", r.status, r.body)
			}
		}
		if r := m.call(ada, "PUT", "/api/projects/"+id+"/reaction", nil); r.status != 409 {
			t.Fatalf("reacting to one's own project: %d %s", r.status, r.body)
		}
		if r := m.call(bob, "POST", "/api/projects/"+id+"/comments", map[string]any{"body": strings.Repeat("x", 2001)}); r.status != 400 || r.errField() != "body" {
			t.Fatalf("oversized comment: %d %s", r.status, r.body)
		}
		r = m.call(bob, "POST", "/api/projects/"+id+"/comments", map[string]any{"body": "Lovely <b>work</b>"})
		if r.status != 201 {
			t.Fatalf("comment: %d %s", r.status, r.body)
		}
		bobTab.expect(t, events.TopicProjects)
		r = m.call(free, "GET", "/api/projects/"+id+"/comments", nil)
		list, _ := r.json["comments"].([]any)
		if r.status != 200 || len(list) != 1 || list[0].(map[string]any)["body"] != "Lovely <b>work</b>" {
			t.Fatalf("comments as a free member: %d %s", r.status, r.body)
		}
		if r := m.call(free, "GET", "/api/projects", nil); r.json["can_post"] != false || len(r.json["projects"].([]any)) != 1 {
			t.Fatalf("board as a free member: %s", r.body)
		}

		if r := m.call(bob, "PATCH", "/api/projects/"+id, map[string]any{"title": "Bob's now"}); r.status != 403 {
			t.Fatalf("another member edits: %d %s", r.status, r.body)
		}
		if r := m.call(boss, "PATCH", "/api/projects/"+id, map[string]any{"hidden": true}); r.status != 400 || r.errField() != "hidden_reason" {
			t.Fatalf("hiding without a reason: %d %s", r.status, r.body)
		}
		if r := m.call(boss, "PATCH", "/api/projects/"+id, map[string]any{"hidden": true, "hidden_reason": "Broken link"}); r.status != 200 {
			t.Fatalf("hide: %d %s", r.status, r.body)
		}
		if r := m.call(bob, "GET", "/api/projects", nil); len(r.json["projects"].([]any)) != 0 {
			t.Fatalf("another member still sees the hidden project: %s", r.body)
		}
		if r := m.call(bob, "GET", "/api/projects/"+id+"/comments", nil); r.status != 404 {
			t.Fatalf("comments of a hidden project: %d", r.status)
		}
		r = m.call(ada, "GET", "/api/projects?author=me", nil)
		own := r.json["projects"].([]any)
		if len(own) != 1 || own[0].(map[string]any)["hidden_reason"] != "Broken link" {
			t.Fatalf("the author's view: %s", r.body)
		}
		if got := m.call(ada, "GET", "/api/members/me/progress", nil); got.json["projects"] != 0.0 {
			t.Fatalf("a hidden project still counts: %s", got.body)
		}
		if r := m.call(ada, "DELETE", "/api/projects/"+id, nil); r.status != 204 {
			t.Fatalf("the author deletes: %d %s", r.status, r.body)
		}
		if n := m.count(`SELECT COUNT(*) FROM project_comments`) + m.count(`SELECT COUNT(*) FROM project_reactions`); n != 0 {
			t.Fatalf("%d reactions and comments left behind", n)
		}
	})
}

// TestReactionsOverHTTPCountOncePerMemberAtOnce: 20 subscribers each
// sending the reaction three times at once leave a count of 20.
func TestReactionsOverHTTPCountOncePerMemberAtOnce(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ada := m.user("ada@example.com")
		m.subscribe(ada, "active")
		r := m.call(ada, "POST", "/api/projects", map[string]any{"title": "Kit", "link": "https://example.com/", "description": "A kit."})
		id := projectOf(r)["id"].(string)
		fans := make([]testUser, 20)
		for i := range fans {
			fans[i] = m.user("fan" + store.NewID()[:8] + "@example.com")
			m.subscribe(fans[i], "active")
		}
		var wg sync.WaitGroup
		statuses := make(chan int, 3*len(fans))
		for _, f := range fans {
			for range 3 {
				wg.Add(1)
				go func() {
					defer wg.Done()
					statuses <- m.call(f, "PUT", "/api/projects/"+id+"/reaction", nil).status
				}()
			}
		}
		wg.Wait()
		close(statuses)
		for s := range statuses {
			if s != 200 {
				t.Fatalf("a reaction answered %d", s)
			}
		}
		list := m.call(ada, "GET", "/api/projects", nil).json["projects"].([]any)
		if n := list[0].(map[string]any)["reactions"]; n != float64(len(fans)) {
			t.Fatalf("reactions %v, want %d", n, len(fans))
		}
	})
}

// TestDirectoryOverHTTPShowsOnlyOptedInMembersAndNoAddress: a member is
// listed once they tick "Show me in the member directory" and gone when
// they untick it; the answer never holds an address; free members get
// 403; the search narrows.
func TestDirectoryOverHTTPShowsOnlyOptedInMembersAndNoAddress(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		ada, shy, free := m.user("ada@example.com"), m.user("shy@example.com"), m.user("free@example.com")
		m.subscribe(ada, "active")
		m.subscribe(shy, "active")
		if r := m.call(ada, "GET", "/api/profile", nil); r.json["profile"].(map[string]any)["in_directory"] != false {
			t.Fatalf("the directory is not off by default: %s", r.body)
		}
		if r := m.call(ada, "PUT", "/api/profile", map[string]any{"in_directory": true, "job_title": "Agent engineer", "company": "Lovelace Labs"}); r.status != 200 {
			t.Fatalf("opt in: %d %s", r.status, r.body)
		}
		if r := m.call(shy, "PUT", "/api/profile", map[string]any{"job_title": "Agent engineer"}); r.status != 200 {
			t.Fatal(r.body)
		}
		r := m.call(shy, "GET", "/api/members/directory", nil)
		members := r.json["members"].([]any)
		if r.status != 200 || len(members) != 1 || members[0].(map[string]any)["id"] != ada.id {
			t.Fatalf("directory: %d %s", r.status, r.body)
		}
		if strings.Contains(r.body, "@") || strings.Contains(r.body, "shy") {
			t.Fatalf("the directory shows an address or an opted-out member: %s", r.body)
		}
		if e := members[0].(map[string]any); e["level"] != "Apprentice" || e["company"] != "Lovelace Labs" {
			t.Fatalf("entry: %v", e)
		}
		if r := m.call(shy, "GET", "/api/members/directory?q=lovelace+ENGINEER", nil); len(r.json["members"].([]any)) != 1 {
			t.Fatalf("search: %s", r.body)
		}
		if r := m.call(shy, "GET", "/api/members/directory?q=paris", nil); len(r.json["members"].([]any)) != 0 {
			t.Fatalf("search with no match: %s", r.body)
		}
		if r := m.call(shy, "GET", "/api/members/directory?q="+strings.Repeat("q", 101), nil); r.status != 400 || r.errField() != "q" {
			t.Fatalf("long search: %d %s", r.status, r.body)
		}
		if r := m.call(free, "GET", "/api/members/directory", nil); r.status != 403 {
			t.Fatalf("a free member reads the directory: %d %s", r.status, r.body)
		}
		if r := m.call(ada, "PUT", "/api/profile", map[string]any{"in_directory": false}); r.status != 200 {
			t.Fatal(r.body)
		}
		if r := m.call(shy, "GET", "/api/members/directory", nil); len(r.json["members"].([]any)) != 0 {
			t.Fatalf("after opting out: %s", r.body)
		}
	})
}
