// Package web is the HTTP side of the program: routes, middleware and the
// serving of the embedded web app. Handlers stay thin and call domain packages.
package web

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"tribe/internal/agent"
	"tribe/internal/clock"
	"tribe/internal/config"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/httpx"
	"tribe/internal/mcp"
	"tribe/internal/metrics"
	"tribe/internal/services"
	"tribe/internal/store"
)

// Options carries what the HTTP layer needs. Every field but DB is required
// (the public-document tests run without a database): the handler builds no
// service itself, so the process that runs it (cmd/tribe) and the tests pass
// the same set, made by services.New.
type Options struct {
	Config  *config.Config
	DB      *store.DB
	Logger  *slog.Logger
	App     fs.FS // the built web app
	Version string
	// Content is the loaded site content (content.Load); the handler applies
	// TRIBE_CAPACITY to it.
	Content *content.Site
	// Services are the domain services, one of each per process: serve
	// shares the hub and the knowledge base with its workers.
	Services *services.Set

	// heartbeat overrides the stream heartbeats (tests make it short).
	heartbeat time.Duration
	// clock is the services' clock in tests that set it (withClock).
	clock clock.Clock
}

// New builds the site's HTTP handler.
func New(o Options) (http.Handler, error) {
	_, h, err := newServer(o)
	return h, err
}

// check reports the first required option that is missing.
func (o Options) check() error {
	switch {
	case o.Config == nil:
		return errors.New("web: Options.Config is required")
	case o.Logger == nil:
		return errors.New("web: Options.Logger is required")
	case o.App == nil:
		return errors.New("web: Options.App is required")
	case o.Content == nil:
		return errors.New("web: Options.Content is required")
	case o.Services == nil:
		return errors.New("web: Options.Services is required")
	}
	return nil
}

