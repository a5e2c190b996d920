package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"tribe/internal/config"
	"tribe/internal/httpx"
	"tribe/internal/metrics"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

const indexHTML = `<!doctype html><html><head><title>rUv</title></head><body><div id="root"></div></body></html>`

func gz(t testing.TB, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, _ = w.Write([]byte(s))
	_ = w.Close()
	return b.Bytes()
}

func testApp(t testing.TB) fstest.MapFS {
	js := strings.Repeat("console.log('tribe');", 100)
	return fstest.MapFS{
		"index.html":              {Data: []byte(indexHTML)},
		"about/index.html":        {Data: []byte(`<html><title>About | rUv</title><h1>About</h1></html>`)},
		"assets/app-abc123.js":    {Data: []byte(js)},
		"assets/app-abc123.js.gz": {Data: gz(t, js)},
		"assets/app-abc123.js.br": {Data: []byte("brotli-bytes")},
		"favicon.svg":             {Data: []byte(`<svg xmlns="http://www.w3.org/2000/svg"></svg>`)},
		".gitkeep":                {Data: nil},
	}
}

func newTestServer(t *testing.T, app fstest.MapFS) (*httptest.Server, *store.DB) {
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
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, db
}

func get(t *testing.T, srv *httptest.Server, path string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	tr := &http.Transport{DisableCompression: true}
	c := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

func TestAppRoutesAndNotFound(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, testApp(t))
	for _, route := range appRoutes {
		resp, body := get(t, srv, route, nil)
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d", route, resp.StatusCode)
		}
		if resp.Header.Get("Cache-Control") != "no-cache" || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: cache %q type %q", route, resp.Header.Get("Cache-Control"), resp.Header.Get("Content-Type"))
		}
		if route == "/about" {
			if !strings.Contains(body, "About | rUv") {
				t.Errorf("/about did not get its prerendered page: %q", body)
			}
		} else if body != indexHTML {
			t.Errorf("%s: body %q", route, body)
		}
	}
	for _, p := range []string{"/nope", "/about/extra", "/index.html", "/assets/missing.js", "/about/index.html"} {
		resp, body := get(t, srv, p, nil)
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d, want 404", p, resp.StatusCode)
		}
		if body != indexHTML {
			t.Errorf("%s: 404 should render the app's 404 page, got %q", p, body)
		}
	}
	resp, body := get(t, srv, "/api/nothing", nil)
	if resp.StatusCode != 404 || !strings.Contains(body, `"code":"not_found"`) {
		t.Errorf("/api/nothing: %d %s", resp.StatusCode, body)
	}
}

func TestPrerenderedPagesShellAndBaseURL(t *testing.T) {
	t.Parallel()
	app := testApp(t)
	home := `<html><head><link rel="canonical" href="%TRIBE_BASE_URL%/" /></head><div id="root"><h1>Agentic Coaching</h1></div></html>`
	app["index.html"] = &fstest.MapFile{Data: []byte(home)}
	app["index.html.br"] = &fstest.MapFile{Data: []byte("stale brotli with the placeholder")}
	app["about/index.html"] = &fstest.MapFile{Data: []byte(`<title>About | rUv</title><link rel="canonical" href="%TRIBE_BASE_URL%/about" />`)}
	app["shell.html"] = &fstest.MapFile{Data: []byte(`<div id="root"></div>`)}
	srv, _ := newTestServer(t, app) // TRIBE_BASE_URL defaults to http://localhost:8080

	resp, body := get(t, srv, "/", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `href="http://localhost:8080/"`) || strings.Contains(body, "%TRIBE_BASE_URL%") {
		t.Fatalf("/: %d %q", resp.StatusCode, body)
	}
	resp, body = get(t, srv, "/", map[string]string{"Accept-Encoding": "br, gzip"})
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("a filled page must not use the build's brotli copy; encoding %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !strings.Contains(string(plain), `href="http://localhost:8080/"`) {
		t.Fatalf("gzip copy of / not filled: %q", plain)
	}
	_, body = get(t, srv, "/about", nil)
	if !strings.Contains(body, `href="http://localhost:8080/about"`) {
		t.Fatalf("/about: %q", body)
	}
	for _, p := range []string{"/members", "/nope"} {
		_, body = get(t, srv, p, nil)
		if body != `<div id="root"></div>` {
			t.Errorf("%s should get the app shell, got %q", p, body)
		}
	}
	if resp, _ := get(t, srv, "/shell.html", nil); resp.StatusCode != 404 {
		t.Errorf("/shell.html served directly with %d", resp.StatusCode)
	}
	// A booking's own page is the shell with 200, never indexed (its address holds a token);
	// the bare prefix and deeper paths are not pages.
	resp, body = get(t, srv, "/bookings/bk_1?token=abc", nil)
	if resp.StatusCode != 200 || body != `<div id="root"></div>` || resp.Header.Get("X-Robots-Tag") != "noindex" {
		t.Errorf("/bookings/{id}: %d %q robots %q", resp.StatusCode, body, resp.Header.Get("X-Robots-Tag"))
	}
	for _, p := range []string{"/bookings/", "/bookings/bk_1/more"} {
		if resp, _ := get(t, srv, p, nil); resp.StatusCode != 404 && resp.StatusCode != 308 {
			t.Errorf("%s: %d, want 404 (or the redirect of a trailing slash)", p, resp.StatusCode)
		}
	}
}

