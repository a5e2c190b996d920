// Package clocktest is the test clock: a clock.Clock that stands still until
// the test moves it.
//
//	c := clocktest.New()
//	svc := billing.New(db, cfg, billing.WithClock(c.Now))
//	c.Advance(25 * time.Hour) // a day later, without waiting for it
//
// Code whose time comes from the database too (a column default, a SQL
// now()) needs the test clock near the real time: start it with
// clocktest.At(time.Now()).
package clocktest

import (
	"sync"
	"time"
)

// Clock is a settable clock. Its zero value is not usable: make one with New
// or At. It is safe for concurrent use, so the service under test may read
// it from its own goroutines while the test moves it.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New returns a Clock at 09:00:00 UTC on Monday 5 January 2026, the same
// instant in every run, so times a test derives from it are reproducible.
func New() *Clock { return At(time.Date(2026, time.January, 5, 9, 0, 0, 0, time.UTC)) }

// At returns a Clock at t. The monotonic reading of a t from time.Now is
// dropped: the clock tells wall time only, as a stored time does.
func At(t time.Time) *Clock { return &Clock{t: t.Round(0)} }

// Now returns the clock's time; pass the method value c.Now as a clock.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d (back when d is negative).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Set moves the clock to t, forward or back.
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t.Round(0)
}
