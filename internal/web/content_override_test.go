package web

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"tribe/internal/content"
	"tribe/internal/content/contenttest"
	"tribe/internal/store/storetest"
)

// serveWithContent starts the site with content loaded from dir ("" = embedded).
func serveWithContent(t *testing.T, dir string) *httptest.Server {
	t.Helper()
	site, err := content.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	app := testApp(t)
	app["shell.html"] = &fstest.MapFile{Data: []byte(`<html><body><div id="root"></div></body></html>`)}
	return newTestSite(t, storetest.Open(t, "", t.TempDir()), nil, withOptions(func(o *Options) {
		o.App, o.Content = app, site
	})).srv
}

func contentScript(t *testing.T, page string) (map[string]json.RawMessage, bool) {
	t.Helper()
	// The element may carry data-rendered (TestPagesAreRenderedFromTheOwnersContent).
	const open = `<script id="tribe-content" type="application/json"`
	i := strings.Index(page, open)
	if i < 0 {
		return nil, false
	}
	rest := page[i+len(open):]
	rest = rest[strings.Index(rest, ">")+1:]
	end := strings.Index(rest, "</script>")
	if end < 0 {
		t.Fatalf("unterminated content script in %q", page)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal([]byte(rest[:end]), &doc); err != nil {
		t.Fatalf("content script is not JSON: %v", err)
	}
	return doc, true
}

func TestPagesCarryOverridingContent(t *testing.T) {
	t.Parallel()
	dir := contenttest.Copy(t)
	path := filepath.Join(dir, "services.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var services map[string]any
	if err := json.Unmarshal(b, &services); err != nil {
		t.Fatal(err)
	}
	services["tagline_for_test"] = "Owner's text </script><script>alert(1)</script>"
	edited, _ := json.Marshal(services)
	if err := os.WriteFile(path, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serveWithContent(t, dir)

	for _, p := range []string{"/", "/about", "/members", "/no-such-page"} {
		_, page := get(t, srv, p, nil)
		doc, ok := contentScript(t, page)
		if !ok {
			t.Fatalf("%s: no content script in %q", p, page)
		}
		if strings.Count(page, "</script>") != 1 {
			t.Fatalf("%s: the owner's text closed the script element early: %q", p, page)
		}
		var got map[string]any
		if err := json.Unmarshal(doc["services"], &got); err != nil {
			t.Fatal(err)
		}
		if got["tagline_for_test"] != services["tagline_for_test"] {
			t.Fatalf("%s: services = %v", p, got["tagline_for_test"])
		}
		for _, k := range []string{"about", "projects", "stack", "contact"} {
			if len(doc[k]) == 0 {
				t.Fatalf("%s: content script lacks %s", p, k)
			}
		}
	}
}

func TestPagesStayAsBuiltWithoutOverride(t *testing.T) {
	t.Parallel()
	for name, dir := range map[string]string{"embedded": "", "identical copy": contenttest.Copy(t)} {
		t.Run(name, func(t *testing.T) {
			srv := serveWithContent(t, dir)
			_, page := get(t, srv, "/", nil)
			if _, ok := contentScript(t, page); ok || page != indexHTML {
				t.Fatalf("page changed without an override: %q", page)
			}
		})
	}
}

func TestTribeCapacityRulesWhatPagesShow(t *testing.T) {
	t.Parallel()
	site, err := content.Load("")
	if err != nil {
		t.Fatal(err)
	}
	app := testApp(t)
	app["shell.html"] = &fstest.MapFile{Data: []byte(`<html><body><div id="root"></div></body></html>`)}
	env := map[string]string{"TRIBE_CAPACITY": "40"}
	srv := newTestSite(t, storetest.Open(t, "", t.TempDir()), env, withOptions(func(o *Options) {
		o.App, o.Content = app, site
	})).srv

	// The pages render from content carrying the configured cap, not the file's 50.
	_, page := get(t, srv, "/tribe", nil)
	doc, ok := contentScript(t, page)
	if !ok {
		t.Fatalf("a changed cap must reach the pages as content: %q", page)
	}
	var services struct {
		Tribe struct {
			Capacity int `json:"capacity"`
		} `json:"tribe"`
	}
	if err := json.Unmarshal(doc["services"], &services); err != nil {
		t.Fatal(err)
	}
	if services.Tribe.Capacity != 40 {
		t.Fatalf("pages show a cap of %d, want 40", services.Tribe.Capacity)
	}
	// So do the published file and the search index.
	_, file := get(t, srv, "/content/services.json", nil)
	if !strings.Contains(file, `"capacity": 40`) {
		t.Fatalf("/content/services.json does not carry the cap: %s", file)
	}
	_, index := get(t, srv, content.SearchIndexPath, nil)
	if !strings.Contains(index, "capped at 40 members") {
		t.Fatalf("search index does not follow the cap: %s", index)
	}
}

// fakeRenderer is a server/render.js that writes each page as its route and
// the tribe's cap from the content it is given, and fails for /about.
const fakeRenderer = `var TribeRender = { renderPage: function (route, template, content) {
  if (route === '/about') throw new Error('cannot render /about');
  var cap = JSON.parse(content).services.tribe.capacity;
  return template.replace('<div id="root"></div>', '<div id="root"><p>' + (route === null ? '/%TRIBE_REQUEST_PATH%' : route) + ' cap ' + cap + '</p></div>');
} };`

// With content other than the build's, pages are served as rendered from
// it, marked so the browser hydrates them; a page that failed to render is
// served as built, unmarked, so the browser renders it afresh; the renderer
// itself is never served.
func TestPagesAreRenderedFromTheOwnersContent(t *testing.T) {
	t.Parallel()
	app := testApp(t)
	app["shell.html"] = &fstest.MapFile{Data: []byte(`<html><body><div id="root"></div></body></html>`)}
	app["404.html"] = &fstest.MapFile{Data: []byte(`<html><body><div id="root"><p>/%TRIBE_REQUEST_PATH%</p></div></body></html>`)}
	app["tribe/index.html"] = &fstest.MapFile{Data: []byte(`<html><body><div id="root"><p>built tribe cap 50</p></div></body></html>`)}
	app["server/render.js"] = &fstest.MapFile{Data: []byte(fakeRenderer)}
	srv := newTestSite(t, storetest.Open(t, "", t.TempDir()), map[string]string{"TRIBE_CAPACITY": "40"}, withOptions(func(o *Options) {
		o.App = app
	})).srv

	const rendered = `<script id="tribe-content" type="application/json" data-rendered>`
	for path, want := range map[string]string{"/": "<p>/ cap 40</p>", "/tribe": "<p>/tribe cap 40</p>"} {
		resp, page := get(t, srv, path, nil)
		if resp.StatusCode != 200 || !strings.Contains(page, want) || !strings.Contains(page, rendered) {
			t.Errorf("%s: %d %q", path, resp.StatusCode, page)
		}
		if _, ok := contentScript(t, page); !ok {
			t.Errorf("%s: the rendered page lacks the content", path)
		}
	}
	resp, page := get(t, srv, "/no-such-page", nil)
	if resp.StatusCode != 404 || !strings.Contains(page, "<p>/no-such-page cap 40</p>") || !strings.Contains(page, rendered) {
		t.Errorf("404: %d %q", resp.StatusCode, page)
	}
	// /about could not be rendered: the build's page, unmarked.
	_, page = get(t, srv, "/about", nil)
	if !strings.Contains(page, "<h1>About</h1>") || strings.Contains(page, "data-rendered") || !strings.Contains(page, `<script id="tribe-content"`) {
		t.Errorf("/about: %q", page)
	}
	if resp, _ := get(t, srv, "/server/render.js", nil); resp.StatusCode != 404 {
		t.Errorf("the renderer is served: %d", resp.StatusCode)
	}
}
