package web

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"tribe/internal/config"
	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/metrics"
	"tribe/internal/store"
)

// opsAPI serves the operator endpoints: liveness, readiness, and /metrics
// in the Prometheus text format for scrapers on this machine or holding
// TRIBE_METRICS_TOKEN.
type opsAPI struct {
	db      *store.DB
	cfg     *config.Config
	logger  *slog.Logger
	version string
	metrics *metrics.Metrics
}

func (a *opsAPI) register(g *registrar) error {
	g.route("GET /healthz", anyone, a.healthz)
	g.route("GET /readyz", anyone, a.readyz)
	g.handle("GET /metrics", anyone, a.metricsAccess(a.metrics.Handler()))
	return nil
}

func (a *opsAPI) healthz(w http.ResponseWriter, _ *http.Request) error {
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": a.version})
	return nil
}

var errDatabaseDown = errs.New(errs.Unavailable, "The database does not answer.")

func (a *opsAPI) readyz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := a.db.Ping(ctx); err != nil {
		a.logger.Error("readiness check failed", "err", err)
		return errDatabaseDown
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]string{"status": "ready", "database": string(a.db.Dialect)})
	return nil
}

// metricsAccess lets a request through when it comes straight from this
// machine (no proxy in between) or carries the metrics token; others get 404,
// which tells nobody the endpoint exists.
func (a *opsAPI) metricsAccess(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !directFromLoopback(r) && !a.hasMetricsToken(r) {
			http.NotFound(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

func (a *opsAPI) hasMetricsToken(r *http.Request) bool {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	return ok && a.cfg.MetricsToken != "" &&
		subtle.ConstantTimeCompare([]byte(token), []byte(a.cfg.MetricsToken)) == 1
}

// directFromLoopback reports whether r came from this machine without a
// reverse proxy in between (a proxy on this machine adds a forwarding
// header; see proxied).
func directFromLoopback(r *http.Request) bool {
	return isLoopback(r.RemoteAddr) && !proxied(r)
}

// notePattern records, after the mux has served r, the pattern it matched.
func notePattern(mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mux.ServeHTTP(w, r)
		httpx.NotePattern(w, r)
	})
}
