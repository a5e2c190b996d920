package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/prerender"
)

// staticFile is one file of the built app with its precompressed variants
// (name.gz, name.br written by the web build). Every file of the build is
// read on its first request (load), pages included: a visitor's browser
// asks for a few of them, and reading all of them at start cost start-up
// time and kept copies in memory that most processes never serve (the
// pages alone: 0.7 MB of heap and 1.8 MB of the binary's pages).
type staticFile struct {
	// src and name are where a file not yet loaded is read from; src is
	// nil for a file made in memory (a page rendered from owner content).
	src      fs.FS
	name     string
	loadOnce sync.Once
	loaded   bool // written once, by load
	// fill is what load writes into a page of the build: the base URL for
	// its placeholder and the scripts added before </body>; nil for other
	// files.
	fill *pageFill

	body, gzip, brotli []byte
	etag               string
	contentType        string
	// Header values made once, so serving a file allocates no header strings.
	hdr struct{ contentType, etag, length, gzipLength, brotliLength []string }
	// lazyGzip marks a page filled at start whose gzip copy is made on its
	// first request (gzipped), so start-up does not compress every page.
	lazyGzip bool
	gzipOnce sync.Once
	lazy     struct {
		gzip   []byte
		length []string
	} // written once, by gzipped
}

// gzipped returns the gzip body and its Content-Length value, or nil when
// the file has none.
func (f *staticFile) gzipped() ([]byte, []string) {
	if !f.lazyGzip {
		return f.gzip, f.hdr.gzipLength
	}
	f.gzipOnce.Do(func() {
		// gzipBytes fails only if writing to memory fails, which it
		// does not; the identity body is served then.
		if gz, err := gzipBytes(f.body); err == nil {
			f.lazy.gzip, f.lazy.length = gz, []string{strconv.Itoa(len(gz))}
		}
	})
	return f.lazy.gzip, f.lazy.length
}

// load reads a file left for its first request, once, and reports whether
// the file can be served (an embedded file always can).
func (f *staticFile) load() bool {
	if f.src == nil {
		return true
	}
	f.loadOnce.Do(func() {
		body, err := fs.ReadFile(f.src, f.name)
		if err != nil {
			return
		}
		f.body = body
		if f.fill == nil || !f.fillPage(f.name, f.fill.baseURL, f.fill.scripts) {
			// A variant the build did not write is absent, which is no error.
			// A filled page's variants would be of the bytes before filling.
			f.gzip, _ = fs.ReadFile(f.src, f.name+".gz")
			f.brotli, _ = fs.ReadFile(f.src, f.name+".br")
		}
		if f.contentType == "" {
			f.contentType = http.DetectContentType(body)
		}
		f.prepare()
		f.loaded = true
	})
	return f.loaded
}

// prepare fills the ready-made header values once the bodies are final.
func (f *staticFile) prepare() {
	f.etag = etagOf(f.body)
	f.hdr.contentType = []string{f.contentType}
	f.hdr.etag = []string{f.etag}
	f.hdr.length = []string{strconv.Itoa(len(f.body))}
	f.hdr.gzipLength = []string{strconv.Itoa(len(f.gzip))}
	f.hdr.brotliLength = []string{strconv.Itoa(len(f.brotli))}
}

// Shared header values; each slice has length = capacity, so a later Add
// on a response copies instead of writing into them.
var (
	hdrVaryEncoding = []string{"Accept-Encoding"}
	// Cache-Control values: pages are checked on every visit (their
	// names stay, their content changes); files under assets/ carry their
	// content's hash in their names.
	cacheRevalidate = []string{"no-cache"}
	cacheHour       = []string{"public, max-age=3600"}
	cacheForever    = []string{"public, max-age=31536000, immutable"}
	hdrGzip         = []string{"gzip"}
	hdrBrotli       = []string{"br"}
)

// staticSite serves the built app from memory.
type staticSite struct {
	files map[string]*staticFile // by slash path without the leading "/"
	// pages holds every app route's page, made once so that serving one
	// builds no file name.
	pages map[string]appPage
	built bool
	// shell is the app without prerendered content, for client-only routes
	// (and the 404 answer of a build without a prerendered 404 page).
	shell *staticFile
	// notFoundPage is the prerendered 404 page, which shows the requested
	// path (nil when the build has none), split on its first use.
	notFoundPage func() *notFoundPage
	// dist is the build, from which renderOwnerContent reads the start-time
	// renderer (server/render.js) only when there is owner content to
	// render: most starts have none, and its megabyte is not read for them.
	dist fs.FS
	// owner holds, by file name, the prerendered pages being rendered again
	// from the site owner's content (renderOwnerContent); nil when the
	// content is the build's. Made before rendering starts, never changed.
	owner map[string]*ownerPage
}

