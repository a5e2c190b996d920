package web

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"tribe/internal/auth"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// BenchmarkCommunity is the community at the size of issue 30's
// benchmark: 5,000 threads with 20 replies each by 50 subscribers, on each
// engine, through the whole handler as a subscriber: the first page of the
// list, one thread with its 20 replies, and a search. It reports the 50th
// and 99th percentiles of each; bench/community.sh runs it.
func BenchmarkCommunity(b *testing.B) {
	for _, e := range storetest.Engines() {
		b.Run(e.Name, func(b *testing.B) {
			dbURL, dir := e.New(b)
			db := storetest.Open(b, dbURL, dir)
			site := newTestSite(b, db, membersEnv())
			viewer, thread := seedCommunity(b, site, db, 5000, 20)
			paths := []string{"/api/community/threads", "/api/community/threads/" + thread, "/api/community/threads?q=vector+memory"}
			names := []string{"list", "thread", "search"}
			reqs := make([]*http.Request, len(paths))
			for i, p := range paths {
				reqs[i] = httptest.NewRequest("GET", p, nil)
				reqs[i].RemoteAddr = "127.0.0.1:1234"
				reqs[i].AddCookie(&http.Cookie{Name: auth.CookieName, Value: viewer.token})
			}
			each := make([][]time.Duration, len(paths))
			b.ResetTimer()
			for b.Loop() {
				for i, req := range reqs {
					t0 := time.Now()
					rec := httptest.NewRecorder()
					site.h.ServeHTTP(rec, req.Clone(req.Context()))
					each[i] = append(each[i], time.Since(t0))
					if rec.Code != 200 {
						b.Fatalf("%s: %d %s", paths[i], rec.Code, rec.Body)
					}
					_, _ = io.Copy(io.Discard, rec.Body)
				}
			}
			b.StopTimer()
			for i, d := range each {
				slices.Sort(d)
				b.ReportMetric(float64(percentile(d, 50).Microseconds())/1000, names[i]+"-p50-ms")
				b.ReportMetric(float64(percentile(d, 99).Microseconds())/1000, names[i]+"-p99-ms")
			}
		})
	}
}

// seedCommunity writes threads×replies posts by 50 subscribers straight to
// the tables, many rows per statement, and returns a subscriber and one
// thread's id.
func seedCommunity(b *testing.B, m *testSite, db *store.DB, threads, replies int) (testUser, string) {
	b.Helper()
	members := make([]testUser, 50)
	for i := range members {
		members[i] = m.user(fmt.Sprintf("forum-%d@example.com", i))
		m.subscribe(members[i], "active")
	}
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	words := []string{"agents", "memory", "vector", "store", "prompt", "evaluation", "latency", "tools", "planning", "retrieval"}
	insert := func(head string, rows [][]any) {
		if len(rows) == 0 {
			return
		}
		var sb strings.Builder
		sb.WriteString(head)
		args := []any{}
		for i, r := range rows {
			if i > 0 {
				sb.WriteString(", ")
			}
			sb.WriteString("(")
			for j, v := range r {
				if j > 0 {
					sb.WriteString(", ")
				}
				args = append(args, v)
				fmt.Fprintf(&sb, "$%d", len(args))
			}
			sb.WriteString(")")
		}
		m.exec(sb.String(), args...)
	}
	var first string
	var trows, rrows [][]any
	for t := range threads {
		id := store.NewID()
		if first == "" {
			first = id
		}
		at := store.At(start.Add(time.Duration(t) * time.Minute))
		body := fmt.Sprintf("How do I use %s with %s for %s? Some more words about the question.", words[t%10], words[(t/10)%10], words[(t/100)%10])
		trows = append(trows, []any{id, members[t%50].id, "question", fmt.Sprintf("Thread %d about %s", t, words[t%10]), body, at, at})
		for r := range replies {
			rrows = append(rrows, []any{store.NewID(), id, members[(t+r+1)%50].id,
				fmt.Sprintf("Reply %d: try %s and %s.", r, words[(t+r)%10], words[(r*3)%10]), at})
		}
		if len(trows) == 200 || t == threads-1 {
			insert(`INSERT INTO forum_threads (id, user_id, category, title, body, created_at, last_activity_at) VALUES `, trows)
			for i := 0; i < len(rrows); i += 1000 {
				insert(`INSERT INTO forum_replies (id, thread_id, user_id, body, created_at) VALUES `, rrows[i:min(i+1000, len(rrows))])
			}
			trows, rrows = nil, nil
		}
	}
	if db.Dialect == store.Postgres {
		m.exec(`ANALYZE`)
	}
	return members[0], first
}
