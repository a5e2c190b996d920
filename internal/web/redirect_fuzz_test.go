package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"unicode"
)

// FuzzTrailingSlashRedirect: for any decoded path, a redirect the static
// site answers stays on the site as a browser reads it (browsers drop tabs
// and line breaks and read "\" as "/").
func FuzzTrailingSlashRedirect(f *testing.F) {
	for _, p := range []string{"/about/", "//evil.example/", `/\evil.example/`, "/\t/evil/", "/\r\n/evil/", "///x/", "/a/b/", "/%2f/", "/../", "/./evil/", "/ /"} {
		f.Add(p, "ref=x")
	}
	site, err := loadStatic(testApp(f), "http://localhost:8080", nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.URL.Path, req.URL.RawQuery = path, query
		rec := httptest.NewRecorder()
		site.ServeHTTP(rec, req)
		loc := rec.Header().Get("Location")
		if loc == "" {
			return
		}
		// The URL Standard: trim C0 controls and spaces, drop tabs and line
		// breaks, read "\" as "/"; then "//…" names another host and a
		// single "/" a path on this one.
		browser := strings.TrimFunc(loc, func(r rune) bool { return r <= ' ' })
		browser = strings.NewReplacer("\t", "", "\r", "", "\n", "", `\`, "/").Replace(browser)
		if !strings.HasPrefix(browser, "/") || strings.HasPrefix(browser, "//") {
			t.Fatalf("path %q, query %q redirect to %q, which a browser reads as %q: not a path on this site", path, query, loc, browser)
		}
		if strings.ContainsFunc(loc, unicode.IsControl) {
			t.Fatalf("path %q, query %q: Location %q holds a control character", path, query, loc)
		}
	})
}

// FuzzRedactPath: whatever the token, a feed path and a token parameter
// never reach the log line as they were sent.
func FuzzRedactPath(f *testing.F) {
	for _, tok := range []string{"abc", "Q2FsZW5kYXIgZmVlZCB0b2tlbiBvZiA0MyBjaGFycy4x", "a&b=c", "%zz", "é", ""} {
		f.Add(tok, "reset=true")
	}
	f.Fuzz(func(t *testing.T, tok, other string) {
		line := redactPath(feedPrefix+tok+".ics", other+"&token="+url.QueryEscape(tok))
		path, query, _ := strings.Cut(line, "?")
		if tok != "" && path != feedPrefix+redacted+".ics" {
			t.Fatalf("feed path %q logged as %q", feedPrefix+tok+".ics", path)
		}
		last := query[strings.LastIndex(query, "&")+1:]
		if want := "token=" + redacted; tok != "" && last != want {
			t.Fatalf("token %q logged as %q", tok, last)
		}
	})
}
