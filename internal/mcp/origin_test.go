package mcp

import (
	"net/http/httptest"
	"testing"
)

func TestOriginPolicy(t *testing.T) {
	for _, c := range []struct {
		base, host, origin string
		ok                 bool
	}{
		{"https://ruv.io", "ruv.io", "", true},
		{"https://ruv.io", "ruv.io", "https://ruv.io", true},
		{"https://ruv.io", "ruv.io", "https://RUV.io:443", true},
		{"https://ruv.io", "ruv.io:443", "https://inspector.example", true},
		{"https://ruv.io", "127.0.0.1:8080", "https://ruv.io", true},
		{"https://ruv.io", "127.0.0.1:8080", "https://inspector.example", false},
		{"https://ruv.io", "127.0.0.1:8080", "http://localhost:6274", true},
		{"https://ruv.io", "[::1]:8080", "http://[::1]:3000", true},
		{"https://ruv.io", "evil.example", "https://evil.example", false},
		{"https://ruv.io", "evil.example", "https://ruv.io.evil.example", false},
		{"https://ruv.io", "192.168.1.9:8080", "http://192.168.1.9:8080", false},
		{"https://ruv.io", "localhost:8080", "null", false},
		{"https://ruv.io", "ruv.io", "http://ruv.io", true}, // another scheme, but the public name: a cross-origin read
		{"http://localhost:8080", "localhost:8080", "http://localhost:8080", true},
		{"http://localhost:8080", "127.0.0.1:8080", "http://127.0.0.1:8080", true},
		{"http://localhost:8080", "localhost:8080", "https://anywhere.example", true},
		{"https://example.com/ruv", "example.com", "https://example.com", true},
	} {
		p, err := NewOriginPolicy(c.base)
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("POST", "/mcp", nil)
		r.Host = c.host
		if c.origin != "" {
			r.Header.Set("Origin", c.origin)
		}
		if err := p.Check(r); (err == nil) != c.ok {
			t.Errorf("base %s, Host %s, Origin %q: %v, want ok=%v", c.base, c.host, c.origin, err, c.ok)
		}
	}
	if _, err := NewOriginPolicy("ftp://x"); err == nil {
		t.Error("a non-http base URL was accepted")
	}
}

func TestCardName(t *testing.T) {
	for base, want := range map[string]string{
		"https://ruv.io":          "io.ruv/mcp",
		"https://www.ruv.io/site": "io.ruv.www/mcp",
		"http://localhost:8080":   "localhost/mcp",
		"http://127.0.0.1:9000":   "127.0.0.1/mcp",
	} {
		if got := cardName(base); got != want {
			t.Errorf("cardName(%s) = %s, want %s", base, got, want)
		}
	}
}