// appPage is the page of an app route: its prerendered file of the build
// (the shell for a route without one) and that file's name, under which a
// version rendered from the owner's content is kept.
type appPage struct {
	name string
	file *staticFile
}

// ownerPage is one page rendered again from the owner's content, in the
// background: ready is closed once file (and, for the 404 page, notFound)
// is set, or left nil when the render failed.
type ownerPage struct {
	ready    chan struct{}
	file     *staticFile
	notFound *notFoundPage
}

// maxOwnerPageWait bounds how long a request waits for its page to be
// rendered from the owner's content; then it gets the build's page, whose
// content script tells the browser to render it afresh.
const maxOwnerPageWait = 20 * time.Second

// wait reports whether the page is ready, waiting for it at most
// maxOwnerPageWait and while the request lasts.
func (p *ownerPage) wait(ctx context.Context) bool {
	select {
	case <-p.ready:
		return true
	default:
	}
	t := time.NewTimer(maxOwnerPageWait)
	defer t.Stop()
	select {
	case <-p.ready:
		return true
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

// baseURLPlaceholder stands for TRIBE_BASE_URL in the prerendered pages (canonical links, Open
// Graph URLs, structured data); it is filled in at start so one build serves any domain.
const baseURLPlaceholder = "%TRIBE_BASE_URL%"

// loadStatic lists the built app's files, each read on its first request;
// every page gets the base URL and pageScripts when it is read: the site
// owner's content when it differs from the build's (contentOverride), so the
// app shows the owner's text without a rebuild, and the page config
// (pageConfigScript).
func loadStatic(dist fs.FS, baseURL string, pageScripts []byte) (*staticSite, error) {
	s := &staticSite{files: map[string]*staticFile{}, pages: map[string]appPage{}, dist: dist}
	fill := &pageFill{baseURL: baseURL, scripts: pageScripts}
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Base(p) == ".gitkeep" || strings.HasPrefix(p, serverOnlyDir) {
			return err
		}
		if strings.HasSuffix(p, ".gz") || strings.HasSuffix(p, ".br") {
			return nil // variants are read with their file
		}
		f := &staticFile{src: dist, name: p, contentType: buildTypes[path.Ext(p)]}
		if strings.HasSuffix(p, ".html") {
			f.fill = fill
		}
		s.files[p] = f
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load web app: %w", err)
	}
	_, s.built = s.files["index.html"]
	s.shell = s.files["shell.html"]
	if s.shell == nil {
		s.shell = s.files["index.html"]
	}
	s.notFoundPage = sync.OnceValue(func() *notFoundPage { return newNotFoundPage(s.files["404.html"]) })
	for _, route := range appRoutes {
		name := "index.html"
		if route != "/" {
			name = strings.TrimPrefix(route, "/") + "/index.html"
		}
		file := s.files[name]
		if file == nil {
			name, file = "", s.shell
		}
		s.pages[route] = appPage{name: name, file: file}
	}
	return s, nil
}

// pageFill is what every page of the build gets when it is loaded.
type pageFill struct {
	baseURL string
	scripts []byte
}

// buildTypes are the content types of the files the build writes. A table
// of our own, not mime.TypeByExtension: that one reads the host's
// mime.types on first use (0.4 MB kept for the process's life) and lets a
// host's file change what the site serves. A file of another kind is typed
// by its bytes (http.DetectContentType).
var buildTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".json":        "application/json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".ico":         "image/vnd.microsoft.icon",
	".webp":        "image/webp",
	".woff2":       "font/woff2",
	".txt":         "text/plain; charset=utf-8",
	".xml":         "text/xml; charset=utf-8",
	".webmanifest": "application/manifest+json", // browsers read the manifest by this type
}

// serverOnlyDir holds the files of the build the server runs and never
// serves (the start-time renderer).
const serverOnlyDir = "server/"

// ownerRenderOrder is the order pages are rendered from the owner's
// content: the most visited and the ones with prices first, so they are
// ready soonest; other pages follow by name.
var ownerRenderOrder = []string{"index.html", "booking/index.html", "tribe/index.html", "about/index.html", "projects/index.html"}

