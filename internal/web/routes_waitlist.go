package web

import (
	"log/slog"
	"net/http"
	"time"

	"tribe/internal/auth"
	"tribe/internal/config"
	"tribe/internal/csvx"
	"tribe/internal/httpx"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
	"tribe/internal/waitlist"
)

// waitlistAPI serves the tribe's wait list: joining it, and the admins' list
// and export. Its limits live in this process.
type waitlistAPI struct {
	db       *store.DB
	cfg      *config.Config
	logger   *slog.Logger
	perIP    *ratelimit.Limiter
	perEmail *ratelimit.Limiter
}

func newWaitlistAPI(cfg *config.Config, db *store.DB, logger *slog.Logger, share shareLimit) *waitlistAPI {
	return &waitlistAPI{db: db, cfg: cfg, logger: logger,
		perIP: ratelimit.New(20, 30*time.Second, share("waitlist-ip")), perEmail: ratelimit.New(5, 10*time.Minute, share("waitlist-email"))}
}

func (a *waitlistAPI) register(g *registrar) error {
	g.route("POST /api/waitlist", anyone, a.join)
	g.route("GET /api/admin/waitlist", admin, a.list)
	g.route("GET /api/admin/waitlist.csv", admin, a.export)
	return nil
}

func (a *waitlistAPI) join(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		FullName string `json:"full_name"`
		Email    string `json:"email"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	if err := limited(limitCheck{a.perIP, clientKey(r, a.cfg.TrustedProxies)}, limitCheck{a.perEmail, auth.NormalizeEmail(in.Email)}); err != nil {
		return err
	}
	added, err := waitlist.Join(r.Context(), a.db, in.FullName, in.Email, a.cfg.BaseURL)
	if err != nil {
		return err
	}
	if !added {
		httpx.WriteJSON(w, http.StatusOK, WaitlistJoined{"already", "You're already on the wait list. We'll e-mail you as soon as spots open up."})
		return nil
	}
	httpx.WriteJSON(w, http.StatusCreated, WaitlistJoined{"added", "You're on the list! We've sent you a confirmation e-mail and will notify you when spots open up."})
	return nil
}

func (a *waitlistAPI) list(w http.ResponseWriter, r *http.Request) error {
	entries, err := waitlist.List(r.Context(), a.db)
	if err != nil {
		return err
	}

	out := make([]WaitlistEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, WaitlistEntry{e.ID, e.FullName, e.Email, jsonTime(e.CreatedAt)})
	}
	httpx.WriteJSON(w, http.StatusOK, WaitlistEntries{Entries: out})
	return nil
}

func (a *waitlistAPI) export(w http.ResponseWriter, r *http.Request) error {
	entries, err := waitlist.List(r.Context(), a.db)
	if err != nil {
		return err
	}
	// The answer has begun: a failure now can only be logged.
	if err := waitlist.WriteCSV(csvx.Respond(w, "waitlist-"+store.Now().Format(time.DateOnly)+".csv"), entries); err != nil {
		a.logger.Error("export wait list", "err", err)
	}
	return nil
}
