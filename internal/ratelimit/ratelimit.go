// Package ratelimit holds the limits of abuse-prone endpoints: a token
// bucket per key (an IP address, an e-mail address) and an exponential
// back-off per account after failed sign-ins. State lives in the process,
// or, for a limit made with Shared on PostgreSQL, in the database, so that
// several instances allow together what one does (shared.go).
package ratelimit

import (
	"database/sql"
	"math"
	"sync"
	"time"

	"tribe/internal/clock"
)

// DefaultMaxKeys bounds how many keys a Limiter or Backoff remembers.
const DefaultMaxKeys = 100_000

// Limiter is a token bucket per key: each key may spend Burst requests at
// once, and regains one every Interval. It is safe for concurrent use.
type Limiter struct {
	burst    float64
	interval time.Duration
	now      clock.Clock
	maxKeys  int
	db       *sql.DB // Shared: the count is kept there
	name     string

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	tokens float64
	at     time.Time // when tokens was last computed
}

// Option adjusts a Limiter or a Backoff.
type Option func(*options)

type options struct {
	now     clock.Clock
	maxKeys int
	db      *sql.DB
	name    string
}

// WithClock replaces time.Now.
func WithClock(c clock.Clock) Option { return func(o *options) { o.now = c } }

// WithMaxKeys bounds the number of remembered keys (DefaultMaxKeys otherwise).
func WithMaxKeys(n int) Option { return func(o *options) { o.maxKeys = n } }

func collect(opts []Option) options {
	o := options{now: time.Now, maxKeys: DefaultMaxKeys}
	for _, f := range opts {
		f(&o)
	}
	if o.maxKeys < 1 {
		o.maxKeys = 1
	}
	return o
}

// New returns a Limiter allowing burst requests per key at once and one more
// every interval after that.
func New(burst int, interval time.Duration, opts ...Option) *Limiter {
	o := collect(opts)
	if burst < 1 {
		burst = 1
	}
	if interval <= 0 {
		interval = time.Second
	}
	return &Limiter{burst: float64(burst), interval: interval, now: o.now, maxKeys: o.maxKeys, db: o.db, name: o.name, buckets: map[string]*bucket{}}
}

// Allow spends one request for key. When the key has none left it reports
// false and how long until the next one is available.
func (l *Limiter) Allow(key string) (bool, time.Duration) {
	return l.AllowN(key, 1)
}

// AllowN spends n requests for key at once (the calls of one batch), or
// none: when fewer than n are left it reports false and how long until n
// are. n above the burst is never allowed.
func (l *Limiter) AllowN(key string, n int) (bool, time.Duration) {
	if n < 1 {
		return true, 0
	}
	now := l.now()
	if l.db != nil && float64(n) <= l.burst {
		if allowed, wait, ok := l.allowShared(key, n, now); ok {
			return allowed, wait
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		l.makeRoom(now)
		b = &bucket{tokens: l.burst, at: now}
		l.buckets[key] = b
	}
	l.refill(b, now)
	if b.tokens >= float64(n) {
		b.tokens -= float64(n)
		return true, 0
	}
	wait := time.Duration((float64(n) - b.tokens) * float64(l.interval))
	return false, wait
}

func (l *Limiter) refill(b *bucket, now time.Time) {
	if elapsed := now.Sub(b.at); elapsed > 0 {
		b.tokens = math.Min(l.burst, b.tokens+float64(elapsed)/float64(l.interval))
		b.at = now
	}
}

// makeRoom forgets keys whose bucket has refilled completely (they behave
// exactly like a new key) once a minute or when the map is full. If the map
// is still full, it forgets arbitrary keys: that only ever makes the limiter
// more lenient, never locks anyone out.
func (l *Limiter) makeRoom(now time.Time) {
	full := len(l.buckets) >= l.maxKeys
	if !full && now.Sub(l.lastSweep) < time.Minute {
		return
	}
	l.lastSweep = now
	idle := time.Duration(l.burst * float64(l.interval))
	for k, b := range l.buckets {
		if now.Sub(b.at) >= idle {
			delete(l.buckets, k)
		}
	}
	for k := range l.buckets {
		if len(l.buckets) < l.maxKeys {
			break
		}
		delete(l.buckets, k)
	}
}

// Len reports how many keys the limiter remembers.
func (l *Limiter) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.buckets)
}

