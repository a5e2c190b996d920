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