// newServer builds the site's HTTP handler and returns the server behind it.
func newServer(o Options) (*server, http.Handler, error) {
	if err := o.check(); err != nil {
		return nil, nil, err
	}
	if err := o.Content.SetTribeCapacity(o.Config.Capacity); err != nil {
		return nil, nil, err
	}
	owner, err := ownerContent(o.Content)
	if err != nil {
		return nil, nil, err
	}
	configScript, err := pageConfigScript(o.Config)
	if err != nil {
		return nil, nil, err
	}
	site, err := loadStatic(o.App, o.Config.BaseURL, append(contentOverride(owner, false), configScript...))
	if err != nil {
		return nil, nil, err
	}
	if owner != nil && site.built {
		start := time.Now()
		err := site.renderOwnerContent(owner, o.Config.BaseURL, append(contentOverride(owner, true), configScript...), func(n int, err error) {
			if err != nil {
				o.Logger.Warn("some pages could not be rendered from the site's content; they keep the build's text until JavaScript replaces it", "err", err)
			}
			o.Logger.Info("rendered pages from the site's content", "pages", n, "duration", time.Since(start).Round(time.Millisecond))
		})
		if err != nil {
			o.Logger.Warn("pages keep the build's text until JavaScript replaces it with the site's content", "err", err)
		}
	}
	if !site.built {
		o.Logger.Warn("the web app is not built into this binary; pages answer 503 until `make build` runs")
	}
	svc := o.Services
	src := metrics.Sources{DB: o.DB, OpenStreams: svc.Hub.Open}
	if svc.Booking != nil {
		src.OpenHolds = svc.Booking.OpenHolds
	}
	m := metrics.New(src)
	// The AI tools search the one knowledge base of the process, so they
	// rank with embeddings where it does; the chat offers them to the model
	// and the MCP server lists and calls the same registry.
	siteDeps := agent.SiteDeps{KB: svc.KB, Site: o.Content, BaseURL: o.Config.BaseURL, Capacity: o.Config.Capacity, Booking: svc.Booking, Gaps: svc.Gaps}
	// The member tools join the same registry: the MCP server offers them to
	// a member's assistant with a token, and the chat leaves them out.
	memberDeps := agent.MemberDeps{Site: siteDeps, DB: o.DB, Levels: svc.Levels, Forum: svc.Forum, Clock: svc.Clock}
	if svc.Booking != nil {
		memberDeps.Bookings, memberDeps.Holds = svc.Booking, svc.Booking
		memberDeps.Account = func(ctx context.Context, id string) (string, string, error) {
			u, err := svc.Auth.User(ctx, id)
			if err != nil {
				return "", "", err
			}
			if u == nil {
				return "", "", errs.New(errs.Unauthorized, "The member behind this token no longer exists.")
			}
			name := u.FullName
			if name == "" {
				name = strings.Split(u.Email, "@")[0]
			}
			return name, u.Email, nil
		}
	}
	tools, err := agent.NewRegistry(append(agent.SiteTools(siteDeps), agent.MemberTools(memberDeps)...)...)
	if err != nil {
		return nil, nil, err
	}
	pub := publisher{hub: svc.Hub, logger: o.Logger}
	share := sharedLimits(o.DB)
	areas := []area{
		&opsAPI{db: o.DB, cfg: o.Config, logger: o.Logger, version: o.Version, metrics: m},
		&publicAPI{content: o.Content, baseURL: o.Config.BaseURL},
		newAuthAPI(o.Config, svc.Auth, o.Logger, svc.Notify.AdoptTimeZone, share),
		newWaitlistAPI(o.Config, o.DB, o.Logger, share),
		&billingAPI{billing: svc.Billing, metrics: m, pub: pub, proxies: o.Config.TrustedProxies, limits: newBillingLimits(share)},
		&membersAPI{db: o.DB, cfg: o.Config, billing: svc.Billing, auth: svc.Auth, avatars: svc.Avatars, now: svc.Clock, pub: pub, notify: svc.Notify, library: svc.Library},
		&notifyAPI{notify: svc.Notify, inbox: svc.Inbox},
		newInboxAPI(svc.Inbox, svc.Push),
		&showupAPI{db: o.DB, levels: svc.Levels, now: svc.Clock, pub: pub, logger: o.Logger},
		&projectsAPI{db: o.DB, levels: svc.Levels, now: svc.Clock, pub: pub},
		&forumAPI{db: o.DB, forum: svc.Forum, pub: pub},
		&libraryAPI{db: o.DB, lib: svc.Library},
		&insightsAPI{db: o.DB, billing: svc.Billing, now: svc.Clock},
		&devMailAPI{db: o.DB, cfg: o.Config, logger: o.Logger},
		newEventsAPI(svc.Hub, svc.Auth, o.Logger, o.heartbeatOr(eventsHeartbeat)),
		newBookingAPI(o.Config, svc.Booking, svc.Hub, o.Logger, o.heartbeatOr(eventsHeartbeat), share),
		newInquiriesAPI(svc.Inquiries, o.Config.TrustedProxies, share),
		newKBAPI(o.Config, o.DB, svc.KB, svc.Gaps, o.Content, share),
		&transferAPI{db: o.DB, svc: svc, logger: o.Logger, pub: pub},
		newAIAPI(o.Config, o.DB, siteDeps, tools, m, o.Logger, o.heartbeatOr(aiHeartbeat), share),
		newOAuthAPI(o.Config, svc.OAuth, share),
		newMCPAPI(o.Config, mcp.Options{Tools: tools, Site: o.Content, Documents: svc.KB, BaseURL: o.Config.BaseURL, Version: o.Version, Logger: o.Logger,
			ViewerOf: memberViewer(o.DB, svc.Auth)}, svc.OAuth, site, share),
	}
	mux := http.NewServeMux()
	g := &registrar{mux: mux}
	for _, a := range areas {
		if err := a.register(g); err != nil {
			return nil, nil, err
		}
	}
	s := &server{Options: o, routes: g.routes, tools: tools}
	mux.Handle("/api/", handlerFunc(func(_ http.ResponseWriter, r *http.Request) error {
		return errNoEndpoint(r)
	}))
	mux.Handle(appPattern, site)

	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(handlerFunc(func(http.ResponseWriter, *http.Request) error {
		return errCrossOrigin
	}))
	// The MCP endpoint takes no cookie, so a cross-site POST can do nothing a
	// direct one could not; it applies its own origin rule (routes_mcp.go)
	// so that browser-based MCP clients on other sites can use it.
	csrf.AddInsecureBypassPattern("POST " + mcp.Path)
	// The OAuth token, registration and revocation endpoints are called by
	// assistants, some running in a browser on another site, with no
	// cookie; the consent form keeps the check.
	for _, p := range oauthBypass {
		csrf.AddInsecureBypassPattern(p)
	}
	// One-click unsubscribe (RFC 8058) is POSTed by mail providers and
	// authorised by its signed token alone, never by a cookie.
	csrf.AddInsecureBypassPattern(unsubscribePattern)
	var h http.Handler = notePattern(mux)
	h = noteVisits(svc.Notify, o.Logger, h)
	h = authenticate(svc.Auth, strings.HasPrefix(o.Config.BaseURL, "https://"), o.Logger, h)
	h = csrf.Handler(h)
	h = pagesFirst(mux, site, h)
	h = refuseNUL(h)
	csp := contentSecurityPolicy(scriptOrigin(o.Config.GoalWidgetURL))
	h = securityHeaders(strings.HasPrefix(o.Config.BaseURL, "https://"), csp, h)
	h = recoverPanics(o.Logger, h)
	h = observeRequests(o.Logger, m, h)
	return s, h, nil
}

// appPattern is the route of the web app's pages and files: everything no
// other route serves.
const appPattern = "/"

var errCrossOrigin = errs.New(errs.Forbidden, "This request came from another site and was refused.")

