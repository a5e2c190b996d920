package web

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestTrailingSlashRedirectStaysOnSite: the trailing-slash redirect once sent
// GET /%2fevil.example/ to Location //evil.example (another site, for every
// browser). Paths whose target would leave the site, or that hold control
// characters or backslashes (which browsers drop or read as "/"), answer the
// 404 page instead.
func TestTrailingSlashRedirectStaysOnSite(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, testApp(t))
	for _, p := range []string{
		"/%2fevil.example/",
		"/%2Fevil.example/",
		"/%5Cevil.example/",
		"/%5cevil.example/",
		"/%2F%2Fevil/",
		"/%5C%5Cevil/",
		"/%2f%5cevil/",
		"/%09/evil/",
		"/%09%2fevil/",
		"/%0d%0a/evil/",
		"/%0D%0ASet-Cookie:%20x=1/",
		"/about%5C/",
		"/%7f/",
	} {
		resp, _ := get(t, srv, p, nil)
		if loc := resp.Header.Get("Location"); resp.StatusCode != http.StatusNotFound || loc != "" {
			t.Errorf("GET %s: %d Location %q, want 404 without a redirect", p, resp.StatusCode, loc)
		}
	}
	// A NUL is refused on every route before any of them runs (nul.go).
	if resp, _ := get(t, srv, "/%00/", nil); resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
		t.Errorf("GET /%%00/: %d Location %q, want 400 without a redirect", resp.StatusCode, resp.Header.Get("Location"))
	}
	for p, want := range map[string]string{
		"/about/":          "/about",
		"/about/?ref=x":    "/about?ref=x",
		"/a%2fb/":          "/a/b",
		"/members/?tab=me": "/members?tab=me",
	} {
		resp, _ := get(t, srv, p, nil)
		if resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
			t.Errorf("GET %s: %d %q, want 308 to %q", p, resp.StatusCode, resp.Header.Get("Location"), want)
		}
	}
}

// TestSameSitePath checks the rule on decoded paths, as the handler sees them.
func TestSameSitePath(t *testing.T) {
	t.Parallel()
	for p, want := range map[string]bool{
		"/": true, "/about": true, "/a/b": true, "/é": true,
		"": false, "about": false, "//evil": false, `/\evil`: false, "/\t/evil": false, "/\r\n": false,
		`/a\b`: false, "/a\x00": false, "/a\x7f": false, "https://evil": false, "/a\u0085": false,
	} {
		if got := sameSitePath(p); got != want {
			t.Errorf("sameSitePath(%q) = %v, want %v", p, got, want)
		}
	}
	// The handler itself, with a path no client library would send.
	site, err := loadStatic(testApp(t), "http://localhost:8080", nil)
	if err != nil {
		t.Fatal(err)
	}
	req := httptest.NewRequest(http.MethodGet, "/x/", nil)
	req.URL.Path = "/\t/evil.example/"
	rec := httptest.NewRecorder()
	site.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound || rec.Header().Get("Location") != "" {
		t.Fatalf("tab path: %d %q", rec.Code, rec.Header().Get("Location"))
	}
	// The query is copied into Location as sent: a control character in it
	// (found by FuzzTrailingSlashRedirect) is not redirected either.
	req = httptest.NewRequest(http.MethodGet, "/about/", nil)
	req.URL.RawQuery = "a=\x05\r\nSet-Cookie: x=1"
	rec = httptest.NewRecorder()
	site.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound || rec.Header().Get("Location") != "" {
		t.Fatalf("control characters in the query: %d %q", rec.Code, rec.Header().Get("Location"))
	}
}
