package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
)

// staticFile is one file of the built app, loaded once at start with its
// precompressed variants (name.gz, name.br written by the web build).
type staticFile struct {
	body, gzip, brotli []byte
	etag               string
	contentType        string
}

// staticSite serves the built app from memory.
type staticSite struct {
	files  map[string]*staticFile // by slash path without the leading "/"
	routes map[string]bool
	built  bool
}

func loadStatic(dist fs.FS) (*staticSite, error) {
	s := &staticSite{files: map[string]*staticFile{}, routes: map[string]bool{}}
	for _, r := range appRoutes {
		s.routes[r] = true
	}
	raw := map[string][]byte{}
	err := fs.WalkDir(dist, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Base(p) == ".gitkeep" {
			return err
		}
		b, err := fs.ReadFile(dist, p)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		raw[p] = b
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("load web app: %w", err)
	}
	for p, b := range raw {
		if strings.HasSuffix(p, ".gz") || strings.HasSuffix(p, ".br") {
			continue
		}
		ct := mime.TypeByExtension(path.Ext(p))
		if ct == "" {
			ct = http.DetectContentType(b)
		}
		s.files[p] = &staticFile{
			body:        b,
			gzip:        raw[p+".gz"],
			brotli:      raw[p+".br"],
			etag:        etagOf(b),
			contentType: ct,
		}
	}
	_, s.built = s.files["index.html"]
	return s, nil
}

// ServeHTTP answers app routes with their HTML, files of the build with their
// bytes, and anything else with the app's 404 page and status 404.
func (s *staticSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "This address only answers GET and HEAD.")
		return
	}
	p := r.URL.Path
	if len(p) > 1 && strings.HasSuffix(p, "/") {
		target := strings.TrimRight(p, "/")
		if target == "" {
			target = "/"
		}
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusPermanentRedirect)
		return
	}
	if !s.built {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte("The web app is not built into this binary. Run `make build` (or `make run`) from the repository.\n"))
		return
	}
	if s.routes[p] {
		s.serveFile(w, r, s.pageFor(p), http.StatusOK, "no-cache")
		return
	}
	name := strings.TrimPrefix(p, "/")
	if f, ok := s.files[name]; ok && !strings.HasSuffix(name, ".html") {
		cache := "public, max-age=3600"
		if strings.HasPrefix(name, "assets/") {
			cache = "public, max-age=31536000, immutable"
		}
		s.serveFile(w, r, f, http.StatusOK, cache)
		return
	}
	notFound := s.files["404.html"]
	if notFound == nil {
		notFound = s.files["index.html"]
	}
	s.serveFile(w, r, notFound, http.StatusNotFound, "no-cache")
}

// pageFor returns the prerendered HTML of a route when the build has one
// (about/index.html), else the app shell.
func (s *staticSite) pageFor(route string) *staticFile {
	if route != "/" {
		if f, ok := s.files[strings.TrimPrefix(route, "/")+"/index.html"]; ok {
			return f
		}
	}
	return s.files["index.html"]
}

func (s *staticSite) serveFile(w http.ResponseWriter, r *http.Request, f *staticFile, status int, cache string) {
	h := w.Header()
	h.Set("Content-Type", f.contentType)
	h.Set("Cache-Control", cache)
	h.Set("ETag", f.etag)
	if f.gzip != nil || f.brotli != nil {
		h.Add("Vary", "Accept-Encoding")
	}
	if status == http.StatusOK && etagMatches(r.Header.Get("If-None-Match"), f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := f.body
	switch enc := acceptedEncodings(r.Header.Get("Accept-Encoding")); {
	case f.brotli != nil && enc["br"]:
		body = f.brotli
		h.Set("Content-Encoding", "br")
	case f.gzip != nil && enc["gzip"]:
		body = f.gzip
		h.Set("Content-Encoding", "gzip")
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = bytes.NewReader(body).WriteTo(w)
	}
}

// etagOf is a strong validator derived from the bytes, so it changes exactly
// when a deploy changes the file.
func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

// acceptedEncodings reads an Accept-Encoding header, leaving out codings the
// client refused with q=0.
func acceptedEncodings(header string) map[string]bool {
	out := map[string]bool{}
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		name = strings.ToLower(strings.TrimSpace(name))
		if name == "" {
			continue
		}
		accepted := true
		for _, param := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(param), "=")
			if ok && strings.TrimSpace(k) == "q" {
				if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q == 0 {
					accepted = false
				}
			}
		}
		out[name] = accepted
	}
	return out
}

func etagMatches(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}
