package web

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/kb"
	"tribe/internal/kb/kbtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestDocumentRoutes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, membersEnv())
		root := m.user(membersAdminEmail)
		docs := func() int {
			var n int
			if err := db.Read.QueryRow(`SELECT count(*) FROM documents`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}

		r := m.call(root, "POST", "/api/admin/documents", map[string]any{"title": "Office hours", "content": "Fridays at noon.", "tags": []string{"schedule"}})
		if r.status != 201 {
			t.Fatalf("create: %d %s", r.status, r.body)
		}
		doc := r.json["document"].(map[string]any)
		md := doc["metadata"].(map[string]any)
		if md["title"] != "Office hours" || md["category"] != "manual" || doc["seeded"] != false || doc["id"] == "" {
			t.Fatalf("created: %s", r.body)
		}
		id := doc["id"].(string)

		r = m.call(root, "PUT", "/api/admin/documents/"+id, map[string]any{"title": "Office hours (new)", "content": "Thursdays at noon."})
		if r.status != 200 || r.json["document"].(map[string]any)["content"] != "Thursdays at noon." {
			t.Fatalf("update: %d %s", r.status, r.body)
		}
		r = m.call(root, "GET", "/api/admin/documents?limit=10&offset=0", nil)
		if r.status != 200 || r.json["total"] != float64(1) || len(r.json["documents"].([]any)) != 1 {
			t.Fatalf("list: %d %s", r.status, r.body)
		}
		for _, q := range []string{"?limit=abc", "?limit=0.5", "?offset=-1", "?limit=1000"} {
			if r := m.call(root, "GET", "/api/admin/documents"+q, nil); r.status != 400 || r.errCode() != "invalid" {
				t.Errorf("list%s: %d %s", q, r.status, r.body)
			}
		}

		// Bad input gets a clear error and writes nothing.
		before := docs()
		bad := []struct {
			body   any
			status int
			msg    string
		}{
			{map[string]any{"content": "no title"}, 400, "Please fill in all required fields"},
			{map[string]any{"title": "no content"}, 400, "Please fill in all required fields"},
			{map[string]any{"title": 5, "content": "x"}, 400, "Title must be text."},
			{map[string]any{"title": "t", "content": "x", "tags": "one"}, 400, "Tags must be a list of at most 20 words of up to 40 characters."},
			{map[string]any{"title": "t", "content": "x", "category": []int{1}}, 400, "Category must be text."},
			{map[string]any{"title": "t", "content": strings.Repeat("a", 210<<10)}, 413, "Content must be at most 200 KB."},
			{map[string]any{"title": "t", "content": strings.Repeat("a", 1<<20)}, 413, "The request body is too large."},
			{`{"title": "t", "content": "x"} trailing`, 400, "The request body must hold one JSON object and nothing after it."},
			{`["not", "an", "object"]`, 400, "The request body must be a JSON object."},
		}
		for i, c := range bad {
			for _, method := range []string{"POST", "PUT"} {
				path := "/api/admin/documents"
				if method == "PUT" {
					path += "/" + id
				}
				r := m.call(root, method, path, c.body)
				if r.status != c.status || r.errMessage() != c.msg {
					t.Errorf("case %d %s: %d %q", i, method, r.status, r.errMessage())
				}
			}
		}
		if docs() != before {
			t.Fatalf("bad input wrote documents: %d, want %d", docs(), before)
		}
		if r := m.call(root, "GET", "/api/admin/documents", nil); !strings.Contains(r.body, "Thursdays at noon.") {
			t.Fatalf("a refused edit changed the document: %s", r.body)
		}
		if r := m.call(root, "PUT", "/api/admin/documents/"+store.NewID(), map[string]any{"title": "t", "content": "c"}); r.status != 404 {
			t.Fatalf("update unknown: %d", r.status)
		}

		if r := m.call(root, "DELETE", "/api/admin/documents/"+id, nil); r.status != 204 {
			t.Fatalf("delete: %d %s", r.status, r.body)
		}
		if r := m.call(root, "DELETE", "/api/admin/documents/"+id, nil); r.status != 404 || r.errMessage() != "Document not found." {
			t.Fatalf("delete twice: %d %s", r.status, r.body)
		}
	})
}

