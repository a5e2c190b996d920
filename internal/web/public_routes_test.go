package web

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	contentfiles "tribe/content"
	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/content/contenttest"
	"tribe/internal/httpx"
)

const testBaseURL = "https://ruv.example"

// newPublicServer serves the site with the given environment on top of a
// base URL, the way tribe serve does; the public documents need no database.
func newPublicServer(t *testing.T, env map[string]string) *httptest.Server {
	t.Helper()
	h, err := newPublicHandler(t, env)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func newPublicHandler(t *testing.T, env map[string]string) (http.Handler, error) {
	t.Helper()
	vars := map[string]string{"TRIBE_BASE_URL": testBaseURL}
	for k, v := range env {
		vars[k] = v
	}
	cfg, err := config.Load(func(k string) string { return vars[k] }, "")
	if err != nil {
		t.Fatal(err)
	}
	// The content is loaded as serve loads it, before the handler is built:
	// bad content stops the program there.
	site, err := content.Load(cfg.ContentDir)
	if err != nil {
		return nil, err
	}
	return New(testOptions(t, cfg, nil, withOptions(func(o *Options) { o.Content = site })))
}

// contentCopy writes the embedded content into a directory for
// TRIBE_CONTENT_DIR and lets the test change one file first.
func contentCopy(t *testing.T, name string, change func(string) string) string {
	t.Helper()
	dir := contenttest.Copy(t)
	path := filepath.Join(dir, filepath.FromSlash(name))
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(change(string(b))), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func embedded(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(contentfiles.FS(), name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestContentFilesAreServedAsWritten(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, nil)
	for _, name := range content.PublicFiles() {
		path := "/content/" + name
		resp, body := get(t, srv, path, nil)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", path, resp.StatusCode)
		}
		if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", path, ct)
		}
		if cc := resp.Header.Get("Cache-Control"); cc != "public, max-age=300" {
			t.Errorf("%s: Cache-Control %q", path, cc)
		}
		if body != embedded(t, name) {
			t.Errorf("%s: body differs from content/%s", path, name)
		}
		etag := resp.Header.Get("ETag")
		if etag == "" {
			t.Fatalf("%s: no ETag", path)
		}
		resp, body = get(t, srv, path, map[string]string{"If-None-Match": etag})
		if resp.StatusCode != http.StatusNotModified || body != "" {
			t.Errorf("%s: revalidation gave %d with %d bytes", path, resp.StatusCode, len(body))
		}
	}

	req, _ := http.NewRequest(http.MethodHead, srv.URL+"/content/services.json", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	wantLen := strconv.Itoa(len(embedded(t, "services.json")))
	if resp.StatusCode != http.StatusOK || len(body) != 0 || resp.Header.Get("Content-Length") != wantLen {
		t.Errorf("HEAD: %d, %d body bytes, Content-Length %q (want %s)", resp.StatusCode, len(body), resp.Header.Get("Content-Length"), wantLen)
	}
}

func TestUnknownContentFileIsJSON404(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, nil)
	for _, path := range []string{"/content/x.json", "/content/embed.go", "/content/resources.json"} {
		resp, body := get(t, srv, path, nil)
		var e httpx.ErrorBody
		if err := json.Unmarshal([]byte(body), &e); err != nil {
			t.Fatalf("%s: not JSON: %q", path, body)
		}
		if resp.StatusCode != http.StatusNotFound || e.Error.Code != "not_found" || !strings.Contains(e.Error.Message, "about.json") {
			t.Errorf("%s: %d %+v", path, resp.StatusCode, e)
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Errorf("%s: Content-Type %q", path, resp.Header.Get("Content-Type"))
		}
	}
}

func TestMCPResourcesAndSearchIndex(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, nil)
	resp, body := get(t, srv, "/mcp/resources.json", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("resources: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if body != embedded(t, "mcp/resources.json") {
		t.Error("resources body differs from content/mcp/resources.json")
	}
	var res content.Resources
	if err := json.Unmarshal([]byte(body), &res); err != nil || len(res.Resources) == 0 {
		t.Fatalf("resources: %v %s", err, body)
	}
	// Every listed resource answers 200 on this server: resources/read works.
	for _, r := range res.Resources {
		if resp, _ := get(t, srv, r.URI, nil); resp.StatusCode != http.StatusOK {
			t.Errorf("resource %s answers %d", r.URI, resp.StatusCode)
		}
	}

	resp, body = get(t, srv, "/mcp/search-index.json", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Fatalf("search index: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var idx content.SearchIndex
	if err := json.Unmarshal([]byte(body), &idx); err != nil {
		t.Fatal(err)
	}
	uris := map[string]bool{}
	found299 := false
	for _, it := range idx.Items {
		if it.URI == "" || it.Title == "" || it.Text == "" || len(it.Tags) == 0 {
			t.Errorf("incomplete item %+v", it)
		}
		uris[it.URI] = true
		found299 = found299 || strings.Contains(it.Text, "30-minute one-to-one session for $299")
	}
	if len(uris) != len(content.PublicFiles()) || !found299 {
		t.Errorf("index covers %v; 30-minute session at $299 found: %v", uris, found299)
	}
}

func TestDiscoveryDocumentAtBothAddresses(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, nil)
	resp, wellKnown := get(t, srv, "/.well-known/mcp.json", nil)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("/.well-known/mcp.json: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	resp, plain := get(t, srv, "/mcp.json", nil)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("/mcp.json: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if plain != wellKnown {
		t.Error("/mcp.json and /.well-known/mcp.json differ")
	}
	if resp.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Error("the discovery document must be readable from other origins")
	}
	var doc struct {
		Version      string          `json:"version"`
		Name         string          `json:"name"`
		Capabilities map[string]bool `json:"capabilities"`
		Servers      []any           `json:"servers"`
		Tools        []struct {
			Name string `json:"name"`
		} `json:"tools"`
		Resources []struct {
			URI  string `json:"uri"`
			Name string `json:"name"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(plain), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != "2025-01-18" || doc.Name == "" || !doc.Capabilities["tools"] || !doc.Capabilities["resources"] {
		t.Errorf("document %+v", doc)
	}
	if len(doc.Servers) != 1 || fmt.Sprint(doc.Servers[0]) != "map[name:rUv transport:streamable-http url:"+testBaseURL+"/mcp]" {
		t.Errorf("servers %v, want the site's own MCP endpoint", doc.Servers)
	}
	if len(doc.Tools) != 3 || len(doc.Resources) != 4 {
		t.Errorf("tools %v resources %v", doc.Tools, doc.Resources)
	}
	for _, r := range doc.Resources {
		if resp, _ := get(t, srv, r.URI, nil); resp.StatusCode != http.StatusOK {
			t.Errorf("discovery resource %s (%s) answers %d", r.URI, r.Name, resp.StatusCode)
		}
	}
}

func TestSitemapListsPublicPages(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, nil)
	resp, body := get(t, srv, "/sitemap.xml", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/xml; charset=utf-8" {
		t.Fatalf("sitemap: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !strings.HasPrefix(body, `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no XML declaration: %.60q", body)
	}
	var set struct {
		XMLName xml.Name
		URLs    []struct {
			Loc        string `xml:"loc"`
			ChangeFreq string `xml:"changefreq"`
			Priority   string `xml:"priority"`
		} `xml:"url"`
	}
	if err := xml.Unmarshal([]byte(body), &set); err != nil {
		t.Fatal(err)
	}
	if set.XMLName.Space != "http://www.sitemaps.org/schemas/sitemap/0.9" || set.XMLName.Local != "urlset" {
		t.Errorf("root element %v", set.XMLName)
	}
	got := map[string]string{}
	for _, u := range set.URLs {
		if !strings.HasPrefix(u.Loc, testBaseURL+"/") {
			t.Errorf("%s is not an absolute URL on the base URL", u.Loc)
		}
		got[strings.TrimPrefix(u.Loc, testBaseURL)] = u.ChangeFreq + " " + u.Priority
	}
	want := map[string]string{
		"/": "weekly 1.0", "/about": "monthly 0.8", "/projects": "weekly 0.9", "/mcp": "weekly 0.9",
		"/booking": "monthly 0.7", "/.well-known/mcp.json": "monthly 0.6", "/mcp.json": "monthly 0.6",
		"/tribe": "weekly 0.8", "/lean-agentic": "monthly 0.6", "/midstreamer": "monthly 0.6",
		"/agentic-payments": "monthly 0.6", "/ai-defence": "monthly 0.6", "/aimds": "monthly 0.6",
		"/book/session-15": "monthly 0.6", "/book/session-30": "monthly 0.6", "/book/session-60": "monthly 0.6",
		"/book/private": "monthly 0.6",
		"/book/group":   "monthly 0.6",
	}
	for path, w := range want {
		if got[path] != w {
			t.Errorf("%s: %q, want %q", path, got[path], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("sitemap has %d entries, want %d: %v", len(got), len(want), got)
	}
	// Every page of the app is either in the sitemap or deliberately private.
	private := []string{"/auth", "/members", "/members/library", "/admin/insights", "/agent-test", "/goal"}
	for _, route := range appRoutes {
		_, listed := got[route]
		if listed == slices.Contains(private, route) {
			t.Errorf("%s: listed=%v, private=%v", route, listed, slices.Contains(private, route))
		}
	}
	// And every listed address really answers.
	for path := range got {
		if resp, _ := get(t, srv, path, nil); resp.StatusCode != http.StatusOK {
			t.Errorf("sitemap entry %s answers %d", path, resp.StatusCode)
		}
	}
}

func TestSitemapKeepsBasePath(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, map[string]string{"TRIBE_BASE_URL": "https://example.org/site/"})
	_, body := get(t, srv, "/sitemap.xml", nil)
	if !strings.Contains(body, "<loc>https://example.org/site/</loc>") || !strings.Contains(body, "<loc>https://example.org/site/about</loc>") {
		t.Errorf("base path lost: %s", body)
	}
	_, robots := get(t, srv, "/robots.txt", nil)
	if !strings.Contains(robots, "Sitemap: https://example.org/site/sitemap.xml\n") {
		t.Errorf("robots: %q", robots)
	}
}

func TestRobots(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, nil)
	resp, body := get(t, srv, "/robots.txt", nil)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("robots: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	lines := strings.Split(strings.TrimSpace(body), "\n")
	for _, want := range []string{"User-agent: *", "Allow: /", "Sitemap: " + testBaseURL + "/sitemap.xml"} {
		if !slices.Contains(lines, want) {
			t.Errorf("robots.txt lacks %q: %q", want, body)
		}
	}
}

func TestMCPPageStaysWithTheApp(t *testing.T) {
	t.Parallel()
	srv := newPublicServer(t, nil)
	resp, body := get(t, srv, "/mcp", nil)
	if resp.StatusCode != 200 || body != indexHTML || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("/mcp: %d %q %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, _ = get(t, srv, "/mcp/", nil)
	if resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != "/mcp" {
		t.Errorf("/mcp/: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	resp, body = get(t, srv, "/mcp/other.json", nil)
	if resp.StatusCode != http.StatusNotFound || body != indexHTML {
		t.Errorf("/mcp/other.json: %d %q", resp.StatusCode, body)
	}
}

func TestOwnerContentDirIsServed(t *testing.T) {
	t.Parallel()
	dir := contentCopy(t, "services.json", func(s string) string {
		return strings.Replace(s, `"price": 299`, `"price": 349`, 1)
	})
	srv := newPublicServer(t, map[string]string{"TRIBE_CONTENT_DIR": dir})
	_, body := get(t, srv, "/content/services.json", nil)
	if !strings.Contains(body, `"price": 349`) || strings.Contains(body, `"price": 299`) {
		t.Error("/content/services.json does not serve the owner's file")
	}
	_, body = get(t, srv, "/mcp/search-index.json", nil)
	if !strings.Contains(body, "session for $349") || strings.Contains(body, "$299") {
		t.Error("the search index does not follow the owner's price")
	}
}

func TestBadContentStopsTheHandler(t *testing.T) {
	t.Parallel()
	// (0 would be valid: a natively booked session may be free.)
	dir := contentCopy(t, "services.json", func(s string) string {
		return strings.Replace(s, `"price": 299`, `"price": -299`, 1)
	})
	_, err := newPublicHandler(t, map[string]string{"TRIBE_CONTENT_DIR": dir})
	want := filepath.Join(dir, "services.json") + ": sessions[1].price: must be a positive number"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want it to contain %q", err, want)
	}
}

// Options.Content, when given, is what is served (tribe serve loads it once
// before building the handler).
func TestPreloadedContentIsUsed(t *testing.T) {
	t.Parallel()
	dir := contentCopy(t, "contact.json", func(s string) string {
		return strings.Replace(s, "ruv@ruv.io", "hello@ruv.example", 1)
	})
	site, err := content.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(func(string) string { return "" }, "")
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(testOptions(t, cfg, nil, withOptions(func(o *Options) { o.Content = site })))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/content/contact.json", nil))
	if rec.Code != 200 || !strings.Contains(rec.Body.String(), "hello@ruv.example") {
		t.Errorf("%d %s", rec.Code, rec.Body.String())
	}
}
