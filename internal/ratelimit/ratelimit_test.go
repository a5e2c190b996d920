package ratelimit

import (
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// The limits read time.Now and keep their state in memory, so their tests
// run in a synctest bubble: time.Now is fake there, and time.Sleep moves it
// at once by exactly the duration asked.

func TestLimiterBurstThenRefill(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := New(3, 10*time.Second)
		for i := range 3 {
			if ok, _ := l.Allow("ip"); !ok {
				t.Fatalf("request %d refused inside the burst", i+1)
			}
		}
		ok, wait := l.Allow("ip")
		if ok || wait != 10*time.Second {
			t.Fatalf("4th request: ok=%v wait=%v, want refused with 10s", ok, wait)
		}
		if ok, _ := l.Allow("other"); !ok {
			t.Fatal("another key must have its own bucket")
		}
		time.Sleep(4 * time.Second)
		if ok, wait := l.Allow("ip"); ok || wait != 6*time.Second {
			t.Fatalf("after 4s: ok=%v wait=%v, want 6s", ok, wait)
		}
		time.Sleep(6 * time.Second)
		if ok, _ := l.Allow("ip"); !ok {
			t.Fatal("one token must be back after the interval")
		}
		if ok, _ := l.Allow("ip"); ok {
			t.Fatal("only one token came back")
		}
		time.Sleep(time.Hour)
		for i := range 3 {
			if ok, _ := l.Allow("ip"); !ok {
				t.Fatalf("after a long pause the full burst is back; request %d refused", i+1)
			}
		}
	})
}

func TestLimiterEvictsIdleKeysAndStaysBounded(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := New(2, time.Second, WithMaxKeys(100))
		for i := range 1000 {
			l.Allow(fmt.Sprint("k", i))
			if l.Len() > 100 {
				t.Fatalf("limiter holds %d keys, bound is 100", l.Len())
			}
		}
		time.Sleep(2 * time.Minute)
		l.Allow("fresh")
		if l.Len() != 1 {
			t.Fatalf("idle keys must be swept; %d remain", l.Len())
		}
	})
}

func TestLimiterConcurrentUse(t *testing.T) {
	l := New(50, time.Hour)
	var wg sync.WaitGroup
	var mu sync.Mutex
	allowed := 0
	for range 200 {
		wg.Go(func() {
			if ok, _ := l.Allow("k"); ok {
				mu.Lock()
				allowed++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if allowed != 50 {
		t.Fatalf("%d requests allowed, want exactly the burst of 50", allowed)
	}
}

func TestBackoffGrowsCapsAndResets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := NewBackoff(3, time.Second, 8*time.Second)
		for i := range 2 {
			if d := b.Fail("ada"); d != 0 {
				t.Fatalf("free failure %d gave delay %v", i+1, d)
			}
		}
		if w := b.Wait("ada"); w != 0 {
			t.Fatalf("before the third failure no wait yet, got %v", w)
		}
		// After 3 failures the next attempt waits 1s, then 2, 4, capped at 8.
		want := []time.Duration{1, 2, 4, 8, 8, 8}
		for i, sec := range want {
			if d := b.Fail("ada"); d != sec*time.Second {
				t.Fatalf("failure %d: delay %v, want %v", i+3, d, sec*time.Second)
			}
			if w := b.Wait("ada"); w != sec*time.Second {
				t.Fatalf("wait %v after failure %d", w, i+3)
			}
			time.Sleep(sec * time.Second)
			if w := b.Wait("ada"); w != 0 {
				t.Fatalf("after waiting the delay, wait is %v", w)
			}
		}
		if w := b.Wait("grace"); w != 0 {
			t.Fatal("other accounts are unaffected")
		}
		b.Fail("ada")
		b.Reset("ada")
		if w := b.Wait("ada"); w != 0 {
			t.Fatalf("Reset must clear the delay, got %v", w)
		}
		if d := b.Fail("ada"); d != 0 {
			t.Fatalf("after Reset failures count from zero again, got %v", d)
		}
	})
}

func TestBackoffForgetsOldFailures(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		b := NewBackoff(1, time.Second, time.Minute)
		b.Fail("ada")
		if d := b.Fail("ada"); d != 2*time.Second {
			t.Fatalf("second failure: %v", d)
		}
		time.Sleep(b.Forget)
		if w := b.Wait("ada"); w != 0 {
			t.Fatalf("forgotten key still waits %v", w)
		}
		if d := b.Fail("ada"); d != time.Second {
			t.Fatalf("after Forget the count restarts; delay %v", d)
		}
	})
}

func TestRetryAfterRoundsUp(t *testing.T) {
	for d, want := range map[time.Duration]int{0: 1, 100 * time.Millisecond: 1, time.Second: 1, 1001 * time.Millisecond: 2, 59500 * time.Millisecond: 60} {
		if got := RetryAfter(d); got != want {
			t.Errorf("RetryAfter(%v) = %d, want %d", d, got, want)
		}
	}
}
