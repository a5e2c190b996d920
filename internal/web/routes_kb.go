package web

import (
	"net/http"
	"strconv"
	"time"

	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/kb"
	"tribe/internal/ratelimit"
)

// maxDocumentBody bounds a document's request body: the 200 KB of content
// kb allows plus room for JSON escaping and metadata; a bigger body is 413.
const maxDocumentBody = 256 << 10

// kbAPI serves knowledge-base search to anyone and document management and
// seeding to admins. docs/api.md ("Knowledge base") is the contract.
type kbAPI struct {
	*server
	searchIP *ratelimit.Limiter
}

// registerKB adds the knowledge-base endpoints.
func (s *server) registerKB(mux *http.ServeMux) error {
	// Generous for a person at the console (and the browser tests, which
	// all come from one address); a script is held to one search a second.
	a := &kbAPI{server: s, searchIP: ratelimit.New(30, time.Second)}
	s.route(mux, "POST /api/search", anyone, a.search)
	s.route(mux, "GET /api/admin/documents", admin, a.list)
	s.route(mux, "POST /api/admin/documents", admin, a.create)
	s.route(mux, "PUT /api/admin/documents/{id}", admin, a.update)
	s.route(mux, "DELETE /api/admin/documents/{id}", admin, a.remove)
	s.route(mux, "POST /api/admin/kb/seed", admin, a.seed)
	return nil
}

// SearchRequest is the body of POST /api/search.
type SearchRequest struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// documentBody answers a document's creation or edit.
type documentBody struct {
	Document kb.Document `json:"document"`
}

func (a *kbAPI) search(w http.ResponseWriter, r *http.Request) {
	if limited(w, r, limitCheck{a.searchIP, clientIP(r, a.Config.TrustedProxies)}) {
		return
	}
	var in SearchRequest
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	res, err := a.kb.Search(r.Context(), in.Query, in.Limit)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, res)
}

func (a *kbAPI) list(w http.ResponseWriter, r *http.Request) {
	limit, err := queryInt(r, "limit", "Limit must be a whole number from 1 to 100.")
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	offset, err := queryInt(r, "offset", "Offset must be a whole number of at least 0.")
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	list, err := a.kb.List(r.Context(), limit, offset)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, list)
}

// queryInt reads a whole number from the query string; absent is 0.
func queryInt(r *http.Request, name, msg string) (int, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, errs.Field(name, msg)
	}
	return n, nil
}

func (a *kbAPI) create(w http.ResponseWriter, r *http.Request) {
	var in kb.Input
	if err := httpx.ReadJSONLimit(w, r, &in, maxDocumentBody); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	d, err := a.kb.Create(r.Context(), in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, documentBody{d})
}

func (a *kbAPI) update(w http.ResponseWriter, r *http.Request) {
	var in kb.Input
	if err := httpx.ReadJSONLimit(w, r, &in, maxDocumentBody); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	d, err := a.kb.Update(r.Context(), r.PathValue("id"), in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, documentBody{d})
}

func (a *kbAPI) remove(w http.ResponseWriter, r *http.Request) {
	if err := a.kb.Delete(r.Context(), r.PathValue("id")); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (a *kbAPI) seed(w http.ResponseWriter, r *http.Request) {
	res, err := a.kb.Seed(r.Context(), kb.FromContent(a.Content, a.Config.Capacity))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, res)
}
