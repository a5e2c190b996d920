package ratelimit_test

import (
	"context"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"tribe/internal/clock/clocktest"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// sharedDB is a migrated PostgreSQL schema for this test alone (skipped
// without PostgreSQL, failed under CI=true).
func sharedDB(t *testing.T) *store.DB {
	t.Helper()
	return storetest.Open(t, storetest.NewPostgresSchema(t), t.TempDir())
}

func near(a, b time.Duration) bool { d := a - b; return d > -time.Millisecond && d < time.Millisecond }

// TestSharedLimiterAllowsWhatOneInstanceDoes: two instances' limiters on one
// PostgreSQL, taking turns, allow exactly the requests one in-memory
// limiter allows, and tell the same waits, over a random run of requests
// and pauses; a limit of another name is counted apart.
func TestSharedLimiterAllowsWhatOneInstanceDoes(t *testing.T) {
	db := sharedDB(t)
	clk := clocktest.New()
	one := ratelimit.New(5, 2*time.Second, ratelimit.WithClock(clk.Now))
	a := ratelimit.New(5, 2*time.Second, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "signin-ip"))
	b := ratelimit.New(5, 2*time.Second, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "signin-ip"))
	other := ratelimit.New(5, 2*time.Second, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "forgot-ip"))
	rng := rand.New(rand.NewPCG(31, 24))
	allowed := 0
	for i := range 300 {
		inst := a
		if i%2 == 1 {
			inst = b
		}
		key := []string{"203.0.113.9", "198.51.100.7"}[rng.IntN(2)]
		n := 1 + rng.IntN(2)
		wantOK, wantWait := one.AllowN(key, n)
		gotOK, gotWait := inst.AllowN(key, n)
		if gotOK != wantOK || !near(gotWait, wantWait) {
			t.Fatalf("request %d (%s, %d): shared %v %v, one instance %v %v", i, key, n, gotOK, gotWait, wantOK, wantWait)
		}
		if gotOK {
			allowed++
		}
		if rng.IntN(4) == 0 {
			clk.Advance(time.Duration(rng.IntN(3000)) * time.Millisecond)
		}
	}
	if allowed == 0 || allowed == 300 {
		t.Fatalf("the run never reached the limit or never passed it (%d allowed)", allowed)
	}
	if ok, _ := other.Allow("203.0.113.9"); !ok {
		t.Error("another limit's count was spent by this one")
	}
	if ok, _ := a.AllowN("x", 6); ok {
		t.Error("more than the burst at once was allowed")
	}
}

// TestSharedLimiterUnderConcurrency: many requests at once through two
// instances are allowed exactly burst times, not burst per instance.
func TestSharedLimiterUnderConcurrency(t *testing.T) {
	db := sharedDB(t)
	clk := clocktest.New()
	insts := []*ratelimit.Limiter{
		ratelimit.New(10, time.Hour, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "inquiries")),
		ratelimit.New(10, time.Hour, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "inquiries")),
	}
	var n atomic.Int32
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			if ok, _ := insts[i%2].Allow("203.0.113.9"); ok {
				n.Add(1)
			}
		})
	}
	wg.Wait()
	if n.Load() != 10 {
		t.Fatalf("%d of 40 concurrent requests allowed through two instances, want exactly 10", n.Load())
	}
}

// TestSharedSigninBackoffLocksOutAtTheSameCount: failed sign-ins
// alternating between two instances meet the back-off at the same failure,
// with the same waits, as on one instance; a password reset through one
// instance clears it for both.
func TestSharedSigninBackoffLocksOutAtTheSameCount(t *testing.T) {
	db := sharedDB(t)
	clk := clocktest.New()
	one := ratelimit.NewSigninBackoff(5, time.Second, time.Minute, ratelimit.WithClock(clk.Now))
	insts := []*ratelimit.SigninBackoff{
		ratelimit.NewSigninBackoff(5, time.Second, time.Minute, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "signin")),
		ratelimit.NewSigninBackoff(5, time.Second, time.Minute, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "signin")),
	}
	const addr, client, owner = "ada@example.com", "203.0.113.9", "198.51.100.7"
	firstWait := 0
	for i := range 12 {
		s := insts[i%2]
		want, got := one.Wait(addr, client), s.Wait(addr, client)
		if !near(got, want) {
			t.Fatalf("attempt %d waits %v shared, %v on one instance", i+1, got, want)
		}
		clk.Advance(got)
		want, got = one.Fail(addr, client), s.Fail(addr, client)
		if !near(got, want) {
			t.Fatalf("failure %d: shared wait %v, one instance %v", i+1, got, want)
		}
		if got > 0 && firstWait == 0 {
			firstWait = i + 1
		}
	}
	if firstWait != 5 {
		t.Fatalf("the back-off began after failure %d, want 5", firstWait)
	}
	var rows int
	if err := db.Write.QueryRow(`SELECT count(*) FROM rate_failures WHERE name IN ('signin/client', 'signin/address')`).Scan(&rows); err != nil || rows != 2 {
		t.Fatalf("%d rows counted in the database (%v), want the address's and the client's", rows, err)
	}
	if w := insts[1].Wait(addr, owner); w != 0 {
		t.Errorf("the owner's own client waits %v", w)
	}
	insts[0].Reset(addr)
	if w := insts[1].Wait(addr, client); w != 0 {
		t.Errorf("after a reset through the other instance: wait %v", w)
	}
	// Forgotten after 15 minutes of quiet.
	for range 7 {
		insts[0].Fail(addr, client)
	}
	clk.Advance(15 * time.Minute)
	if w := insts[1].Wait(addr, client); w != 0 {
		t.Errorf("after 15 minutes: wait %v", w)
	}
}

// TestPruneDeletesOnlyWhatHoldsNothing: a bucket full again and failures
// forgotten are deleted; a bucket still short and recent failures stay.
func TestPruneDeletesOnlyWhatHoldsNothing(t *testing.T) {
	db := sharedDB(t)
	clk := clocktest.New()
	l := ratelimit.New(3, time.Minute, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "refresh"))
	bo := ratelimit.NewBackoff(5, time.Second, time.Minute, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "fail"))
	l.Allow("old")
	bo.Fail("old")
	clk.Advance(16 * time.Minute) // the bucket refills in a minute, failures are forgotten after 15
	l.Allow("new")
	bo.Fail("new")
	n, err := ratelimit.Prune(context.Background(), db, clk.Now())
	if err != nil || n != 2 {
		t.Fatalf("Prune = %d, %v; want the 2 old rows", n, err)
	}
	var left int
	if err := db.Write.QueryRow(`SELECT (SELECT count(*) FROM rate_buckets) + (SELECT count(*) FROM rate_failures)`).Scan(&left); err != nil || left != 2 {
		t.Fatalf("%d rows left (%v), want the 2 new ones", left, err)
	}
	if ok, _ := l.AllowN("new", 3); ok {
		t.Error("pruning gave the recent key its tokens back")
	}
}

// TestSharedLimiterFallsBackToTheProcess: with the database gone, the
// process's own counters still limit (and nobody is locked out for it).
func TestSharedLimiterFallsBackToTheProcess(t *testing.T) {
	db := sharedDB(t)
	clk := clocktest.New()
	l := ratelimit.New(2, time.Hour, ratelimit.WithClock(clk.Now), ratelimit.Shared(db, "gone"))
	_ = db.Close()
	for i, want := range []bool{true, true, false} {
		if ok, _ := l.Allow("k"); ok != want {
			t.Fatalf("request %d without the database: %v, want %v", i+1, ok, want)
		}
	}
}
