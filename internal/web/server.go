// Package web is the HTTP side of the program: routes, middleware and the
// serving of the embedded web app. Handlers stay thin and call domain packages.
package web

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"runtime/debug"
	"sync"
	"time"

	"tribe/internal/auth"
	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/events"
	"tribe/internal/store"
)

// Options carries what the HTTP layer needs.
type Options struct {
	Config  *config.Config
	DB      *store.DB
	Logger  *slog.Logger
	App     fs.FS // the built web app
	Version string
	// Content is the loaded site content; nil loads it from
	// Config.ContentDir (or the embedded files) when the handler is built.
	Content *content.Site
}

// New builds the site's HTTP handler.
func New(o Options) (http.Handler, error) {
	if o.Content == nil {
		loaded, err := content.Load(o.Config.ContentDir)
		if err != nil {
			return nil, fmt.Errorf("load content: %w", err)
		}
		o.Content = loaded
	}
	override, err := contentOverride(o.Content)
	if err != nil {
		return nil, err
	}
	site, err := loadStatic(o.App, o.Config.BaseURL, override)
	if err != nil {
		return nil, err
	}
	if !site.built {
		o.Logger.Warn("the web app is not built into this binary; pages answer 503 until `make build` runs")
	}
	s := &server{Options: o}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.HandleFunc("GET /readyz", s.readyz)
	if err := registerPublic(mux, o); err != nil {
		return nil, err
	}
	for _, register := range []func(*http.ServeMux) error{s.registerAuth, s.registerMembers, s.registerDevMail, s.registerEvents} {
		if err := register(mux); err != nil {
			return nil, err
		}
	}
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "No API endpoint at "+r.URL.Path+".")
	})
	mux.Handle("/", site)

	csrf := http.NewCrossOriginProtection()
	var h http.Handler = mux
	h = s.authenticate(h)
	h = csrf.Handler(h)
	h = securityHeaders(h)
	h = recoverPanics(o.Logger, h)
	h = logRequests(o.Logger, h)
	return h, nil
}

type server struct {
	Options
	hub *events.Hub // live updates; set by registerEvents

	authOnce sync.Once
	auth     *auth.Service // see authService
}

func (s *server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "version": s.Version})
}

func (s *server) readyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.DB.Ping(ctx); err != nil {
		s.Logger.Error("readiness check failed", "err", err)
		writeError(w, http.StatusServiceUnavailable, "database_unavailable", "The database does not answer.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready", "database": string(s.DB.Dialect)})
}

// securityHeaders sets the baseline headers on every response.
func securityHeaders(next http.Handler) http.Handler {
	const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
		"img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; " +
		"object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		if r.TLS != nil {
			h.Set("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
		}
		next.ServeHTTP(w, r)
	})
}

// recoverPanics turns a panic in a handler into a logged 500 with a JSON body.
func recoverPanics(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				logger.Error("handler panic", "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				writeError(w, http.StatusInternalServerError, "internal", "Something went wrong on our side. Please try again.")
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// statusRecorder remembers the status and size of a response for the log.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (r *statusRecorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	n, err := r.ResponseWriter.Write(b)
	r.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach Flush for streaming responses.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// logRequests writes one line per request with status and duration.
func logRequests(logger *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		logger.LogAttrs(r.Context(), slog.LevelInfo, "request",
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", rec.status),
			slog.Int("bytes", rec.bytes),
			slog.Duration("duration", time.Since(start)),
		)
	})
}
