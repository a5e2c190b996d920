package web

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

func TestClientIP(t *testing.T) {
	t.Parallel()
	trusted := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8"), netip.MustParsePrefix("127.0.0.1/32")}
	cases := []struct {
		name, peer, xff string
		trusted         []netip.Prefix
		want            string
	}{
		{"no proxies configured: the header is ignored", "203.0.113.9:5000", "198.51.100.1", nil, "203.0.113.9"},
		{"untrusted peer: the header is ignored", "203.0.113.9:5000", "198.51.100.1", trusted, "203.0.113.9"},
		{"trusted proxy: the client it names", "10.1.2.3:443", "198.51.100.1", trusted, "198.51.100.1"},
		{"a chain of trusted proxies is skipped from the right", "127.0.0.1:80", "198.51.100.1, 10.0.0.5, 10.9.9.9", trusted, "198.51.100.1"},
		{"a forged left part is not believed", "10.1.2.3:443", "6.6.6.6, 198.51.100.1", trusted, "198.51.100.1"},
		{"trusted proxy without the header: the proxy", "10.1.2.3:443", "", trusted, "10.1.2.3"},
		{"garbage after the client: the last good hop", "10.1.2.3:443", "198.51.100.1, not-an-ip", trusted, "10.1.2.3"},
		{"IPv4 written as IPv6 is matched", "[::ffff:10.1.2.3]:443", "2001:db8::1", trusted, "2001:db8::1"},
		{"only trusted hops: the leftmost", "10.1.2.3:443", "10.0.0.7", trusted, "10.0.0.7"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = c.peer
			if c.xff != "" {
				r.Header.Set("X-Forwarded-For", c.xff)
			}
			if got := clientIP(r, c.trusted); got != c.want {
				t.Fatalf("clientIP = %q, want %q", got, c.want)
			}
		})
	}
}

// Behind a trusted proxy every visitor has a bucket of their own; without the
// setting, a forged header must not let one visitor escape the limit.
func TestRateLimitsFollowTrustedProxies(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	join := func(b *browser, i int, xff string) int {
		req, _ := http.NewRequest("POST", b.srv.URL+"/api/waitlist", strings.NewReader(fmt.Sprintf(`{"full_name":"P","email":"p%d@example.com"}`, i)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", xff)
		resp, err := b.c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		return resp.StatusCode
	}

	behind := newBrowser(t, newTestSite(t, db, map[string]string{"TRIBE_TRUSTED_PROXIES": "127.0.0.1"}).srv)
	for i := range 20 {
		if s := join(behind, i, "198.51.100.1"); s != 201 {
			t.Fatalf("first visitor, request %d: %d", i+1, s)
		}
	}
	if s := join(behind, 20, "198.51.100.1"); s != 429 {
		t.Fatalf("first visitor over the limit: %d, want 429", s)
	}
	if s := join(behind, 21, "198.51.100.2"); s != 201 {
		t.Fatalf("second visitor behind the same proxy: %d, want 201", s)
	}

	direct := newBrowser(t, newTestSite(t, db, nil).srv)
	for i := range 20 {
		if s := join(direct, 100+i, fmt.Sprintf("198.51.100.%d", i)); s != 201 {
			t.Fatalf("direct request %d: %d", i+1, s)
		}
	}
	if s := join(direct, 200, "198.51.100.99"); s != 429 {
		t.Fatalf("a forged X-Forwarded-For escaped the limit: %d, want 429", s)
	}
}

// TestIPv6SubnetGetsOneAllowance: per-address limits keyed on the full IPv6
// address, so a client with a /64 (2⁶⁴ addresses) had no limit at all. One
// /64 now shares one allowance; the next /64 is another client.
func TestIPv6SubnetGetsOneAllowance(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		b := newBrowser(t, newTestSite(t, db, map[string]string{"TRIBE_TRUSTED_PROXIES": "127.0.0.1"}).srv)
		join := func(i int, client string) int {
			req, _ := http.NewRequest("POST", b.srv.URL+"/api/waitlist", strings.NewReader(fmt.Sprintf(`{"full_name":"P","email":"v6-%d@example.com"}`, i)))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Forwarded-For", client)
			resp, err := b.c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			_ = resp.Body.Close()
			return resp.StatusCode
		}
		for i := range 20 {
			if s := join(i, fmt.Sprintf("2001:db8:7:1:%x::%x", i*4099&0xffff, i+1)); s != 201 {
				t.Fatalf("request %d from the /64: %d", i+1, s)
			}
		}
		if s := join(20, "2001:db8:7:1:ffff:ffff:ffff:fffe"); s != 429 {
			t.Fatalf("a new address in the same /64: %d, want 429", s)
		}
		if s := join(21, "2001:db8:7:2::1"); s != 201 {
			t.Fatalf("the next /64: %d, want 201", s)
		}
	})
}