func TestAssetsCachingAndCompression(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, testApp(t))
	resp, body := get(t, srv, "/assets/app-abc123.js", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("asset: %d %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	if !strings.Contains(resp.Header.Get("Content-Type"), "javascript") || resp.Header.Get("Content-Encoding") != "" {
		t.Errorf("identity asset: type %q encoding %q", resp.Header.Get("Content-Type"), resp.Header.Get("Content-Encoding"))
	}
	if !strings.HasPrefix(body, "console.log") || resp.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("identity body or Vary wrong: %q", resp.Header.Get("Vary"))
	}

	resp, body = get(t, srv, "/assets/app-abc123.js", map[string]string{"Accept-Encoding": "gzip, deflate, br"})
	if resp.Header.Get("Content-Encoding") != "br" || body != "brotli-bytes" {
		t.Errorf("br preferred: encoding %q", resp.Header.Get("Content-Encoding"))
	}
	resp, body = get(t, srv, "/assets/app-abc123.js", map[string]string{"Accept-Encoding": "gzip, br;q=0"})
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("br;q=0 must fall back to gzip, got %q", resp.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := io.ReadAll(zr)
	if !strings.HasPrefix(string(plain), "console.log") {
		t.Error("gzip variant does not decode to the asset")
	}

	resp, _ = get(t, srv, "/favicon.svg", nil)
	if resp.Header.Get("Cache-Control") != "public, max-age=3600" || resp.Header.Get("Content-Type") != "image/svg+xml" {
		t.Errorf("favicon: %q %q", resp.Header.Get("Cache-Control"), resp.Header.Get("Content-Type"))
	}
	resp, _ = get(t, srv, "/.gitkeep", nil)
	if resp.StatusCode != 404 {
		t.Errorf(".gitkeep served with %d", resp.StatusCode)
	}
}

func TestETagRevalidation(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, testApp(t))
	resp, _ := get(t, srv, "/", nil)
	etag := resp.Header.Get("ETag")
	if etag == "" {
		t.Fatal("no ETag on /")
	}
	resp, body := get(t, srv, "/", map[string]string{"If-None-Match": etag})
	if resp.StatusCode != http.StatusNotModified || body != "" {
		t.Fatalf("revalidation: %d with %d bytes", resp.StatusCode, len(body))
	}
	resp, _ = get(t, srv, "/nope", map[string]string{"If-None-Match": etag})
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("a 404 must never become a 304, got %d", resp.StatusCode)
	}
}

func TestTrailingSlashRedirectsAndMethods(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, testApp(t))
	resp, _ := get(t, srv, "/about/?ref=x", nil)
	if resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != "/about?ref=x" {
		t.Fatalf("trailing slash: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	req, _ := http.NewRequest(http.MethodHead, srv.URL+"/", nil)
	head, err := http.DefaultClient.Do(req)
	if err != nil || head.StatusCode != 200 {
		t.Fatalf("HEAD /: %v %v", head, err)
	}
	req, _ = http.NewRequest(http.MethodPut, srv.URL+"/about", nil)
	put, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if put.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("PUT /about: %d", put.StatusCode)
	}
}

func TestCrossOriginWritesRefused(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, testApp(t))
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/anything", strings.NewReader("{}"))
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site POST: %d, want 403", resp.StatusCode)
	}
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, testApp(t))
	resp, _ := get(t, srv, "/", nil)
	for k, want := range map[string]string{
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "strict-origin-when-cross-origin",
		"X-Frame-Options":        "DENY",
	} {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
	csp := resp.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "frame-ancestors 'none'") || !strings.Contains(csp, "default-src 'self'") {
		t.Errorf("CSP %q", csp)
	}
}

func TestHealthAndReadiness(t *testing.T) {
	t.Parallel()
	srv, db := newTestServer(t, testApp(t))
	resp, body := get(t, srv, "/healthz", nil)
	if resp.StatusCode != 200 || !strings.Contains(body, `"status":"ok"`) {
		t.Fatalf("healthz: %d %s", resp.StatusCode, body)
	}
	resp, body = get(t, srv, "/readyz", nil)
	var ready map[string]string
	_ = json.Unmarshal([]byte(body), &ready)
	if resp.StatusCode != 200 || ready["database"] != "sqlite" {
		t.Fatalf("readyz: %d %s", resp.StatusCode, body)
	}
	_ = db.Close()
	resp, body = get(t, srv, "/readyz", nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, `"code":"unavailable"`) {
		t.Fatalf("readyz with a closed database: %d %s", resp.StatusCode, body)
	}
	resp, _ = get(t, srv, "/healthz", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("healthz must not depend on the database: %d", resp.StatusCode)
	}
}

