package web

import (
	"net/http"

	"tribe/internal/auth"
)

// access is who may call an endpoint. Every route declares one; the
// authorization table test calls each route as each role.
type access int

const (
	anyone access = iota // no session needed
	member               // any signed-in user
	admin                // a signed-in admin (confirmed address, decided on the server)
)

// allow wraps h so it runs only for callers with the given access. Finer
// rules (subscriber-only fields, cohort creator) are decided by the handler
// and its domain package.
func allow(a access, h http.HandlerFunc) http.Handler {
	if a == anyone {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := auth.PrincipalFrom(r.Context())
		if !ok {
			writeError(w, http.StatusUnauthorized, "unauthorized", "Not authenticated")
			return
		}
		if a == admin && !p.Admin {
			writeError(w, http.StatusForbidden, "forbidden", "This is only available to admins.")
			return
		}
		h(w, r)
	})
}