// renderOwnerContent renders every prerendered page (and the 404 page) again
// from doc, the owner's content (ownerContent), in the background, filled
// like the build's pages with the base URL and pageScripts, which must carry
// doc marked as rendered. Requests for a page wait for it (ownerPage.wait).
// A page that cannot be rendered keeps the build's HTML, whose content
// script makes the browser render it afresh. done receives the number of
// pages rendered and the errors of the others, once all are through. The
// error is for a build that cannot render at all (no renderer): nothing
// changes then.
func (s *staticSite) renderOwnerContent(doc []byte, baseURL string, pageScripts []byte, done func(rendered int, err error)) error {
	renderer, err := fs.ReadFile(s.dist, prerender.BundlePath)
	template, terr := fs.ReadFile(s.dist, "shell.html") // the shell as built, not filled
	if err != nil || terr != nil || len(template) == 0 {
		return errors.New("the build has no " + prerender.BundlePath + " or shell.html to render pages with")
	}
	r, err := prerender.New(renderer, string(template))
	if err != nil {
		return err
	}
	var order []string
	for _, p := range slices.Concat(ownerRenderOrder, slices.Sorted(maps.Keys(s.files))) {
		if _, ok := prerenderedRoute(p); ok && s.files[p] != nil && !slices.Contains(order, p) {
			order = append(order, p)
		}
	}
	s.owner = map[string]*ownerPage{}
	for _, p := range order {
		s.owner[p] = &ownerPage{ready: make(chan struct{})}
	}
	go func() {
		rendered, failed := 0, []error(nil)
		for _, p := range order {
			slot := s.owner[p]
			route, _ := prerenderedRoute(p)
			html, err := r.Page(route, doc)
			if err != nil {
				failed = append(failed, err)
				close(slot.ready)
				continue
			}
			f := &staticFile{body: []byte(html), contentType: s.files[p].contentType}
			f.fillPage(p, baseURL, pageScripts)
			f.prepare()
			slot.file = f
			if route == "" {
				slot.notFound = newNotFoundPage(f)
			}
			close(slot.ready)
			rendered++
		}
		done(rendered, errors.Join(failed...))
	}()
	return nil
}

// ownerVersion is the page of file name as rendered from the owner's
// content when there is one (waiting for it if it is being rendered), else
// built.
func (s *staticSite) ownerVersion(ctx context.Context, name string, built *staticFile) *staticFile {
	slot := s.owner[name]
	if slot == nil || !slot.wait(ctx) || slot.file == nil {
		return built
	}
	return slot.file
}

// prerenderedRoute is the route a prerendered page of the build was
// rendered for: "/" for index.html, "/about" for about/index.html, "" for
// the 404 page; false for any other file, the shell included.
func prerenderedRoute(p string) (string, bool) {
	switch {
	case p == "index.html":
		return "/", true
	case p == "404.html":
		return "", true
	case strings.HasSuffix(p, "/index.html"):
		route := "/" + strings.TrimSuffix(p, "/index.html")
		return route, slices.Contains(appRoutes, route)
	}
	return "", false
}

// fillPage puts the base URL and the page scripts into an HTML page (path
// p) and reports whether it changed it. The build's compressed copies hold
// the placeholder, so a changed page is compressed again, on its first
// request (gzip only; the pages are a few KB). Other files are left as built.
func (f *staticFile) fillPage(p, baseURL string, pageScripts []byte) bool {
	if !strings.HasSuffix(p, ".html") || (!bytes.Contains(f.body, []byte(baseURLPlaceholder)) && len(pageScripts) == 0) {
		return false
	}
	f.body = bytes.ReplaceAll(f.body, []byte(baseURLPlaceholder), []byte(baseURL))
	if len(pageScripts) > 0 {
		i := bytes.LastIndex(f.body, []byte("</body>"))
		if i < 0 {
			i = len(f.body)
		}
		f.body = append(f.body[:i:i], append(append([]byte{}, pageScripts...), f.body[i:]...)...)
	}
	f.brotli, f.gzip, f.lazyGzip = nil, nil, true
	return true
}

// ServeHTTP answers app routes with their HTML, files of the build with their
// bytes, and anything else with the 404 page, showing the requested path, and status 404.
func (s *staticSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		httpx.WriteError(w, r, errs.New(errs.MethodNotAllowed, "This address only answers GET and HEAD."))
		return
	}
	p := r.URL.Path
	if len(p) > 1 && strings.HasSuffix(p, "/") {
		target := strings.TrimRight(p, "/")
		if target == "" {
			target = "/"
		}
		// The path is decoded: /%2fevil.example/ would redirect to
		// //evil.example, another site. Only same-site targets redirect, and
		// the query is copied as sent, so it must hold no control character.
		if !sameSitePath(target) || strings.ContainsFunc(r.URL.RawQuery, unicode.IsControl) {
			s.notFound(w, r)
			return
		}
		// Escaping keeps a decoded "?" or "%" in the path from changing the
		// target's meaning.
		u := url.URL{Path: target, RawQuery: r.URL.RawQuery}
		http.Redirect(w, r, u.String(), http.StatusPermanentRedirect)
		return
	}
	if !s.built {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("The web app is not built into this binary. Run `make build` (or `make run`) from the repository.\n"))
		return
	}
	if page, ok := s.pages[p]; ok {
		s.servePage(w, r, page)
		return
	}
	if isPrefixRoute(p) {
		// One person's page (a booking through its manage link): never indexed.
		w.Header().Set("X-Robots-Tag", "noindex")
		s.serveFile(w, r, s.shell, http.StatusOK, cacheRevalidate)
		return
	}
	name := strings.TrimPrefix(p, "/")
	if f, ok := s.files[name]; ok && !strings.HasSuffix(name, ".html") {
		cache := cacheHour
		switch {
		case strings.HasPrefix(name, "assets/"):
			cache = cacheForever
		case name == "sw.js" || name == "manifest.webmanifest":
			// The service worker and the manifest keep their names: a
			// browser must see a new version at its next visit.
			cache = cacheRevalidate
		}
		s.serveFile(w, r, f, http.StatusOK, cache)
		return
	}
	s.notFound(w, r)
}

