package web

import (
	"log/slog"
	"net/http"
	"strings"
	"time"

	"tribe/internal/auth"
)

// sessionPaths are where a signed-in user matters; elsewhere (the web app's
// files and pages) the session cookie is not even looked at.
var sessionPaths = []string{"/api/", "/auth/confirm", "/dev/", "/calendar/", "/avatars/", "/oauth/"}

// authenticate loads the signed-in user from the session cookie into the
// request context (auth.WithPrincipal) and renews the session.
// secure marks the cookie Secure (the site's address is https).
func authenticate(svc *auth.Service, secure bool, logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hasSessionPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		c, err := r.Cookie(auth.CookieName)
		if err != nil || c.Value == "" {
			next.ServeHTTP(w, r)
			return
		}
		p, renewed, err := svc.Authenticate(r.Context(), c.Value)
		if err != nil {
			// The request goes on as signed out; endpoints that need a user
			// answer 401 and the cookie stays for the next request.
			logger.Error("authenticate session", "err", err)
			next.ServeHTTP(w, r)
			return
		}
		if p == nil {
			if err := svc.ForgetSession(r.Context(), c.Value); err != nil {
				logger.Warn("forget expired session", "err", err)
			}
			clearSessionCookie(w, secure)
			next.ServeHTTP(w, r)
			return
		}
		if renewed {
			setSessionCookie(w, c.Value, secure)
		}
		next.ServeHTTP(w, r.WithContext(auth.WithPrincipal(r.Context(), p)))
	})
}

func hasSessionPath(path string) bool {
	for _, p := range sessionPaths {
		if strings.HasPrefix(path, p) {
			return true
		}
	}
	return false
}

func setSessionCookie(w http.ResponseWriter, token string, secure bool) {
	http.SetCookie(w, &http.Cookie{
		Name: auth.CookieName, Value: token, Path: "/",
		MaxAge: int(auth.SessionTTL / time.Second), HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode,
	})
}

func clearSessionCookie(w http.ResponseWriter, secure bool) {
	http.SetCookie(w, &http.Cookie{
		Name: auth.CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: secure, SameSite: http.SameSiteLaxMode,
	})
}
