package web

import (
	"bytes"
	"html/template"
	"net/http"
	"strconv"
	"strings"
)

// notFoundPathPlaceholder stands for the requested path in the prerendered 404 page
// (404.html, rendered by web/scripts/prerender.mjs at this path).
const notFoundPathPlaceholder = "/%TRIBE_REQUEST_PATH%"

// maxShownPath caps how much of a requested path the 404 page repeats.
const maxShownPath = 2048

// notFoundPage is the prerendered 404 page, split where it shows the requested path, so each
// answer carries that path (escaped) before any JavaScript runs.
type notFoundPage struct {
	parts       [][]byte
	contentType []string
}

// newNotFoundPage splits page at the path placeholder; nil when the page has none (a build
// from before the 404 page was prerendered), and the app shell answers instead.
func newNotFoundPage(f *staticFile) *notFoundPage {
	if f == nil || !f.load() || !bytes.Contains(f.body, []byte(notFoundPathPlaceholder)) {
		return nil
	}
	return &notFoundPage{
		parts:       bytes.Split(f.body, []byte(notFoundPathPlaceholder)),
		contentType: f.hdr.contentType,
	}
}

// requestedPath is the path as the browser sent it (percent-encoded as the browser's
// location.pathname has it), so the app hydrates the page with the text it would render.
func requestedPath(r *http.Request) string {
	p := r.RequestURI
	if !strings.HasPrefix(p, "/") {
		p = r.URL.EscapedPath()
	}
	p, _, _ = strings.Cut(p, "?")
	if len(p) > maxShownPath {
		p = p[:maxShownPath] + "…"
	}
	return p
}

// serve answers 404 with the page, the requested path escaped as html/template escapes text.
func (p *notFoundPage) serve(w http.ResponseWriter, r *http.Request) {
	body := bytes.Join(p.parts, []byte(template.HTMLEscapeString(requestedPath(r))))
	h := w.Header()
	h["Content-Type"] = p.contentType
	h["Cache-Control"] = cacheRevalidate
	varyOnEncoding(h)
	if acceptedCodings(r.Header.Get("Accept-Encoding")).gzip {
		if gz, err := gzipBytes(body); err == nil {
			body = gz
			h["Content-Encoding"] = hdrGzip
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}
