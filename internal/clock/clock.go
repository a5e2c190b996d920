// Package clock names the one way the product reads the time, so that tests
// can set it.
//
// A service that needs the current time takes a Clock and reads the time
// only through it, never through time.Now directly. It takes the clock as an
// option whose default is time.Now (auth.WithClock, billing.WithClock,
// ratelimit.WithClock) or as an options field where nil means time.Now
// (mail.WorkerOptions.Now). Reminders, booking holds and digests take theirs
// the same way:
//
//	type Service struct{ now clock.Clock }
//
//	// WithClock replaces time.Now (tests).
//	func WithClock(c clock.Clock) Option { return func(s *Service) { s.now = c } }
//
//	func New(db *store.DB, opts ...Option) *Service {
//		s := &Service{now: time.Now}
//		for _, o := range opts {
//			o(s)
//		}
//		return s
//	}
//
// Read the clock once per operation and pass that instant down, so one
// operation sees one time. A test hands the service (*clocktest.Clock).Now
// and moves it with Advance or Set. A test whose code under test touches only
// memory (no database, no network) can instead run inside
// testing/synctest.Test, where time.Now itself is fake and time.Sleep
// advances it; the service then keeps its default.
package clock

import "time"

// Clock returns the current time; time.Now is the real one.
type Clock func() time.Time
