package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// TestFilledPagesAreGzippedOnFirstRequest: a page that holds the base URL
// placeholder is filled at start and compressed when first asked for; every
// client, however many ask at once, gets the filled page, compressed or not.
func TestFilledPagesAreGzippedOnFirstRequest(t *testing.T) {
	t.Parallel()
	page := `<html><link rel="canonical" href="` + baseURLPlaceholder + `/about"><body>About</body></html>`
	app := fstest.MapFS{
		"index.html":       {Data: []byte(indexHTML)},
		"about/index.html": {Data: []byte(page)},
		// The build's copy still holds the placeholder and must never be served.
		"about/index.html.gz": {Data: gz(t, page)},
	}
	site, err := loadStatic(app, "https://ruv.example", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `<html><link rel="canonical" href="https://ruv.example/about"><body>About</body></html>`
	get := func(encoding string) (string, http.Header) {
		r := httptest.NewRequest(http.MethodGet, "/about", nil)
		if encoding != "" {
			r.Header.Set("Accept-Encoding", encoding)
		}
		w := httptest.NewRecorder()
		site.ServeHTTP(w, r)
		body := w.Body.Bytes()
		if w.Header().Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Error(err)
				return "", w.Header()
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Error(err)
			}
		}
		return string(body), w.Header()
	}

	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			body, h := get("gzip, br")
			if body != want || h.Get("Content-Encoding") != "gzip" || h.Get("Vary") != "Accept-Encoding" {
				t.Errorf("gzip: %q %v", body, h)
			}
		})
	}
	wg.Wait()
	if body, h := get(""); body != want || h.Get("Content-Encoding") != "" || h.Get("Content-Length") != strconv.Itoa(len(want)) {
		t.Fatalf("identity: %q %v", body, h)
	}
}

// openCounter is a build that counts which files are opened.
type openCounter struct {
	fstest.MapFS
	mu     sync.Mutex
	opened map[string]int
}

func (c *openCounter) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opened[name]++
	c.mu.Unlock()
	return c.MapFS.Open(name)
}

func (c *openCounter) ReadFile(name string) ([]byte, error) {
	c.mu.Lock()
	c.opened[name]++
	c.mu.Unlock()
	return c.MapFS.ReadFile(name)
}

func (c *openCounter) count(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.opened[name]
}

// TestStartReadsNoFileOfTheBuild: start-up read and copied every file of
// the build (scripts, styles, the megabyte of the start-time renderer)
// before the server answered, and kept them all in memory; later it read
// the pages still. It now reads none: a file is read on its first request,
// once, with its compressed copies, however many ask at once, a page is
// filled then; the renderer is never read without owner content to render.
func TestStartReadsNoFileOfTheBuild(t *testing.T) {
	t.Parallel()
	js := strings.Repeat("console.log('tribe');", 100)
	app := &openCounter{opened: map[string]int{}, MapFS: fstest.MapFS{
		"index.html":              {Data: []byte(indexHTML)},
		"index.html.gz":           {Data: gz(t, indexHTML)},
		"about/index.html":        {Data: []byte(`<html><link rel="canonical" href="%TRIBE_BASE_URL%/about"></html>`)},
		"assets/app-abc123.js":    {Data: []byte(js)},
		"assets/app-abc123.js.gz": {Data: gz(t, js)},
		"assets/app-abc123.js.br": {Data: []byte("brotli-bytes")},
		"logo.unknownext":         {Data: []byte("<svg></svg>")},
		"server/render.js":        {Data: []byte("globalThis.render = () => ''")},
	}}
	site, err := loadStatic(app, "https://ruv.example", nil)
	if err != nil {
		t.Fatal(err)
	}
	for name := range app.MapFS {
		if n := app.count(name); n != 0 {
			t.Errorf("%s read %d times at start", name, n)
		}
	}
	get := func(path, encoding string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		r.Header.Set("Accept-Encoding", encoding)
		w := httptest.NewRecorder()
		site.ServeHTTP(w, r)
		return w
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if w := get("/assets/app-abc123.js", ""); w.Code != 200 || w.Body.String() != js || w.Header().Get("Etag") == "" {
				t.Errorf("first requests: %d %q", w.Code, w.Header())
			}
		})
	}
	wg.Wait()
	if w := get("/assets/app-abc123.js", "br"); w.Body.String() != "brotli-bytes" || w.Header().Get("Content-Encoding") != "br" {
		t.Errorf("brotli: %q %q", w.Body.String(), w.Header())
	}
	if w := get("/logo.unknownext", ""); w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/xml") && !strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain") {
		t.Errorf("sniffed type: %d %q", w.Code, w.Header().Get("Content-Type"))
	}
	if n := app.count("assets/app-abc123.js"); n != 1 {
		t.Errorf("the script was read %d times, want once", n)
	}
	if n := app.count("server/render.js"); n != 0 {
		t.Errorf("the renderer was read %d times without owner content", n)
	}
	// Pages: filled on their first request, read once.
	for range 4 {
		wg.Go(func() {
			if w := get("/about", ""); w.Code != 200 || w.Body.String() != `<html><link rel="canonical" href="https://ruv.example/about"></html>` {
				t.Errorf("the page as filled: %d %q", w.Code, w.Body.String())
			}
		})
	}
	wg.Wait()
	if n := app.count("about/index.html"); n != 1 {
		t.Errorf("the page was read %d times, want once", n)
	}
	// A page with nothing to fill keeps the build's compressed copy.
	if w := get("/", "gzip"); w.Code != 200 || w.Header().Get("Content-Encoding") != "gzip" || !bytes.Equal(w.Body.Bytes(), gz(t, indexHTML)) {
		t.Errorf("the page's gzip copy: %d %q", w.Code, w.Header())
	}
}