// pagesFirst serves GET and HEAD of the web app's pages straight from site,
// ahead of the cross-origin check, the session lookup and the mux, none of
// which a page uses: pages are most requests, and routing one through the
// mux was a twentieth of its cost. Only routes the mux itself would give the
// web app are taken (not /mcp, which has a GET route of its own), so the
// answer is the same either way.
func pagesFirst(mux *http.ServeMux, site http.Handler, next http.Handler) http.Handler {
	pages := map[string]appPage{}
	for _, route := range appRoutes {
		probe := &http.Request{Method: http.MethodGet, URL: &url.URL{Path: route}, Host: "localhost", Header: http.Header{}}
		if _, pattern := mux.Handler(probe); pattern == appPattern {
			pages[route] = appPage{}
		}
	}
	// The built app's pages are looked up here once, so a page request
	// goes straight to its file.
	built, _ := site.(*staticSite)
	if built != nil && built.built {
		for route := range pages {
			pages[route] = built.pages[route]
		}
	} else {
		built = nil
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if page, ok := pages[r.URL.Path]; ok && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			r.Pattern = appPattern
			httpx.NotePattern(w, r)
			if built != nil {
				built.servePage(w, r, page)
			} else {
				site.ServeHTTP(w, r)
			}
			return
		}
		next.ServeHTTP(w, r)
	})
}

// errNoEndpoint answers a path under /api/ that no route serves.
func errNoEndpoint(r *http.Request) error {
	return errs.New(errs.NotFound, "No API endpoint at "+r.URL.Path+".")
}

// server is what tests look into behind a built handler.
type server struct {
	Options
	routes []string        // every registered pattern, for the authorization test
	tools  *agent.Registry // the AI tools the chat and the MCP server share
}

// heartbeatOr is the streams' heartbeat: d, unless a test shortened it.
func (o Options) heartbeatOr(d time.Duration) time.Duration {
	if o.heartbeat > 0 {
		return o.heartbeat
	}
	return d
}

// securityHeaders sets the baseline headers on every response, with csp
// (contentSecurityPolicy) as the Content-Security-Policy. hsts is set
// when the site's public address is https, so HSTS is sent even where TLS
// ends at a reverse proxy.
func securityHeaders(hsts bool, csp string, next http.Handler) http.Handler {
	// Canonical keys and one-element values made once, set from a slice:
	// every response pays for these, Header.Set would canonicalise and
	// allocate each time, and ranging over a map costs more than the
	// assignments.
	headers := []headerField{
		{"Content-Security-Policy", []string{csp}},
		{"Referrer-Policy", []string{"strict-origin-when-cross-origin"}},
		{"X-Content-Type-Options", []string{"nosniff"}},
		{"X-Frame-Options", []string{"DENY"}},
		{"Permissions-Policy", []string{"camera=(), microphone=(), geolocation=()"}},
	}
	hstsValue := []string{"max-age=63072000; includeSubDomains"}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		for _, f := range headers {
			h[f.name] = f.value
		}
		if hsts || r.TLS != nil {
			h["Strict-Transport-Security"] = hstsValue
		}
		next.ServeHTTP(w, r)
	})
}

// headerField is a response header in canonical form with its value.
type headerField struct {
	name  string
	value []string
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
				httpx.WriteError(w, r, errs.New(errs.Internal, errs.MessageOf(nil)))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// processStart anchors sinceStart.
var processStart = time.Now()

// sinceStart reads the monotonic clock alone: time.Now reads the wall
// clock too, and each read is a call into the kernel's clock page that a
// request's duration does not need (three reads per request were a
// hundredth of serving a page).
func sinceStart() time.Duration { return time.Since(processStart) }

// observeRequests writes one log line per request with status and duration
// (and the error of a 500) and records it in the metrics by route pattern.
// A page or file of the web app served without error is logged at debug
// level: those are most requests and the least telling, the reverse proxy's
// access log has them too, and the metrics count them; writing their lines
// was a tenth of serving a page. The web app's answers are counted and not
// timed (metrics.Request): they come from memory in microseconds, and the
// clock read and histogram update were a twentieth of serving a page.
func observeRequests(logger *slog.Logger, m *metrics.Metrics, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := sinceStart()
		rec := httpx.AcquireRecorder(w)
		defer rec.Release()
		next.ServeHTTP(rec, r)
		status, pattern, failure := rec.Outcome()
		app := pattern == appPattern
		level := slog.LevelInfo
		switch {
		case failure != nil:
			level = slog.LevelError
		case status < 400 && app:
			level = slog.LevelDebug
		}
		logged := logger.Enabled(r.Context(), level)
		untimed := app || strings.HasPrefix(firstValue(rec.Header(), "Content-Type"), "text/event-stream")
		var took time.Duration
		if logged || !untimed {
			took = sinceStart() - start
		}
		if logged {
			attrs := []slog.Attr{
				slog.String("method", r.Method),
				slog.String("path", redactPath(r.URL.Path, r.URL.RawQuery)),
				slog.Int("status", status),
				slog.Int("bytes", rec.Bytes()),
				slog.Duration("duration", took),
			}
			if failure != nil {
				attrs = append(attrs, slog.String("err", failure.Error()))
			}
			logger.LogAttrs(r.Context(), level, "request", attrs...)
		}
		m.Request(pattern, r.Method, status, took, untimed)
	})
}
