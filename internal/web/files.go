package web

import (
	"errors"
	"net/http"
	"time"

	"tribe/internal/errs"
	"tribe/internal/storage"
)

// mediaURLExpiry is how long a presigned link to a large stored file
// (recordings, materials) stays valid: long enough for the player to start
// and seek, short enough that a shared link soon stops working.
const mediaURLExpiry = 10 * time.Minute

// serveMedia answers a large stored file after the caller's own access
// check: a redirect to a presigned link of the bucket (at most
// storage.MaxURLExpiry; the bucket stays private), or, where the store
// gives no links (the data directory), the file streamed with range
// support. Neither answer may be cached by a shared cache, since access was
// checked for this caller. notFound is the caller's 404.
func serveMedia(w http.ResponseWriter, r *http.Request, files storage.Store, key, contentType string, notFound error) error {
	if _, err := files.Stat(r.Context(), key); err != nil {
		if errors.Is(err, storage.ErrNotFound) || errors.Is(err, storage.ErrInvalidKey) {
			return notFound
		}
		return err
	}
	u, err := files.URL(r.Context(), key, mediaURLExpiry)
	switch {
	case err == nil:
		w.Header().Set("Cache-Control", "private, no-store")
		http.Redirect(w, r, u, http.StatusFound)
		return nil
	case !errors.Is(err, storage.ErrNoURL):
		return err
	}
	f, info, err := files.Open(r.Context(), key)
	if errors.Is(err, storage.ErrNotFound) {
		return notFound
	}
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }()
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-store")
	http.ServeContent(w, r, "", info.ModTime, f)
	return nil
}

// errNoMedia is serveMedia's 404 where the caller has none of its own.
var errNoMedia = errs.New(errs.NotFound, "No such file.")
