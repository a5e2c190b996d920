package main

import (
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tribe/internal/content/contenttest"
	"tribe/internal/webapp"
)

// ownerEdits are a site owner's changes to a copy of the content: a price
// raised, a session renamed, another no longer booked on the site and its
// booking link removed (bookings paused; its member price and package go
// with it), the tribe's price, the
// consultant's title and a social link changed (in every file that has it).
var ownerEdits = []struct{ file, from, to string }{
	{"services.json", `"name": "Quick Consultation"`, `"name": "Rapid Review"`},
	{"services.json", `"price": 149,`, `"price": 177,`},
	{"services.json", "\"booking\": \"native\",\n      \"features\": [\n        \"End-to-end design", "\"booking_link\": \"\",\n      \"features\": [\n        \"End-to-end design"},
	// A session no longer booked here has no member price and no package
	// (the server refuses to start on them, naming the field).
	{"services.json", "\"member_price\": 449,\n", ""},
	{"services.json", `"type": "session-60",`, `"type": "session-30",`},
	{"services.json", `"price_monthly": 250,`, `"price_monthly": 275,`},
	{"about.json", `Independent AI Consultant & Enterprise AI Architect`, `Independent AI Consultant & Agentic Systems Architect`},
	{"about.json", `linkedin.com/in/reuvencohen`, `linkedin.com/in/owner-example`},
	{"contact.json", `linkedin.com/in/reuvencohen`, `linkedin.com/in/owner-example`},
}

// staleAndFresh are the build's texts those edits replace, as HTML has
// them, and what must stand in their place ("" for nothing).
var staleAndFresh = []struct{ stale, fresh string }{
	{"Quick Consultation", "Rapid Review"},
	{"$149", "$177"},
	{`href="/book/session-60"`, ""},
	{"Enterprise AI Architect", "Agentic Systems Architect"},
	{"linkedin.com/in/reuvencohen", "linkedin.com/in/owner-example"},
}

// The owner's content reached /content/services.json, but the HTML of the
// pages still carried the build's prices, names and a live Book button to a
// removed link until JavaScript replaced them. Every prerendered page, read
// raw from the real binary, must show what the owner's files say.
func TestServePagesFromTheOwnersContent(t *testing.T) {
	app := webapp.FS()
	if _, err := fs.Stat(app, "server/render.js"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the web app is not built into the binary (%v): run make build", err)
		}
		t.Skipf("the web app is not built into the binary (%v): run make build", err)
	}
	dir := contenttest.Copy(t)
	for _, name := range []string{"about.json", "services.json", "contact.json"} {
		path := filepath.Join(dir, name)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		for _, e := range ownerEdits {
			if e.file != name {
				continue
			}
			if !strings.Contains(text, e.from) {
				t.Fatalf("%s has no %q to edit", name, e.from)
			}
			text = strings.ReplaceAll(text, e.from, e.to)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := buildBinary(t)
	base, stop := startServer(t, bin, []string{"TRIBE_DATA_DIR=" + t.TempDir(), "TRIBE_CONTENT_DIR=" + dir})

	// Every page the build prerendered, and the 404 page.
	pages := map[string]string{"/no-such-page": "404.html"}
	err := fs.WalkDir(app, ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || d.IsDir():
			return err
		case p == "index.html":
			pages["/"] = p
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
	served := map[string]string{}
	for path, file := range pages {
		built, err := fs.ReadFile(app, file)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		page := string(body)
		served[path] = page
		if want := http.StatusOK; path == "/no-such-page" {
			if resp.StatusCode != http.StatusNotFound {
				t.Errorf("%s: status %d", path, resp.StatusCode)
			}
		} else if resp.StatusCode != want {
			t.Errorf("%s: status %d", path, resp.StatusCode)
		}
		if !strings.Contains(page, `<script id="tribe-content" type="application/json" data-rendered>`) {
			t.Errorf("%s was not rendered from the owner's content", path)
		}
		for _, c := range staleAndFresh {
			if !strings.Contains(string(built), c.stale) {
				continue
			}
			if strings.Contains(page, c.stale) {
				t.Errorf("%s still carries the build's %q", path, c.stale)
			}
			if c.fresh != "" && !strings.Contains(page, c.fresh) {
				t.Errorf("%s lacks the owner's %q where the build had %q", path, c.fresh, c.stale)
			}
		}
	}
	for _, path := range []string{"/", "/booking", "/tribe"} {
		if !strings.Contains(served[path], "$275") {
			t.Errorf("%s does not show the tribe's new price $275", path)
		}
	}
	if !strings.Contains(served["/"], `"price":"177"`) {
		t.Error("Home's structured data does not offer the new price")
	}
	paused := regexp.MustCompile(`<button type="button" disabled="" [^>]*aria-label="Book Now: 60-minute Strategy Session">`)
	if !paused.MatchString(served["/booking"]) {
		t.Error("/booking: the session whose link was removed is not a disabled Book button")
	}
	if log, err := stop(); err != nil || strings.Contains(log, "could not be rendered") {
		t.Errorf("serve (%v):\n%s", err, log)
	}
}
