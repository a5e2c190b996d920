package web

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"tribe/internal/httpx"
	"tribe/internal/metrics"
)

// registerOps adds the operator endpoints: /metrics in the Prometheus text
// format, for scrapers on this machine or holding TRIBE_METRICS_TOKEN.
func (s *server) registerOps(mux *http.ServeMux) error {
	s.metrics = metrics.New(metrics.Sources{DB: s.DB, OpenStreams: s.hub.Open})
	s.handle(mux, "GET /metrics", anyone, s.metricsAccess(s.metrics.Handler()))
	return nil
}

// metricsAccess lets a request through when it comes straight from this
// machine (no proxy in between) or carries the metrics token; others get 404,
// which tells nobody the endpoint exists.
func (s *server) metricsAccess(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !directFromLoopback(r) && !s.hasMetricsToken(r) {
			http.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (s *server) hasMetricsToken(r *http.Request) bool {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && s.Config.MetricsToken != "" &&
		subtle.ConstantTimeCompare([]byte(token), []byte(s.Config.MetricsToken)) == 1
}

// directFromLoopback reports whether r came from this machine without a
// reverse proxy in between (a proxy on this machine adds forwarding headers).
func directFromLoopback(r *http.Request) bool {
	return isLoopback(r.RemoteAddr) && r.Header.Get("X-Forwarded-For") == "" && r.Header.Get("Forwarded") == ""
}

// notePattern records, after the mux has served r, the pattern it matched.
func notePattern(mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		httpx.NotePattern(w, r)
	})
}
