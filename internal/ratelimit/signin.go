package ratelimit

import (
	"strconv"
	"strings"
	"time"
)

// SigninBackoff slows down repeated failed sign-ins for an address without
// letting anyone lock its owner out. A back-off keyed by the address alone
// can be kept at its maximum by anyone who fails one sign-in each time it
// expires, and then the owner's right password is never checked. So:
//
//   - each client (an IP address) has its own back-off per address: after
//     Free failures in a row its next attempt waits Base, doubling to Max;
//   - a client that has failed Free times for the address also waits for
//     the address's back-off, which counts every client's failures, so many
//     clients guessing one password share one slow pace;
//   - a client with fewer failures for the address is never held back by
//     others: the owner signing in from their own network is always checked.
//
// Failures are forgotten 15 minutes after the last one. It is safe for
// concurrent use and bounded like Backoff.
type SigninBackoff struct {
	free      int
	perClient *Backoff // key: pairKey(address, client)
	address   *Backoff // key: address
}

// NewSigninBackoff returns a SigninBackoff that lets free failures through
// at once, then waits base, doubling up to max.
// With Shared, its two back-offs are counted under name/client and
// name/address.
func NewSigninBackoff(free int, base, max time.Duration, opts ...Option) *SigninBackoff {
	o := collect(opts)
	return &SigninBackoff{
		free:      free,
		perClient: NewBackoff(free, base, max, append(opts, suffixed(o, "client"))...),
		address:   NewBackoff(free, base, max, append(opts[:len(opts):len(opts)], suffixed(o, "address"))...),
	}
}

// pairKey names one client's attempts at one address; the length prefix
// keeps every address's keys apart, whatever characters it holds.
func pairKey(address, client string) string {
	return addressPrefix(address) + client
}

func addressPrefix(address string) string {
	return strconv.Itoa(len(address)) + ":" + address + "|"
}

// Wait reports how long client must still wait before an attempt for
// address may be checked; zero means go ahead.
func (s *SigninBackoff) Wait(address, client string) time.Duration {
	count, wait := s.perClient.state(pairKey(address, client))
	if count < s.free {
		return wait
	}
	return max(wait, s.address.Wait(address))
}

// Fail records a failed attempt by client for address and returns how long
// that client must now wait.
func (s *SigninBackoff) Fail(address, client string) time.Duration {
	s.address.Fail(address)
	s.perClient.Fail(pairKey(address, client))
	return s.Wait(address, client)
}

// Succeed forgets client's failures for address after a right password.
// Other clients' failures stay: they were not the owner's.
func (s *SigninBackoff) Succeed(address, client string) {
	s.perClient.Reset(pairKey(address, client))
}

// Reset forgets every failure for address, from every client: a password
// reset proved the mailbox, and the old password no longer works.
func (s *SigninBackoff) Reset(address string) {
	s.address.Reset(address)
	s.perClient.resetPrefix(addressPrefix(address))
}

// Len reports how many keys the back-off remembers (per client and per
// address).
func (s *SigninBackoff) Len() int { return s.perClient.Len() + s.address.Len() }

// state reports the failures counted for key and the wait still required.
func (b *Backoff) state(key string) (count int, wait time.Duration) {
	now := b.now()
	if b.db != nil {
		if count, wait, ok := b.stateShared(key, now); ok {
			return count, wait
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	f, ok := b.entries[key]
	if !ok {
		return 0, 0
	}
	if now.Sub(f.last) >= b.Forget {
		delete(b.entries, key)
		return 0, 0
	}
	return f.count, max(0, f.notBefore.Sub(now))
}

// resetPrefix forgets every key starting with prefix. It walks every key,
// which is fine for what calls it (a password reset), not for every request.
func (b *Backoff) resetPrefix(prefix string) {
	if b.db != nil {
		b.resetShared(prefix, true)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	for k := range b.entries {
		if strings.HasPrefix(k, prefix) {
			delete(b.entries, k)
		}
	}
}
