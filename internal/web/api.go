package web

import (
	"net/http"

	"tribe/internal/access"
	"tribe/internal/httpx"
	"tribe/internal/store"
)

// handlerFunc is the shape of every route handler: it writes its answer and
// returns nil, or returns the error without having written anything, and
// the registrar answers it once through httpx.WriteError (an *errs.Error
// with its status and message, anything else as a logged 500). A handler
// that has begun a stream ends the stream itself and returns nil.
type handlerFunc func(w http.ResponseWriter, r *http.Request) error

// ServeHTTP runs h and answers the error it returns.
func (h handlerFunc) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := h(w, r); err != nil {
		httpx.WriteError(w, r, err)
	}
}

// area is one part of the API (accounts, members, billing, …): a value
// built in New that holds only the services its routes need, and whose
// register adds those routes. A new capability is a new area in its own
// routes_<area>.go.
type area interface {
	register(g *registrar) error
}

// registrar adds the routes of every area to one mux, each behind the
// access check of its declared role, and records their patterns so the
// authorization test can check that its table covers them all.
type registrar struct {
	mux    *http.ServeMux
	routes []string
}

// route registers h under pattern for callers with the given rights.
func (g *registrar) route(pattern string, a who, h handlerFunc) {
	g.handle(pattern, a, h)
}

// handle is route for an http.Handler that answers everything itself: the
// documents built at start, the metrics, the development mailbox's pages.
func (g *registrar) handle(pattern string, a who, h http.Handler) {
	g.routes = append(g.routes, pattern)
	g.mux.Handle(pattern, allow(a, h))
}

// noBody is the input of a route that takes no JSON body.
type noBody struct{}

// withViewer is the shape most API routes share: read the JSON body into
// an In (nothing for noBody) with the site's one reader, find who is
// asking, and hand both to call, which answers. A body that does not parse
// is refused before the viewer costs a read.
func withViewer[In any](db *store.DB, call func(w http.ResponseWriter, r *http.Request, v access.Viewer, in In) error) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		var in In
		if _, none := any(in).(noBody); !none {
			if err := httpx.ReadJSON(w, r, &in); err != nil {
				return err
			}
		}
		v, err := viewer(r, db)
		if err != nil {
			return err
		}
		return call(w, r, v, in)
	}
}
