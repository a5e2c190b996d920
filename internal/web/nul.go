package web

import (
	"net/http"
	"strings"

	"tribe/internal/errs"
	"tribe/internal/httpx"
)

var errNULInURL = errs.New(errs.Invalid, "The address holds a NUL character (%00), which no path or query may contain.")

// refuseNUL answers 400 to a request whose path or query holds a NUL
// character. No id, name, token or search may contain one, and PostgreSQL
// text cannot hold one (it failed such requests with 500), so the one
// check here serves every route; JSON bodies are checked by httpx.ReadJSON.
func refuseNUL(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.IndexByte(r.URL.Path, 0) >= 0 || strings.Contains(r.URL.RawQuery, "%00") {
			httpx.WriteError(w, r, errNULInURL)
			return
		}
		next.ServeHTTP(w, r)
	})
}
