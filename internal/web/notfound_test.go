package web

import (
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"tribe/internal/config"
	"tribe/internal/store/storetest"
)

// notFoundHTML is a prerendered 404 page as web/scripts/prerender.mjs writes it: the requested
// path stands as a placeholder in two places.
const notFoundHTML = `<!doctype html><html><head><title>Page not found | rUv</title>` +
	`<meta name="robots" content="noindex" /></head><body><div id="root"><h1>Page Not Found</h1>` +
	`<p>$ cd <code>/%TRIBE_REQUEST_PATH%</code></p>` +
	`<p>bash: cd: <!-- -->/%TRIBE_REQUEST_PATH%<!-- -->: No such file or directory</p></div></body></html>`

func notFoundApp(t testing.TB) fstest.MapFS {
	app := testApp(t)
	app["shell.html"] = &fstest.MapFile{Data: []byte(`<div id="root"></div>`)}
	app["404.html"] = &fstest.MapFile{Data: []byte(notFoundHTML)}
	app["404.html.gz"] = &fstest.MapFile{Data: gz(t, notFoundHTML)}
	return app
}

// newTestHandler is the site's handler without a listener, so a test can send a request line a
// browser would have percent-encoded.
func newTestHandler(t *testing.T, app fs.FS) http.Handler {
	t.Helper()
	db := storetest.Open(t, "", t.TempDir())
	cfg, err := config.Load(func(string) string { return "" }, "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(testOptions(t, cfg, db, withOptions(func(o *Options) { o.App = app })))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// shownPaths are the texts the page shows where the placeholder was.
func shownPaths(t *testing.T, body string) []string {
	t.Helper()
	code := between(body, "<code>", "</code>")
	line := between(body, "bash: cd: <!-- -->", "<!-- -->: No such")
	return []string{code, line}
}

func between(s, start, end string) string {
	_, after, ok := strings.Cut(s, start)
	if !ok {
		return "<missing " + start + ">"
	}
	inside, _, _ := strings.Cut(after, end)
	return inside
}

func TestNotFoundPageShowsTheEscapedPath(t *testing.T) {
	t.Parallel()
	h := newTestHandler(t, notFoundApp(t))
	cases := []struct{ target, shown string }{
		{"/no/such/page", "/no/such/page"},
		{"/<script>alert(1)</script>", "/&lt;script&gt;alert(1)&lt;/script&gt;"},
		{`/a"b'c&d`, "/a&#34;b&#39;c&amp;d"},
		// What a browser sends for the same address: its location.pathname, shown as is.
		{"/%3Cscript%3Ealert(1)%3C/script%3E", "/%3Cscript%3Ealert(1)%3C/script%3E"},
		{"/nope?q=<b>x</b>", "/nope"},
		{"/About", "/About"},
	}
	for _, c := range cases {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, c.target, nil))
		body := rec.Body.String()
		if rec.Code != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", c.target, rec.Code)
		}
		if got := shownPaths(t, body); got[0] != c.shown || got[1] != c.shown {
			t.Errorf("%s: shows %q, want %q twice", c.target, got, c.shown)
		}
		if strings.Contains(body, "<script>alert") || strings.Contains(body, "%TRIBE_REQUEST_PATH%") {
			t.Errorf("%s: unescaped path or placeholder left in %q", c.target, body)
		}
		if !strings.Contains(body, "<title>Page not found | rUv</title>") ||
			!strings.Contains(body, `<meta name="robots" content="noindex" />`) {
			t.Errorf("%s: title or robots tag missing: %q", c.target, body)
		}
		if ct, cc := rec.Header().Get("Content-Type"), rec.Header().Get("Cache-Control"); ct != "text/html; charset=utf-8" || cc != "no-cache" {
			t.Errorf("%s: type %q cache %q", c.target, ct, cc)
		}
	}
}

func TestNotFoundPageCompressedAndHead(t *testing.T) {
	t.Parallel()
	h := newTestHandler(t, notFoundApp(t))
	req := httptest.NewRequest(http.MethodGet, "/<b>gone</b>", nil)
	req.Header.Set("Accept-Encoding", "br, gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotFound || rec.Header().Get("Content-Encoding") != "gzip" || rec.Header().Get("Vary") != "Accept-Encoding" {
		t.Fatalf("status %d, encoding %q, vary %q", rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Get("Vary"))
	}
	if rec.Header().Get("Content-Length") != strconv.Itoa(rec.Body.Len()) {
		t.Errorf("Content-Length %s for %d bytes", rec.Header().Get("Content-Length"), rec.Body.Len())
	}
	zr, err := gzip.NewReader(rec.Body)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if got := shownPaths(t, string(plain)); got[0] != "/&lt;b&gt;gone&lt;/b&gt;" {
		t.Errorf("gzip body shows %q", got)
	}

	head := httptest.NewRecorder()
	h.ServeHTTP(head, httptest.NewRequest(http.MethodHead, "/gone", nil))
	if head.Code != http.StatusNotFound || head.Body.Len() != 0 || head.Header().Get("Content-Length") == "" {
		t.Errorf("HEAD: %d, %d bytes, length %q", head.Code, head.Body.Len(), head.Header().Get("Content-Length"))
	}
}

func TestNotFoundPageOverHTTP(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, notFoundApp(t))
	for _, p := range []string{"/404.html", "/nope/", "/members/x"} {
		resp, body := get(t, srv, p, nil)
		if p == "/nope/" {
			if resp.StatusCode != http.StatusPermanentRedirect {
				t.Errorf("%s: status %d, want the trailing-slash redirect", p, resp.StatusCode)
			}
			continue
		}
		if resp.StatusCode != http.StatusNotFound || shownPaths(t, body)[0] != p {
			t.Errorf("%s: %d, shows %q", p, resp.StatusCode, shownPaths(t, body))
		}
	}
	// Known routes keep their own pages.
	if resp, body := get(t, srv, "/members", nil); resp.StatusCode != 200 || body != `<div id="root"></div>` {
		t.Errorf("/members: %d %q", resp.StatusCode, body)
	}
}
