package ratelimit

import "sync"

// Slots bounds work that lasts (an open stream) rather than requests per
// second: at most PerKey at once for one key and Total at once in all. It
// is safe for concurrent use. A key is forgotten when its last slot is
// released, so it holds memory only for work in progress.
type Slots struct {
	perKey, total int

	mu    sync.Mutex
	used  int
	byKey map[string]int
}

// NewSlots returns Slots allowing perKey at once per key and total at once.
func NewSlots(perKey, total int) *Slots {
	return &Slots{perKey: max(perKey, 1), total: max(total, 1), byKey: map[string]int{}}
}

// Refusals of Acquire.
const (
	SlotsKeyFull   = "key"   // the key already holds PerKey slots
	SlotsTotalFull = "total" // all Total slots are taken
)

// Acquire takes a slot for key. It returns a release function (safe to call
// more than once) and "", or nil and why it refused (SlotsKeyFull or
// SlotsTotalFull).
func (s *Slots) Acquire(key string) (release func(), refused string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.byKey[key] >= s.perKey:
		return nil, SlotsKeyFull
	case s.used >= s.total:
		return nil, SlotsTotalFull
	}
	s.byKey[key]++
	s.used++
	var once sync.Once
	return func() { once.Do(func() { s.release(key) }) }, ""
}

func (s *Slots) release(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.used--
	if s.byKey[key]--; s.byKey[key] <= 0 {
		delete(s.byKey, key)
	}
}

// InUse reports how many slots are taken.
func (s *Slots) InUse() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.used
}