func TestSeedAndSearchRoutes(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		m := newTestSite(t, db, map[string]string{"TRIBE_ADMIN_EMAILS": membersAdminEmail, "TRIBE_CAPACITY": "42"})
		root := m.user(membersAdminEmail)
		manual := m.call(root, "POST", "/api/admin/documents", map[string]any{"title": "Mine", "content": "A manual note about lanterns."})

		first := m.call(root, "POST", "/api/admin/kb/seed", nil)
		second := m.call(root, "POST", "/api/admin/kb/seed", nil)
		if first.status != 200 || second.body != first.body {
			t.Fatalf("seeding twice: %s / %s", first.body, second.body)
		}
		bd := first.json["breakdown"].(map[string]any)
		for _, k := range []string{"about", "services", "projects", "stack", "contact", "community"} {
			if n, ok := bd[k].(float64); !ok || n < 1 {
				t.Errorf("breakdown %s: %v", k, bd[k])
			}
		}
		count := int(first.json["count"].(float64))
		if first.json["message"] != "Seeded "+strconv.Itoa(count)+" documents to knowledge base" {
			t.Fatalf("message %v", first.json["message"])
		}
		list := m.call(root, "GET", "/api/admin/documents?limit=100", nil)
		if list.json["total"] != float64(count+1) || !strings.Contains(list.body, manual.json["document"].(map[string]any)["id"].(string)) {
			t.Fatalf("after seeding: total %v", list.json["total"])
		}

		anon := testUser{}
		r := m.call(anon, "POST", "/api/search", map[string]any{"query": "How many members can the tribe have?"})
		if r.status != 200 || r.json["ranking"] != "full_text" {
			t.Fatalf("search: %d %s", r.status, r.body)
		}
		results := r.json["results"].([]any)
		if len(results) != 5 || !strings.Contains(r.body, "capped at 42 members") {
			t.Fatalf("search results: %s", r.body)
		}
		first0 := results[0].(map[string]any)
		md := first0["metadata"].(map[string]any)
		for _, k := range []string{"title", "source", "category", "type", "tags"} {
			if _, ok := md[k]; !ok {
				t.Fatalf("metadata without %s: %v", k, md)
			}
		}
		if sim := first0["similarity"].(float64); sim <= 0 || sim > 1 {
			t.Fatalf("similarity %v", sim)
		}
		if r := m.call(anon, "POST", "/api/search", map[string]any{"query": "agents", "limit": 20}); len(r.json["results"].([]any)) != 20 {
			t.Fatalf("limit 20: %s", r.body)
		}
		for _, c := range []struct {
			body any
			msg  string
		}{
			{map[string]any{"query": "  "}, "Please enter a search query."},
			{map[string]any{}, "Please enter a search query."},
			{map[string]any{"query": 5}, "Query must be text."},
			{map[string]any{"query": "x", "limit": 21}, "Limit must be a whole number from 1 to 20."},
			{map[string]any{"query": "x", "limit": "5"}, "Limit must be a whole number."},
			{map[string]any{"query": strings.Repeat("q", 1001)}, "The search query must be at most 1000 characters."},
		} {
			if r := m.call(anon, "POST", "/api/search", c.body); r.status != 400 || r.errMessage() != c.msg {
				t.Errorf("%v: %d %q", c.body, r.status, r.errMessage())
			}
		}
		for _, q := range []string{`"`, `*`, `NEAR(`, `-`, `:`, `title:x OR`, "東京 🚀", strings.Repeat("agents ", 140)} {
			if r := m.call(anon, "POST", "/api/search", map[string]any{"query": q}); r.status != 200 {
				t.Errorf("%q: %d %s", q, r.status, r.body)
			}
		}
	})
}

func TestSearchIsRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	m := newTestSite(t, storetest.Open(t, "", t.TempDir()), nil)
	var last reply
	for range 40 {
		if last = m.call(testUser{}, "POST", "/api/search", map[string]any{"query": "tribe"}); last.status == 429 {
			break
		}
	}
	if last.status != 429 || last.header.Get("Retry-After") == "" || last.errCode() != "rate_limited" {
		t.Fatalf("after 40 searches: %d %v %s", last.status, last.header, last.body)
	}
}

func TestHybridSearchOverHTTP(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		api := kbtest.NewServer(t, 64)
		m := newTestSite(t, db, map[string]string{"AI_BASE_URL": api.URL, "AI_EMBEDDING_MODEL": "test-embed"})
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { m.s.Services.KB.RunEmbeddings(ctx) })
		t.Cleanup(func() { cancel(); wg.Wait() })
		seed := []kb.SeedDoc{{Key: "about/lanterns", Content: "Trim the lantern wicks weekly.", Metadata: kb.Metadata{Title: "Lanterns", Category: "about"}}}
		if _, err := m.s.Services.KB.Seed(t.Context(), seed); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for {
			r := m.call(testUser{}, "POST", "/api/search", map[string]any{"query": "lantern wick"})
			if r.status == 200 && r.json["ranking"] == "hybrid" {
				if !strings.Contains(r.body, "Trim the lantern wicks weekly.") {
					t.Fatalf("hybrid results: %s", r.body)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("search never became hybrid: %s", r.body)
			}
			time.Sleep(50 * time.Millisecond)
		}
	})
}
