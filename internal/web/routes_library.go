package web

import (
	"net/http"

	"tribe/internal/access"
	"tribe/internal/httpx"
	"tribe/internal/library"
	"tribe/internal/store"
)

// libraryAPI serves the members' library (docs/api.md, "Library"):
// internal/library decides who sees and opens what; these handlers read
// the request, call it and answer.
type libraryAPI struct {
	db  *store.DB
	lib *library.Service
}

// maxItemBody bounds an item's JSON: a lesson's Markdown is up to
// library.MaxBody characters, each up to 4 bytes, escaped.
const maxItemBody = 1 << 20

func (a *libraryAPI) register(g *registrar) error {
	db := a.db
	g.route("GET /api/library", member, withViewer(db, a.list)) // free members: titles, locked; decided in library
	g.route("GET /api/library/{id}", member, withViewer(db, a.get))
	g.route("PUT /api/library/{id}/progress", member, withViewer(db, a.progress))
	g.route("POST /api/admin/library", admin, a.create)
	g.route("PATCH /api/admin/library/{id}", admin, a.update)
	g.route("DELETE /api/admin/library/{id}", admin, withViewer(db, a.remove))
	g.route("GET /api/admin/library/{id}/stats", admin, withViewer(db, a.stats))
	return nil
}

func (a *libraryAPI) list(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	q := r.URL.Query()
	list, err := a.lib.List(r.Context(), v, library.ListQuery{Kind: q.Get("kind"), Tag: q.Get("tag"),
		SessionID: q.Get("session_id"), Q: q.Get("q")})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, list)
	return nil
}

// item answers one item with status, or the error of the call that made it.
func item(w http.ResponseWriter, status int, d *library.ItemDetail, err error) error {
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, status, library.ItemEnvelope{Item: *d})
	return nil
}

func (a *libraryAPI) get(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	d, err := a.lib.Get(r.Context(), v, r.PathValue("id"))
	return item(w, http.StatusOK, d, err)
}

func (a *libraryAPI) progress(w http.ResponseWriter, r *http.Request, v access.Viewer, in library.ProgressInput) error {
	p, err := a.lib.SaveProgress(r.Context(), v, r.PathValue("id"), in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, library.ProgressEnvelope{Progress: *p})
	return nil
}

// readItem reads an item's JSON (longer than most bodies: a lesson's
// Markdown) and who sends it.
func (a *libraryAPI) readItem(w http.ResponseWriter, r *http.Request) (access.Viewer, library.ItemInput, error) {
	var in library.ItemInput
	if err := httpx.ReadJSONLimit(w, r, &in, maxItemBody); err != nil {
		return access.Viewer{}, in, err
	}
	v, err := viewer(r, a.db)
	return v, in, err
}

func (a *libraryAPI) create(w http.ResponseWriter, r *http.Request) error {
	v, in, err := a.readItem(w, r)
	if err != nil {
		return err
	}
	d, err := a.lib.Create(r.Context(), v, in)
	return item(w, http.StatusCreated, d, err)
}

func (a *libraryAPI) update(w http.ResponseWriter, r *http.Request) error {
	v, in, err := a.readItem(w, r)
	if err != nil {
		return err
	}
	d, err := a.lib.Update(r.Context(), v, r.PathValue("id"), in)
	return item(w, http.StatusOK, d, err)
}

func (a *libraryAPI) remove(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	if err := a.lib.Delete(r.Context(), v, r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *libraryAPI) stats(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	st, err := a.lib.Stats(r.Context(), v, r.PathValue("id"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, st)
	return nil
}
