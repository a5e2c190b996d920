package web

import (
	"errors"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/library"
	"tribe/internal/storage"
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
	g.route("GET /api/library/{id}/media", member, withViewer(db, a.media))
	g.route("PUT /api/admin/library/{id}/media", admin, withViewer(db, a.attach))
	g.route("POST /api/admin/uploads", admin, withViewer(db, a.createUpload))
	g.route("GET /api/admin/uploads/{id}", admin, withViewer(db, a.upload)) // HEAD too: the offset is in a header
	g.route("PATCH /api/admin/uploads/{id}", admin, a.chunk)
	g.route("PUT /api/admin/library/{id}/transcript", admin, a.transcript)
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

func (a *libraryAPI) attach(w http.ResponseWriter, r *http.Request, v access.Viewer, in library.MediaInput) error {
	d, err := a.lib.AttachMedia(r.Context(), v, r.PathValue("id"), in)
	return item(w, http.StatusOK, d, err)
}

// uploadState answers where an upload stands, in the body and in the
// Upload-Offset header (what a HEAD request reads).
func uploadState(w http.ResponseWriter, status int, st *library.UploadState) {
	w.Header().Set("Upload-Offset", strconv.FormatInt(st.Offset, 10))
	w.Header().Set("Cache-Control", "no-store")
	httpx.WriteJSON(w, status, st)
}

func (a *libraryAPI) createUpload(w http.ResponseWriter, r *http.Request, v access.Viewer, in library.UploadInput) error {
	st, err := a.lib.CreateUpload(r.Context(), v, in)
	if err != nil {
		return err
	}
	uploadState(w, http.StatusCreated, st)
	return nil
}

func (a *libraryAPI) upload(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	st, err := a.lib.Upload(r.Context(), v, r.PathValue("id"))
	if err != nil {
		return err
	}
	uploadState(w, http.StatusOK, st)
	return nil
}

var errChunkLength = errs.Field("Content-Length", "The chunk's length must match its Content-Range.")

// chunk appends one chunk, streamed from the request body into the store.
// A refusal about the offset carries the offset to resume from.
func (a *libraryAPI) chunk(w http.ResponseWriter, r *http.Request) error {
	rg, err := library.ParseContentRange(r.Header.Get("Content-Range"))
	if err != nil {
		return err
	}
	n := rg.Last - rg.First + 1
	if r.ContentLength >= 0 && r.ContentLength != n {
		return errChunkLength
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	st, err := a.lib.AppendChunk(r.Context(), v, r.PathValue("id"), rg, http.MaxBytesReader(w, r.Body, n))
	var off *library.OffsetError
	if errors.As(err, &off) {
		w.Header().Set("Upload-Offset", strconv.FormatInt(off.Offset, 10))
	}
	if err != nil {
		return err
	}
	uploadState(w, http.StatusOK, st)
	return nil
}

// media serves an item's file after the item's own access check: on S3 a
// presigned redirect that lasts at most storage.MaxURLExpiry, else the
// file itself with ranges (206), its sniffed type, and inline only for
// audio, video and PDF.
func (a *libraryAPI) media(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	id := r.PathValue("id")
	u, err := a.lib.MediaURL(r.Context(), v, id, storage.MaxURLExpiry)
	if err == nil {
		w.Header().Set("Cache-Control", "private, no-store")
		http.Redirect(w, r, u, http.StatusFound)
		return nil
	}
	if !errors.Is(err, storage.ErrNoURL) {
		return err
	}
	obj, info, err := a.lib.OpenMedia(r.Context(), v, id)
	if err != nil {
		return err
	}
	defer func() { _ = obj.Close() }()
	h := w.Header()
	h.Set("Content-Type", info.ContentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-cache")
	disposition := "attachment"
	if library.Inline(info.ContentType) {
		disposition = "inline"
	}
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": "item-" + id + extension(info.ContentType)}))
	http.ServeContent(w, r, "", info.ModTime, obj)
	return nil
}

// extension is the usual file name extension of a type ("" when none).
func extension(contentType string) string {
	base, _, _ := strings.Cut(contentType, ";")
	known := map[string]string{"video/mp4": ".mp4", "audio/mp4": ".m4a", "video/webm": ".webm", "audio/mpeg": ".mp3",
		"application/pdf": ".pdf", "application/zip": ".zip", "audio/ogg": ".ogg", "text/plain": ".txt"}
	if e, ok := known[base]; ok {
		return e
	}
	if exts, _ := mime.ExtensionsByType(base); len(exts) > 0 {
		return exts[0]
	}
	return ""
}

// transcript reads a WebVTT or SRT file from the body (as text, not JSON)
// and answers the cues it holds.
func (a *libraryAPI) transcript(w http.ResponseWriter, r *http.Request) error {
	file, err := httpx.ReadRaw(w, r, library.MaxTranscript)
	if err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	cues, err := a.lib.SetTranscript(r.Context(), v, r.PathValue("id"), file)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, library.TranscriptEnvelope{Transcript: cues})
	return nil
}