// notFound answers 404 with the prerendered 404 page holding the requested
// path, or the app shell when the build has no 404 page (plain text when the
// app is not built).
func (s *staticSite) notFound(w http.ResponseWriter, r *http.Request) {
	if slot := s.owner["404.html"]; slot != nil && slot.wait(r.Context()) && slot.notFound != nil {
		slot.notFound.serve(w, r)
		return
	}
	if page := s.notFoundPage(); page != nil {
		page.serve(w, r)
		return
	}
	if s.shell == nil {
		http.NotFound(w, r)
		return
	}
	s.serveFile(w, r, s.shell, http.StatusNotFound, cacheRevalidate)
}

// servePage answers GET or HEAD of an app route with its page: the
// prerendered HTML (index.html for /, about/index.html for /about), rendered
// from the owner's content when that differs from the build's, else the app
// shell.
func (s *staticSite) servePage(w http.ResponseWriter, r *http.Request, page appPage) {
	f := page.file
	if s.owner != nil && page.name != "" {
		f = s.ownerVersion(r.Context(), page.name, f)
	}
	s.serveFile(w, r, f, http.StatusOK, cacheRevalidate)
}

// gzipBytes compresses b with a pooled writer: pages compressed on their
// first request and every 404 page use it.
func gzipBytes(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	if _, err := zw.Write(b); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return zw
}}

func (s *staticSite) serveFile(w http.ResponseWriter, r *http.Request, f *staticFile, status int, cache []string) {
	if !f.load() {
		httpx.WriteError(w, r, errs.New(errs.Internal, "This file of the site could not be read."))
		return
	}
	// Canonical keys and values made once: this is the hottest path of the site.
	h := w.Header()
	h["Content-Type"] = f.hdr.contentType
	h["Cache-Control"] = cache
	h["Etag"] = f.hdr.etag
	if f.gzip != nil || f.lazyGzip || f.brotli != nil {
		varyOnEncoding(h)
	}
	if status == http.StatusOK && etagMatches(firstValue(r.Header, "If-None-Match"), f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body, length := f.body, f.hdr.length
	switch enc := acceptedCodings(firstValue(r.Header, "Accept-Encoding")); {
	case f.brotli != nil && enc.br:
		body, length = f.brotli, f.hdr.brotliLength
		h["Content-Encoding"] = hdrBrotli
	case (f.gzip != nil || f.lazyGzip) && enc.gzip:
		if gz, gzLength := f.gzipped(); gz != nil {
			body, length = gz, gzLength
			h["Content-Encoding"] = hdrGzip
		}
	}
	h["Content-Length"] = length
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// firstValue is h.Get(key) for a key already in canonical form, as the
// server keeps request headers, without canonicalising it again.
func firstValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// varyOnEncoding adds Accept-Encoding to h's Vary, sharing the ready-made
// value when Vary was empty (the usual case) instead of allocating a copy.
func varyOnEncoding(h http.Header) {
	if vary := h["Vary"]; len(vary) > 0 {
		h["Vary"] = append(vary, hdrVaryEncoding...)
		return
	}
	h["Vary"] = hdrVaryEncoding
}

// etagOf is a strong validator derived from the bytes, so it changes exactly
// when a deploy changes the file.
func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// codings are the content codings the server has files in.
type codings struct{ br, gzip bool }

// acceptedCodings reads an Accept-Encoding header, leaving out codings the
// client refused with q=0. It allocates nothing.
func acceptedCodings(header string) codings {
	var out codings
	for rest := header; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, ",")
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.TrimSpace(name)
		accepted := true
		for params != "" {
			var param string
			param, params, _ = strings.Cut(params, ";")
			k, v, ok := strings.Cut(strings.TrimSpace(param), "=")
			if ok && strings.TrimSpace(k) == "q" {
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q == 0 {
					accepted = false
				}
			}
		}
		switch {
		case strings.EqualFold(name, "br"):
			out.br = accepted
		case strings.EqualFold(name, "gzip"):
			out.gzip = accepted
		}
	}
	return out
}

func etagMatches(header, etag string) bool {
	for rest := header; rest != ""; {
		var t string
		t, rest, _ = strings.Cut(rest, ",")
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}