func TestUnbuiltAppSaysSo(t *testing.T) {
	t.Parallel()
	srv, _ := newTestServer(t, fstest.MapFS{".gitkeep": {}})
	resp, body := get(t, srv, "/", nil)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, "make build") {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
}

func TestPanicsBecomeJSON500(t *testing.T) {
	t.Parallel()
	h := recoverPanics(slog.New(slog.NewTextHandler(io.Discard, nil)), http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		panic("boom")
	}))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(context.Background(), http.MethodGet, "/", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"code":"internal"`) {
		t.Fatalf("%d %s", rec.Code, rec.Body.String())
	}
}

func TestRequestLogLine(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	h := observeRequests(logger, metrics.New(metrics.Sources{}), http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequestWithContext(context.Background(), http.MethodGet, "/tea", nil))
	line := buf.String()
	for _, want := range []string{"path=/tea", "status=418", "duration=", "method=GET"} {
		if !strings.Contains(line, want) {
			t.Errorf("log line %q lacks %q", line, want)
		}
	}
	if strings.Count(line, "\n") != 1 {
		t.Errorf("want one line per request, got %q", line)
	}
}

// TestPageHitsAreLoggedAtDebugLevel: at info level the request log leaves
// out pages and files of the web app served without error, and keeps their
// failures and every other route; at debug level every request has a line.
func TestPageHitsAreLoggedAtDebugLevel(t *testing.T) {
	t.Parallel()
	db := storetest.Open(t, "", t.TempDir())
	cfg, err := config.Load(func(string) string { return "" }, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var buf bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level}))
		h, err := New(testOptions(t, cfg, db, withOptions(func(o *Options) { o.Logger = logger })))
		if err != nil {
			t.Fatal(err)
		}
		buf.Reset()
		for _, path := range []string{"/about", "/assets/app-abc123.js", "/nowhere", "/healthz", "/api/nothing"} {
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
		}
		logged := buf.String()
		for path, atInfo := range map[string]bool{"/about": false, "/assets/app-abc123.js": false, "/nowhere": true, "/healthz": true, "/api/nothing": true} {
			want := atInfo || level == slog.LevelDebug
			if got := strings.Contains(logged, "path="+path+" "); got != want {
				t.Errorf("at %s, %s logged: %v, want %v\n%s", level, path, got, want, logged)
			}
		}
	}
}

// TestRequestLogLineCarriesTheInternalError: a handler behind the mux
// answers with an internal error; the request's one log line is an error
// line holding it, and the metrics count the request under its pattern.
func TestRequestLogLineCarriesTheInternalError(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	m := metrics.New(metrics.Sources{})
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/things/{id}", func(w http.ResponseWriter, r *http.Request) {
		httpx.WriteError(w, r, errors.New("disk on fire"))
	})
	h := observeRequests(logger, m, notePattern(mux))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequestWithContext(context.Background(), http.MethodGet, "/api/things/7", nil))
	if rec.Code != 500 || strings.Contains(rec.Body.String(), "disk") {
		t.Fatalf("answer %d %s", rec.Code, rec.Body.String())
	}
	line := buf.String()
	for _, want := range []string{"level=ERROR", `err="disk on fire"`, "path=/api/things/7", "status=500"} {
		if !strings.Contains(line, want) {
			t.Errorf("log line %q lacks %q", line, want)
		}
	}
	scrape := httptest.NewRecorder()
	m.Handler().ServeHTTP(scrape, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if want := `tribe_http_requests_total{method="GET",route="GET /api/things/{id}",status="500"} 1`; !strings.Contains(scrape.Body.String(), want) {
		t.Errorf("metrics lack %s", want)
	}
}

func TestAcceptedEncodings(t *testing.T) {
	t.Parallel()
	cases := map[string]codings{
		"gzip;q=1.0, identity; q=0.5, BR;q=0, *;q=0": {gzip: true},
		"br, gzip":            {br: true, gzip: true},
		"GZIP":                {gzip: true},
		"deflate, br;q=0.5":   {br: true},
		"gzip;q=0, br;q=0.0":  {},
		"":                    {},
		" , ;q=0, gzip ; q=1": {gzip: true},
	}
	for header, want := range cases {
		if got := acceptedCodings(header); got != want {
			t.Errorf("%q: %+v, want %+v", header, got, want)
		}
	}
}

// TestPagesFirstTakesOnlyTheAppsRoutes: pages skip the mux only where the
// mux would have given them to the web app anyway: /about does, /mcp (a GET
// route of its own) does not, and other methods always go through the mux.
func TestPagesFirstTakesOnlyTheAppsRoutes(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /mcp", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "mcp route") })
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "through the mux") })
	site := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "first") })
	h := pagesFirst(mux, site, mux)
	for _, c := range []struct{ method, path, want string }{
		{"GET", "/about", "first"},
		{"HEAD", "/tribe", "first"},
		{"GET", "/mcp", "mcp route"},
		{"POST", "/about", "through the mux"},
		{"GET", "/about/", "through the mux"},
		{"GET", "/not-a-page", "through the mux"},
	} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		if got := rec.Body.String(); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.method, c.path, got, c.want)
		}
	}
}
