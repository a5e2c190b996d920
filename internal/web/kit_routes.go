package web

import (
	"net/http"
	"time"

	"tribe/internal/content"
	"tribe/internal/kit"
)

// kitPath is where the starter kit is downloaded from.
const kitPath = "/downloads/" + kit.FileName

// registerKit serves the starter kit ZIP. It is built once at start from the
// loaded content, like the other public documents, so its resource files
// always match what /content/ and /mcp/ serve and its ETag is stable.
func registerKit(g *registrar, site *content.Site) error {
	body, err := kit.Build(site, time.Now())
	if err != nil {
		return err
	}
	d := newDocument(body, "application/zip")
	g.handle("GET "+kitPath, anyone, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// attachment: the browser saves the file instead of trying to show it.
		w.Header().Set("Content-Disposition", `attachment; filename="`+kit.FileName+`"`)
		d.ServeHTTP(w, r)
	}))
	return nil
}
