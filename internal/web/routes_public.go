package web

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/kit"
	"tribe/internal/mcp"
)

// publicCache lets browsers and proxies reuse the documents for a few
// minutes: they change only when the server restarts with new content, and
// the ETag makes revalidation after that cheap.
const publicCache = "public, max-age=300"

// document is a response body built once at start.
type document struct {
	body        []byte
	etag        string
	contentType string
}

func newDocument(body []byte, contentType string) *document {
	return &document{body: body, etag: etagOf(body), contentType: contentType}
}

// ServeHTTP answers GET and HEAD (the mux routes HEAD to GET patterns);
// http.ServeContent handles If-None-Match, ranges and HEAD.
func (d *document) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", d.contentType)
	h.Set("Cache-Control", publicCache)
	h.Set("ETag", d.etag)
	// The documents are public and read without credentials; MCP clients and
	// the starter kit run on other origins and must be able to fetch them.
	h.Set("Access-Control-Allow-Origin", "*")
	http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(d.body))
}

const (
	jsonType = "application/json; charset=utf-8"
	xmlType  = "application/xml; charset=utf-8"
	textType = "text/plain; charset=utf-8"
)

// publicAPI serves the machine-readable documents of the public site: the
// content files, the MCP resource list, search index and discovery
// document, the sitemap, robots.txt and the starter kit. Each is built once
// at start (register). Every pattern is an exact path or sits under
// /content/, so app pages such as /mcp stay with the app handler.
type publicAPI struct {
	content *content.Site
	baseURL string
}

func (a *publicAPI) register(g *registrar) error {
	site := a.content

	files := map[string]*document{}
	for _, name := range content.PublicFiles() {
		raw, ok := site.Raw(name)
		if !ok {
			return fmt.Errorf("content file %s was not loaded", name)
		}
		files[name] = newDocument(raw, jsonType)
	}
	known := strings.Join(content.PublicFiles(), ", ")
	g.route("GET "+content.ContentPrefix+"{name}", anyone, func(w http.ResponseWriter, r *http.Request) error {
		if d, ok := files[r.PathValue("name")]; ok {
			d.ServeHTTP(w, r)
			return nil
		}
		return errs.New(errs.NotFound, "No content file at "+r.URL.Path+"; the files are "+known+".")
	})

	resources, ok := site.Raw(content.ResourcesFile)
	if !ok {
		return fmt.Errorf("content file %s was not loaded", content.ResourcesFile)
	}
	g.handle("GET "+content.ResourcesPath, anyone, newDocument(resources, jsonType))

	g.handle("GET "+content.SearchIndexPath, anyone, newDocument(site.IndexJSON(), jsonType))

	discovery, err := mcp.NewDiscovery(site, absoluteURL(a.baseURL, mcp.Path)).JSON()
	if err != nil {
		return err
	}
	disc := newDocument(discovery, jsonType)
	g.handle("GET /mcp.json", anyone, disc)
	g.handle("GET /.well-known/mcp.json", anyone, disc)

	sitemap, err := buildSitemap(a.baseURL)
	if err != nil {
		return err
	}
	g.handle("GET /sitemap.xml", anyone, newDocument(sitemap, xmlType))
	g.handle("GET /robots.txt", anyone, newDocument(buildRobots(a.baseURL), textType))
	return registerKit(g, site)
}

// kitPath is where the starter kit is downloaded from.
const kitPath = "/downloads/" + kit.FileName

// registerKit serves the starter kit ZIP, built from the loaded content on
// its first download, so its resource files always match what /content/ and
// /mcp/ serve and its ETag stays the same while the server runs. Not at
// start: compressing it left archive/zip's pooled compressors (0.8 MB) in
// every idle server, most of which never serve the kit.
func registerKit(g *registrar, site *content.Site) error {
	doc := sync.OnceValues(func() (*document, error) {
		body, err := kit.Build(site, time.Now())
		if err != nil {
			return nil, err
		}
		return newDocument(body, "application/zip"), nil
	})
	g.handle("GET "+kitPath, anyone, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d, err := doc()
		if err != nil {
			httpx.WriteError(w, r, fmt.Errorf("starter kit: %w", err))
			return
		}
		// attachment: the browser saves the file instead of trying to show it.
		w.Header().Set("Content-Disposition", `attachment; filename="`+kit.FileName+`"`)
		d.ServeHTTP(w, r)
	}))
	return nil
}

// sitemapEntry is one page of the sitemap.
type sitemapEntry struct {
	path       string
	changefreq string
	priority   float64
}

// sitemapEntries are the public pages, with the change frequencies and
// priorities of the original site for the pages it listed. Sign-in, the
// members area and the admin and goal tools are left out: they are not
// content for search engines.
func sitemapEntries() []sitemapEntry {
	return []sitemapEntry{
		{"/", "weekly", 1.0},
		{"/about", "monthly", 0.8},
		{"/projects", "weekly", 0.9},
		{"/mcp", "weekly", 0.9},
		{"/tribe", "weekly", 0.8},
		{"/booking", "monthly", 0.7},
		{"/book/session-15", "monthly", 0.6},
		{"/book/session-30", "monthly", 0.6},
		{"/book/session-60", "monthly", 0.6},
		{"/book/private", "monthly", 0.6},
		{"/book/group", "monthly", 0.6},
		{"/lean-agentic", "monthly", 0.6},
		{"/midstreamer", "monthly", 0.6},
		{"/agentic-payments", "monthly", 0.6},
		{"/ai-defence", "monthly", 0.6},
		{"/aimds", "monthly", 0.6},
		{"/.well-known/mcp.json", "monthly", 0.6},
		{"/mcp.json", "monthly", 0.6},
	}
}

// The sitemap 0.9 schema (https://www.sitemaps.org/protocol.html).
type xmlURLSet struct {
	XMLName xml.Name `xml:"http://www.sitemaps.org/schemas/sitemap/0.9 urlset"`
	URLs    []xmlURL `xml:"url"`
}

type xmlURL struct {
	Loc        string `xml:"loc"`
	ChangeFreq string `xml:"changefreq"`
	Priority   string `xml:"priority"`
}

func buildSitemap(baseURL string) ([]byte, error) {
	set := xmlURLSet{}
	for _, e := range sitemapEntries() {
		set.URLs = append(set.URLs, xmlURL{
			Loc:        absoluteURL(baseURL, e.path),
			ChangeFreq: e.changefreq,
			Priority:   fmt.Sprintf("%.1f", e.priority),
		})
	}
	body, err := xml.MarshalIndent(set, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode sitemap: %w", err)
	}
	return append(append([]byte(xml.Header), body...), '\n'), nil
}

func buildRobots(baseURL string) []byte {
	return []byte("User-agent: *\nAllow: /\n\nSitemap: " + absoluteURL(baseURL, "/sitemap.xml") + "\n")
}

// absoluteURL joins the configured base URL (which may carry a path prefix
// and never ends in "/") with a site path.
func absoluteURL(baseURL, path string) string {
	return strings.TrimRight(baseURL, "/") + path
}
