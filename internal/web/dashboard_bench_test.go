package web

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"tribe/internal/auth"
	"tribe/internal/community"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// BenchmarkMembersDashboard is what the members' dashboard asks for when a
// subscriber opens it (GET /api/members/overview, /api/sessions and
// /api/members/me/progress, one after the other), through the whole handler
// on each engine, with 50 subscribed members and 200 sessions (150 past,
// each with RSVPs and attendance of most members). It reports the latency
// of a whole dashboard and of each request at the 50th and 99th
// percentiles; bench/dashboard.sh runs it.
func BenchmarkMembersDashboard(b *testing.B) {
	for _, e := range storetest.Engines() {
		b.Run(e.Name, func(b *testing.B) {
			dbURL, dir := e.New(b)
			db := storetest.Open(b, dbURL, dir)
			site := newTestSite(b, db, membersEnv())
			viewer := seedDashboard(b, site, db)
			paths := []string{"/api/members/overview", "/api/sessions", "/api/members/me/progress"}
			reqs := make([]*http.Request, len(paths))
			for i, p := range paths {
				reqs[i] = httptest.NewRequest("GET", p, nil)
				reqs[i].RemoteAddr = "127.0.0.1:1234"
				reqs[i].AddCookie(&http.Cookie{Name: auth.CookieName, Value: viewer.token})
			}
			each := make([][]time.Duration, len(paths))
			var whole, cpu []time.Duration
			// The handler runs on this goroutine: pinned to its thread, the
			// thread's processor time is the request's own work, which a
			// busy machine's waiting does not inflate (GC on other threads
			// is not in it).
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			for b.Loop() {
				began, cpuBegan := time.Now(), threadCPU()
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
				whole = append(whole, time.Since(began))
				cpu = append(cpu, threadCPU()-cpuBegan)
			}
			b.StopTimer()
			report := func(name string, d []time.Duration) {
				slices.Sort(d)
				b.ReportMetric(float64(percentile(d, 50).Microseconds())/1000, name+"-p50-ms")
				b.ReportMetric(float64(percentile(d, 99).Microseconds())/1000, name+"-p99-ms")
			}
			report("dashboard", whole)
			report("dashboard-cpu", cpu)
			report("overview", each[0])
			report("sessions", each[1])
			report("progress", each[2])
		})
	}
}

// threadCPU is the processor time the calling thread has used, to the
// nanosecond (getrusage counts it in scheduler ticks).
func threadCPU() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts)
	return time.Duration(ts.Nano())
}

func percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	return sorted[min(len(sorted), max(1, i))-1]
}

// seedDashboard fills the site with 50 subscribed members (the viewer one
// of them) and 200 sessions: 150 past, each attended by most members and
// answered by all, and 50 upcoming with RSVPs.
func seedDashboard(b *testing.B, site *testSite, db *store.DB) testUser {
	b.Helper()
	ctx := context.Background()
	viewer := site.user("viewer@example.com")
	site.subscribe(viewer, "active")
	members := []string{viewer.id}
	for i := range 49 {
		u := site.user(fmt.Sprintf("m%02d@example.com", i))
		site.subscribe(u, "active")
		members = append(members, u.id)
	}
	now := time.Now().UTC()
	for i := range 200 {
		day := now.AddDate(0, 0, i-150)
		s, err := community.CreateSession(ctx, db, "", community.SessionInput{
			Title: fmt.Sprintf("Session %d", i), Description: "Building agents together.", Tags: []string{"agents"},
			Date: day.Format(time.DateOnly), Time: "17:00", Duration: "1 hour", Timezone: "UTC",
			JoinURL: "https://meet.example/room",
		})
		if err != nil {
			b.Fatal(err)
		}
		err = db.Tx(ctx, func(tx *sql.Tx) error {
			for j, m := range members {
				if _, err := tx.ExecContext(ctx, `INSERT INTO session_rsvps (session_id, user_id, going) VALUES ($1, $2, $3)`, s.ID, m, j%5 != 0); err != nil {
					return err
				}
				if i < 150 && j%4 != 0 {
					if _, err := tx.ExecContext(ctx, `INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)`,
						s.ID, m, store.At(s.StartsAt)); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return viewer
}
