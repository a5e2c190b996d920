package ratelimit

import (
	"fmt"
	"testing"
	"time"
)

// TestIPv6ClientsAreKeyedByTheir64: a /64 gives one client 2⁶⁴ addresses;
// keyed by the full address, each new one got a fresh allowance.
func TestIPv6ClientsAreKeyedByTheir64(t *testing.T) {
	for addr, want := range map[string]string{
		"2001:db8:1:2::1":               "2001:db8:1:2::/64",
		"2001:db8:1:2:ffff:ffff:ffff:1": "2001:db8:1:2::/64",
		"2001:db8:1:3::1":               "2001:db8:1:3::/64",
		"fe80::1%eth0":                  "fe80::/64",
		"::1":                           "::/64",
		"203.0.113.7":                   "203.0.113.7",
		"::ffff:203.0.113.7":            "203.0.113.7",
		"not an address":                "not an address",
	} {
		if got := AddrKey(addr); got != want {
			t.Errorf("AddrKey(%q) = %q, want %q", addr, got, want)
		}
	}

	// The attack: one request from each of many addresses of one /64.
	l := New(3, time.Hour)
	allowed := 0
	for i := range 100 {
		addr := fmt.Sprintf("2001:db8:1:2:%x::%x", i*7919&0xffff, i+1)
		if ok, _ := l.Allow(AddrKey(addr)); ok {
			allowed++
		}
	}
	if allowed != 3 {
		t.Fatalf("100 addresses of one /64 were allowed %d requests, want the burst of 3", allowed)
	}
}

// TestAllowNSpendsABatchAtOnce: the calls of a batch are spent together, or
// none of them.
func TestAllowNSpendsABatchAtOnce(t *testing.T) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	l := New(10, time.Second, WithClock(func() time.Time { return now }))
	if ok, _ := l.AllowN("a", 7); !ok {
		t.Fatal("7 of a burst of 10 refused")
	}
	if ok, wait := l.AllowN("a", 4); ok || wait != time.Second {
		t.Fatalf("4 with 3 left: %v %v, want refused for 1 s", ok, wait)
	}
	if ok, _ := l.AllowN("a", 3); !ok {
		t.Fatal("the 3 left were spent by the refused batch")
	}
	if ok, _ := l.Allow("a"); ok {
		t.Fatal("a request past the burst was allowed")
	}
	if ok, _ := l.AllowN("b", 11); ok {
		t.Fatal("more than the burst at once was allowed")
	}
}