// Backoff slows down repeated failures for one key (an account): after Free
// failures, the next attempt must wait Base, then twice as long after each
// further failure, up to Max. A key is forgotten Forget after its last
// failure, and Reset clears it at once (a successful sign-in).
type Backoff struct {
	Free   int
	Base   time.Duration
	Max    time.Duration
	Forget time.Duration

	now     clock.Clock
	maxKeys int
	db      *sql.DB // Shared: the failures are counted there
	name    string

	mu        sync.Mutex
	entries   map[string]*failures
	lastSweep time.Time
}

type failures struct {
	count     int
	last      time.Time
	notBefore time.Time
}

// NewBackoff returns a Backoff with the given free failures, first delay and
// cap; keys are forgotten 15 minutes after their last failure.
func NewBackoff(free int, base, max time.Duration, opts ...Option) *Backoff {
	o := collect(opts)
	return &Backoff{Free: free, Base: base, Max: max, Forget: 15 * time.Minute, now: o.now, maxKeys: o.maxKeys,
		db: o.db, name: o.name, entries: map[string]*failures{}}
}

// Wait reports how long the caller must still wait before an attempt for key
// may be checked; zero means go ahead.
func (b *Backoff) Wait(key string) time.Duration {
	now := b.now()
	if b.db != nil {
		if _, wait, ok := b.stateShared(key, now); ok {
			return wait
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, ok := b.entries[key]
	if !ok {
		return 0
	}
	if now.Sub(f.last) >= b.Forget {
		delete(b.entries, key)
		return 0
	}
	if d := f.notBefore.Sub(now); d > 0 {
		return d
	}
	return 0
}

// Fail records a failed attempt for key and returns the delay now required
// before the next one.
func (b *Backoff) Fail(key string) time.Duration {
	now := b.now()
	if b.db != nil {
		if d, ok := b.failShared(key, now); ok {
			return d
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, ok := b.entries[key]
	if ok && now.Sub(f.last) >= b.Forget {
		ok = false
	}
	if !ok {
		b.makeRoom(now)
		f = &failures{}
		b.entries[key] = f
	}
	f.count++
	f.last = now
	d := b.delay(f.count)
	f.notBefore = now.Add(d)
	return d
}

// delay is the wait after count failures in a row: none until the Free-th
// failure, then Base, doubling with each further failure up to Max.
func (b *Backoff) delay(count int) time.Duration {
	over := count - b.Free + 1
	if over <= 0 {
		return 0
	}
	d := b.Base
	for i := 1; i < over && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// Reset forgets key's failures.
func (b *Backoff) Reset(key string) {
	if b.db != nil {
		b.resetShared(key, false)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.entries, key)
}

func (b *Backoff) makeRoom(now time.Time) {
	full := len(b.entries) >= b.maxKeys
	if !full && now.Sub(b.lastSweep) < time.Minute {
		return
	}
	b.lastSweep = now
	for k, f := range b.entries {
		if now.Sub(f.last) >= b.Forget {
			delete(b.entries, k)
		}
	}
	for k := range b.entries {
		if len(b.entries) < b.maxKeys {
			break
		}
		delete(b.entries, k)
	}
}

// Len reports how many keys the back-off remembers.
func (b *Backoff) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.entries)
}

// RetryAfter renders d as whole seconds for a Retry-After header, rounding
// up so a client that waits that long is let through.
func RetryAfter(d time.Duration) int {
	s := int(math.Ceil(d.Seconds()))
	return max(s, 1)
}
