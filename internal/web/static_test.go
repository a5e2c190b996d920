package web

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"testing/fstest"
)

// TestFilledPagesAreGzippedOnFirstRequest: a page that holds the base URL
// placeholder is filled at start and compressed when first asked for; every
// client, however many ask at once, gets the filled page, compressed or not.
func TestFilledPagesAreGzippedOnFirstRequest(t *testing.T) {
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
