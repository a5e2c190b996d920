package clocktest

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// TestNewStartsAtTheDocumentedInstant: two runs of a test see the same
// times, so a failure reproduces.
func TestNewStartsAtTheDocumentedInstant(t *testing.T) {
	want := time.Date(2026, time.January, 5, 9, 0, 0, 0, time.UTC)
	a, b := New().Now(), New().Now()
	if !a.Equal(want) || !b.Equal(want) || a.Location() != time.UTC {
		t.Fatalf("New starts at %v and %v, want %v", a, b, want)
	}
	if a.Weekday() != time.Monday {
		t.Fatalf("the documented start is a Monday, got %v", a.Weekday())
	}
}

// TestTimeStandsStillUntilMoved: reading the clock never moves it; Advance
// and Set move it by exactly what was asked, either way.
func TestTimeStandsStillUntilMoved(t *testing.T) {
	c := New()
	start := c.Now()
	time.Sleep(time.Millisecond)
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("the clock moved by itself: %v -> %v", start, got)
	}
	c.Advance(90 * time.Minute)
	if got := c.Now().Sub(start); got != 90*time.Minute {
		t.Fatalf("Advance(90m) moved %v", got)
	}
	c.Advance(-30 * time.Minute)
	if got := c.Now().Sub(start); got != time.Hour {
		t.Fatalf("Advance(-30m) after 90m left %v, want 1h", got)
	}
	later := time.Date(2026, time.March, 29, 1, 30, 0, 0, time.UTC)
	c.Set(later)
	if got := c.Now(); !got.Equal(later) {
		t.Fatalf("Set: %v, want %v", got, later)
	}
	c.Set(start)
	if got := c.Now(); !got.Equal(start) {
		t.Fatalf("Set back: %v, want %v", got, start)
	}
}

// TestRealStartTellsWallTimeOnly: a clock started from time.Now carries no
// monotonic reading, so its times compare by wall time, as stored ones do.
func TestRealStartTellsWallTimeOnly(t *testing.T) {
	wall := time.Now()
	c := At(wall)
	if got := c.Now(); !got.Equal(wall) || strings.Contains(got.String(), "m=") {
		t.Fatalf("At(time.Now()) = %v, want %v without a monotonic reading", got, wall)
	}
	c.Set(time.Now())
	c.Advance(time.Second)
	if got := c.Now(); strings.Contains(got.String(), "m=") {
		t.Fatalf("Set(time.Now()) kept a monotonic reading: %v", got)
	}
	loc := time.FixedZone("UTC+2", 2*60*60)
	if got := At(time.Date(2026, 6, 1, 12, 0, 0, 0, loc)).Now(); got.Location() != loc {
		t.Fatalf("At changed the location to %v", got.Location())
	}
}

// TestConcurrentAdvancesAreAllKept: services read the clock from their own
// goroutines while the test moves it; no advance is lost and no reader sees
// time go back (run with -race).
func TestConcurrentAdvancesAreAllKept(t *testing.T) {
	c := New()
	start := c.Now()
	const movers, steps = 8, 500
	var wg sync.WaitGroup
	for range movers {
		wg.Go(func() {
			for range steps {
				c.Advance(time.Second)
			}
		})
	}
	for range 4 {
		wg.Go(func() {
			last := start
			for range steps {
				now := c.Now()
				if now.Before(last) {
					t.Errorf("a reader saw time go back: %v after %v", now, last)
					return
				}
				last = now
			}
		})
	}
	wg.Wait()
	if got := c.Now().Sub(start); got != movers*steps*time.Second {
		t.Fatalf("advanced %v, want %v", got, movers*steps*time.Second)
	}
}
