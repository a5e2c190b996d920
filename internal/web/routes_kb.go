package web

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"tribe/internal/agent"
	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/gaps"
	"tribe/internal/httpx"
	"tribe/internal/kb"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
)

// maxDocumentBody bounds a document's request body: the 200 KB of content
// kb allows plus room for JSON escaping and metadata; a bigger body is 413.
const maxDocumentBody = 256 << 10

// kbAPI serves knowledge-base search to anyone and document management and
// seeding to admins. docs/api.md ("Knowledge base") is the contract.
type kbAPI struct {
	db       *store.DB // who is asking: replays' passages are for members
	kb       *kb.Service
	gaps     *gaps.Service
	content  *content.Site // what seeding reads
	cfg      *config.Config
	searchIP *ratelimit.Limiter
}

func newKBAPI(cfg *config.Config, db *store.DB, kbs *kb.Service, gs *gaps.Service, site *content.Site, share shareLimit) *kbAPI {
	// Generous for a person at the console (and the browser tests, which
	// all come from one address); a script is held to one search a second.
	return &kbAPI{db: db, kb: kbs, gaps: gs, content: site, cfg: cfg, searchIP: ratelimit.New(30, time.Second, share("kb-search-ip"))}
}

func (a *kbAPI) register(g *registrar) error {
	g.route("POST /api/search", anyone, a.search)
	g.route("GET /api/admin/documents", admin, a.list)
	g.route("POST /api/admin/documents", admin, a.create)
	g.route("PUT /api/admin/documents/{id}", admin, a.update)
	g.route("DELETE /api/admin/documents/{id}", admin, a.remove)
	g.route("POST /api/admin/kb/seed", admin, a.seed)
	g.route("GET /api/admin/knowledge-gaps", admin, a.knowledgeGaps)
	return nil
}

// search answers the console's search command (and any other caller); a
// question it answers weakly becomes a knowledge gap, as in the AI chat.
func (a *kbAPI) search(w http.ResponseWriter, r *http.Request) error {
	client := clientKey(r, a.cfg.TrustedProxies)
	if err := limited(limitCheck{a.searchIP, client}); err != nil {
		return err
	}
	var in SearchRequest
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	res, err := agent.Search(gaps.WithClient(r.Context(), client), a.kb, a.gaps, v, in.Query, in.Limit)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, res)
	return nil
}

func (a *kbAPI) list(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", "Limit must be a whole number from 1 to 100.")
	if err != nil {
		return err
	}
	offset, err := queryInt(r, "offset", "Offset must be a whole number of at least 0.")
	if err != nil {
		return err
	}
	list, err := a.kb.List(r.Context(), limit, offset)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, list)
	return nil
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

func (a *kbAPI) create(w http.ResponseWriter, r *http.Request) error {
	var in kb.Input
	if err := httpx.ReadJSONLimit(w, r, &in, maxDocumentBody); err != nil {
		return err
	}
	d, err := a.kb.Create(r.Context(), in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, DocumentBody{d})
	return nil
}

func (a *kbAPI) update(w http.ResponseWriter, r *http.Request) error {
	var in kb.Input
	if err := httpx.ReadJSONLimit(w, r, &in, maxDocumentBody); err != nil {
		return err
	}
	d, err := a.kb.Update(r.Context(), r.PathValue("id"), in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, DocumentBody{d})
	return nil
}

func (a *kbAPI) remove(w http.ResponseWriter, r *http.Request) error {
	if err := a.kb.Delete(r.Context(), r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *kbAPI) seed(w http.ResponseWriter, r *http.Request) error {
	res, err := a.kb.Seed(r.Context(), kb.FromContent(a.content, a.cfg.Capacity))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, res)
	return nil
}

// knowledgeGaps lists the questions the knowledge base answered weakly in
// the last 90 days, grouped by similar wording, a page at a time
// (?limit=&cursor=, the cursor being the previous page's next).
func (a *kbAPI) knowledgeGaps(w http.ResponseWriter, r *http.Request) error {
	limit, err := queryInt(r, "limit", fmt.Sprintf("Limit must be a whole number from 1 to %d.", gaps.MaxPage))
	if err != nil {
		return err
	}
	groups, err := a.gaps.List(r.Context(), limit, r.URL.Query().Get("cursor"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, groups)
	return nil
}
