package clock_test

import (
	"fmt"
	"time"

	"tribe/internal/clock"
	"tribe/internal/clock/clocktest"
)

// holds keeps a seat for a while, the way a service takes its clock.
type holds struct {
	now   clock.Clock
	until map[string]time.Time
}

type option func(*holds)

func withClock(c clock.Clock) option { return func(h *holds) { h.now = c } }

func newHolds(opts ...option) *holds {
	h := &holds{now: time.Now, until: map[string]time.Time{}}
	for _, o := range opts {
		o(h)
	}
	return h
}

func (h *holds) hold(seat string, d time.Duration) { h.until[seat] = h.now().Add(d) }

func (h *holds) held(seat string) bool { return h.now().Before(h.until[seat]) }

// A service takes a clock.Clock, time.Now by default; its test hands it a
// clocktest.Clock and moves time on.
func Example() {
	c := clocktest.New()
	h := newHolds(withClock(c.Now))
	h.hold("A1", 15*time.Minute)
	fmt.Println(c.Now().Format(time.RFC3339), h.held("A1"))
	c.Advance(15 * time.Minute)
	fmt.Println(c.Now().Format(time.RFC3339), h.held("A1"))
	// Output:
	// 2026-01-05T09:00:00Z true
	// 2026-01-05T09:15:00Z false
}
