package prerender

import (
	"encoding/json"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"

	contentfiles "tribe/content"
	"tribe/internal/webapp"
)

// builtApp is the web app built into this package's binary, with its
// renderer; without a build the tests skip, except under CI=true.
func builtApp(t *testing.T) fs.FS {
	t.Helper()
	app := webapp.FS()
	if _, err := fs.Stat(app, BundlePath); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the web app is not built (%v): run make build", err)
		}
		t.Skipf("the web app is not built (%v): run make build", err)
	}
	return app
}

func newRenderer(t *testing.T, app fs.FS) *Renderer {
	t.Helper()
	bundle, err := fs.ReadFile(app, BundlePath)
	if err != nil {
		t.Fatal(err)
	}
	template, err := fs.ReadFile(app, "shell.html")
	if err != nil {
		t.Fatal(err)
	}
	r, err := New(bundle, string(template))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// contentDoc is the embedded content as the server embeds it in pages: the
// files' bytes as they are (key order matters: the footer lists the social
// links in the file's order), after each old → new replacement in the file
// it names ("services": {old, new, ...}).
func contentDoc(t *testing.T, edits map[string][]string) []byte {
	t.Helper()
	files := map[string]json.RawMessage{}
	for _, name := range []string{"about", "services", "projects", "stack", "contact"} {
		b, err := fs.ReadFile(contentfiles.FS(), name+".json")
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for i := 0; i+1 < len(edits[name]); i += 2 {
			if !strings.Contains(text, edits[name][i]) {
				t.Fatalf("%s.json has no %q to edit", name, edits[name][i])
			}
			text = strings.Replace(text, edits[name][i], edits[name][i+1], 1)
		}
		files[name] = json.RawMessage(text)
	}
	doc, err := json.Marshal(files)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// prerendered lists the build's prerendered pages by route ("" for 404.html).
func prerendered(t *testing.T, app fs.FS) map[string]string {
	t.Helper()
	pages := map[string]string{}
	err := fs.WalkDir(app, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || d.IsDir():
			return err
		case p == "index.html":
			pages["/"] = p
		case p == "404.html":
			pages[""] = p
		case strings.HasSuffix(p, "/index.html"):
			pages["/"+strings.TrimSuffix(p, "/index.html")] = p
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("only %d prerendered pages in the build", len(pages))
	}
	return pages
}

// The renderer is only trustworthy if, given the build's own content, it
// writes every page the build wrote, byte for byte: the same markup, the same
// head tags, the same structured data. A component that renders differently
// in the server's engine (a missing browser API, formatting that depends on
// the runtime) fails here.
func TestRenderedPagesEqualTheBuild(t *testing.T) {
	app := builtApp(t)
	r := newRenderer(t, app)
	doc := contentDoc(t, nil)
	for route, file := range prerendered(t, app) {
		want, err := fs.ReadFile(app, file)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Page(route, doc)
		if err != nil {
			t.Errorf("%s: %v", file, err)
			continue
		}
		if got != string(want) {
			t.Errorf("%s rendered from the build's content differs from the build's page at byte %d:\n got …%s…\nwant …%s…",
				file, firstDiff(got, string(want)), around(got, firstDiff(got, string(want))), around(string(want), firstDiff(got, string(want))))
		}
	}
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func around(s string, i int) string {
	return s[max(0, i-80):min(len(s), i+80)]
}

// The owner raises a price, renames a session and pauses bookings of
// another (no longer booked on the site, and no link): the pages that show
// them say so in their HTML, and the paused session has no live Book link.
func TestPagesRenderTheOwnersContent(t *testing.T) {
	app := builtApp(t)
	r := newRenderer(t, app)
	doc := contentDoc(t, map[string][]string{"services": {
		`"name": "Quick Consultation"`, `"name": "Rapid Review"`,
		`"price": 149,`, `"price": 177,`,
		"\"booking\": \"native\",\n      \"features\": [\n        \"End-to-end design", "\"booking_link\": \"\",\n      \"features\": [\n        \"End-to-end design",
	}})
	for _, route := range []string{"/", "/booking", "/book/session-15"} {
		page, err := r.Page(route, doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{"$177", "Rapid Review"} {
			if !strings.Contains(page, want) {
				t.Errorf("%s lacks %q", route, want)
			}
		}
		for _, old := range []string{"$149", "Quick Consultation", `href="/book/session-60"`} {
			if strings.Contains(page, old) {
				t.Errorf("%s still carries the build's %q", route, old)
			}
		}
	}
	booking, err := r.Page("/booking", doc)
	if err != nil {
		t.Fatal(err)
	}
	paused := regexp.MustCompile(`<button type="button" disabled="" class="[^"]*" aria-label="Book Now: 60-minute Strategy Session">`)
	if !paused.MatchString(booking) {
		t.Error("the session without a booking link is not a disabled Book button on /booking")
	}
	// The sessions still booked on the site go to their own page, in the same tab.
	if !strings.Contains(booking, `href="/book/session-30"`) || strings.Contains(booking, `href="/book/session-60"`) {
		t.Error("/booking does not link the native sessions, and only them, to /book/{type}")
	}
	if home, _ := r.Page("/", doc); !strings.Contains(home, `"price":"177"`) {
		t.Error("Home's structured data does not offer the new price")
	}
}

// A render that fails is an error naming the page, never a page.
func TestRenderFailureIsAnError(t *testing.T) {
	app := builtApp(t)
	r := newRenderer(t, app)
	if _, err := r.Page("/booking", []byte(`{"services": 1}`)); err == nil || !strings.Contains(err.Error(), "/booking") {
		t.Fatalf("err = %v", err)
	}
	// The renderer is still usable afterwards.
	if _, err := r.Page("/about", contentDoc(t, nil)); err != nil {
		t.Fatal(err)
	}
}

func TestNewRefusesABundleWithoutTheRenderer(t *testing.T) {
	for name, bundle := range map[string]string{
		"syntax error":  "var TribeRender = (",
		"no module":     "var x = 1;",
		"no renderPage": "var TribeRender = {};",
	} {
		if _, err := New([]byte(bundle), `<div id="root"></div>`); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
