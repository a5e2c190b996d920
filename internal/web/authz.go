package web

import (
	"net/http"

	"tribe/internal/access"
	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// who may call an endpoint. Every route declares one; finer rules (paid
// content, cohort creator) are decided by the domain package from the
// viewer. The authorization test calls each route as each role.
type who int

const (
	anyone who = iota // no session needed
	member            // any signed-in user
	admin             // a signed-in admin (confirmed address, decided on the server)
)

var (
	errNotSignedIn = errs.New(errs.Unauthorized, "Not authenticated")
	errNotAdmin    = errs.New(errs.Forbidden, "This is only available to admins.")
)

// allow wraps h so it runs only for callers with the given rights.
func allow(a who, h http.Handler) http.Handler {
	if a == anyone {
		return h
	}
	return handlerFunc(func(w http.ResponseWriter, r *http.Request) error {
		p, ok := auth.PrincipalFrom(r.Context())
		if !ok {
			return errNotSignedIn
		}
		if a == admin && !p.Admin {
			return errNotAdmin
		}
		h.ServeHTTP(w, r)
		return nil
	})
}

// caller is the signed-in user; allow() has already refused anonymous calls.
func caller(r *http.Request) *auth.Principal {
	p, _ := auth.PrincipalFrom(r.Context())
	return p
}

// viewer is the caller as the domain rules see them (anonymous when signed out).
func viewer(r *http.Request, db *store.DB) (access.Viewer, error) {
	p, ok := auth.PrincipalFrom(r.Context())
	if !ok {
		return access.Viewer{}, nil
	}
	return billing.ViewerOf(r.Context(), db, p.UserID, p.Admin)
}
