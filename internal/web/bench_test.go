package web

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"syscall"
	"testing"
	"time"

	"tribe/internal/access"
	"tribe/internal/auth"
	"tribe/internal/community"
	"tribe/internal/store/storetest"
	"tribe/internal/webapp"
)

// BenchmarkListSessions is GET /api/sessions with 20 sessions, signed in, on
// SQLite, through the whole handler (every middleware), for profiling:
// go test -run '^$' -bench ListSessions -cpuprofile cpu.out ./internal/web
func BenchmarkListSessions(b *testing.B) {
	db := storetest.Open(b, "", b.TempDir())
	site := newTestSite(b, db, nil)
	u := site.user("bench@example.com")
	for range 20 {
		in := community.SessionInput{Title: "Session", Date: "2099-01-15", Time: "17:00", Duration: "2 hours", Timezone: "America/New_York"}
		if _, err := community.CreateSession(b.Context(), db, "", in); err != nil {
			b.Fatal(err)
		}
	}
	req := httptest.NewRequest("GET", "/api/sessions", nil)
	req.RemoteAddr = "127.0.0.1:1234"
	req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: u.token})
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := httptest.NewRecorder()
			site.h.ServeHTTP(rec, req.Clone(req.Context()))
			if rec.Code != 200 {
				b.Errorf("status %d", rec.Code)
			}
			_, _ = io.Copy(io.Discard, rec.Body)
		}
	})
}

// BenchmarkPrerenderedPage is GET /about with gzip through the whole handler.
func BenchmarkPrerenderedPage(b *testing.B) {
	site := newTestSite(b, storetest.Open(b, "", b.TempDir()), nil)
	req := httptest.NewRequest("GET", "/about", nil)
	req.RemoteAddr = "127.0.0.1:1234"
	req.Header.Set("Accept-Encoding", "gzip")
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := httptest.NewRecorder()
			site.h.ServeHTTP(rec, req.Clone(req.Context()))
			if rec.Code != 200 {
				b.Errorf("status %d", rec.Code)
			}
		}
	})
}

// pageWriter stands for net/http's response writer in the page benchmarks:
// a header map made fresh for each request, as net/http makes one, and a
// body that is counted and dropped, so what is measured is the handler's own
// work and not a recorder's copies.
type pageWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *pageWriter) Header() http.Header { return w.h }
func (w *pageWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *pageWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	w.n += len(b)
	return len(b), nil
}

// benchmarkPage serves GET /about with gzip through h b.N times, with a
// fresh request and header map each time, as net/http hands them over.
func benchmarkPage(b *testing.B, h http.Handler) {
	b.Helper()
	base := httptest.NewRequest("GET", "/about", nil)
	base.RemoteAddr = "127.0.0.1:1234"
	gzip := []string{"gzip"}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := processCPU(b)
	defer func() { b.ReportMetric(float64(processCPU(b)-cpu)/float64(b.N), "cpu-ns/op") }()
	for b.Loop() {
		req := *base
		req.Header = http.Header{"Accept-Encoding": gzip}
		w := &pageWriter{h: make(http.Header)}
		h.ServeHTTP(w, &req)
		if w.status != 200 || w.n == 0 {
			b.Fatalf("status %d, %d bytes", w.status, w.n)
		}
	}
}

// BenchmarkPageVsSameJob compares serving /about (gzip) through the whole
// handler with the yardstick of bench/static.sh, a handler that copies the
// same response headers into the response and writes the same bytes: the
// difference is the site's own work per page. Run it with
// go test -run '^$' -bench PageVsSameJob -benchmem -cpu 1 -count 10 ./internal/web
// after make build (it serves the built app, as bin/tribe does). cpu-ns/op
// is the processor time per request, the figure to compare on a busy
// machine.
func BenchmarkPageVsSameJob(b *testing.B) {
	app := webapp.FS()
	if _, err := fs.Stat(app, "about/index.html"); err != nil {
		b.Skip("the web app is not built: run make build first")
	}
	site := newTestSite(b, nil, nil, withOptions(func(o *Options) { o.App = app }))
	req := httptest.NewRequest("GET", "/about", nil)
	req.RemoteAddr = "127.0.0.1:1234"
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	site.h.ServeHTTP(rec, req)
	if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" {
		b.Fatalf("GET /about: %d %v", rec.Code, rec.Header())
	}
	page, header := rec.Body.Bytes(), rec.Header().Clone()
	b.Run("site", func(b *testing.B) { benchmarkPage(b, site.h) })
	b.Run("same-job", func(b *testing.B) {
		benchmarkPage(b, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			h := w.Header()
			for k, v := range header {
				h[k] = v
			}
			_, _ = w.Write(page)
		}))
	})
}

// processCPU is the processor time the process has used so far (user and
// system, every thread, the garbage collector's included): on a machine
// shared with other work it tells the cost of a request better than the
// wall time, which counts the waits for a core.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkProjectsBoardAndDirectory is GET /api/projects and GET
// /api/members/directory on SQLite with a full tribe: 50 subscribers listed
// in the directory, 3 projects each (150), each project with 10 reactions
// and 2 comments. The directory computes each member's level from the rows.
// go test -run '^$' -bench ProjectsBoardAndDirectory ./internal/web
func BenchmarkProjectsBoardAndDirectory(b *testing.B) {
	db := storetest.Open(b, "", b.TempDir())
	site := newTestSite(b, db, membersEnv())
	ctx := b.Context()
	members := make([]testUser, 50)
	for i := range members {
		members[i] = site.user(fmt.Sprintf("m%d@example.com", i))
		site.subscribe(members[i], "active")
		if _, err := community.UpdateProfile(ctx, db, members[i].id, community.ProfileUpdate{InDirectory: &[]bool{true}[0]}); err != nil {
			b.Fatal(err)
		}
	}
	now := time.Now()
	for i, m := range members {
		for j := range 3 {
			p, err := community.CreateProject(ctx, db, access.Viewer{UserID: m.id, Member: true},
				community.ProjectInput{Title: fmt.Sprintf("Project %d-%d", i, j), Link: "https://example.com/", Description: "Built it.", Tags: []string{"agents"}}, now)
			if err != nil {
				b.Fatal(err)
			}
			for k := 1; k <= 10; k++ {
				fan := access.Viewer{UserID: members[(i+k)%len(members)].id, Member: true}
				if _, err := community.SetReaction(ctx, db, fan, p.ID, true, now); err != nil {
					b.Fatal(err)
				}
				if k <= 2 {
					if _, err := community.AddComment(ctx, db, fan, p.ID, community.CommentInput{Body: "Nice"}, now); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	}
	for _, path := range []string{"/api/projects", "/api/members/directory", "/api/members/directory?q=agents"} {
		b.Run(path, func(b *testing.B) {
			req := httptest.NewRequest("GET", path, nil)
			req.RemoteAddr = "127.0.0.1:1234"
			req.AddCookie(&http.Cookie{Name: auth.CookieName, Value: members[0].token})
			for b.Loop() {
				rec := httptest.NewRecorder()
				site.h.ServeHTTP(rec, req.Clone(req.Context()))
				if rec.Code != 200 {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}
