package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"tribe/internal/auth"
	"tribe/internal/community"
	"tribe/internal/store/storetest"
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
