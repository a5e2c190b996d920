package web

import (
	"fmt"
	"net/http"
	"time"

	"tribe/internal/auth"
	"tribe/internal/httpx"
	"tribe/internal/ratelimit"
	"tribe/internal/store"
	"tribe/internal/waitlist"
)

// waitlistAPI serves the tribe's wait list: joining it, and the admins' list
// and export. Its limits live in this process.
type waitlistAPI struct {
	*server
	perIP    *ratelimit.Limiter
	perEmail *ratelimit.Limiter
}

// WaitlistJoined answers POST /api/waitlist.
type WaitlistJoined struct {
	Status  string `json:"status"` // "added" or "already"
	Message string `json:"message"`
}

// WaitlistEntry is one person on the wait list, as admins see them.
type WaitlistEntry struct {
	ID        string `json:"id"`
	FullName  string `json:"full_name"`
	Email     string `json:"email"`
	CreatedAt string `json:"created_at"`
}

// WaitlistEntries answers GET /api/admin/waitlist, newest first.
type WaitlistEntries struct {
	Entries []WaitlistEntry `json:"entries"`
}

// registerWaitlist adds the wait-list endpoints.
func (s *server) registerWaitlist(mux *http.ServeMux) error {
	a := &waitlistAPI{server: s, perIP: ratelimit.New(20, 30*time.Second), perEmail: ratelimit.New(5, 10*time.Minute)}
	s.route(mux, "POST /api/waitlist", anyone, a.join)
	s.route(mux, "GET /api/admin/waitlist", admin, a.list)
	s.route(mux, "GET /api/admin/waitlist.csv", admin, a.export)
	return nil
}

func (a *waitlistAPI) join(w http.ResponseWriter, r *http.Request) {
	var in struct {
		FullName string `json:"full_name"`
		Email    string `json:"email"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if limited(w, r, limitCheck{a.perIP, clientIP(r, a.Config.TrustedProxies)}, limitCheck{a.perEmail, auth.NormalizeEmail(in.Email)}) {
		return
	}
	added, err := waitlist.Join(r.Context(), a.DB, in.FullName, in.Email, a.Config.BaseURL)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if !added {
		httpx.WriteJSON(w, http.StatusOK, WaitlistJoined{"already", "You're already on the wait list. We'll e-mail you as soon as spots open up."})
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, WaitlistJoined{"added", "You're on the list! We've sent you a confirmation e-mail and will notify you when spots open up."})
}

func (a *waitlistAPI) list(w http.ResponseWriter, r *http.Request) {
	entries, err := waitlist.List(r.Context(), a.DB)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}

	out := make([]WaitlistEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, WaitlistEntry{e.ID, e.FullName, e.Email, jsonTime(e.CreatedAt)})
	}
	httpx.WriteJSON(w, http.StatusOK, WaitlistEntries{Entries: out})
}

func (a *waitlistAPI) export(w http.ResponseWriter, r *http.Request) {
	entries, err := waitlist.List(r.Context(), a.DB)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename="waitlist-%s.csv"`, store.Now().Format("2006-01-02")))
	h.Set("Cache-Control", "no-store")
	if err := waitlist.WriteCSV(w, entries); err != nil {
		a.Logger.Error("export wait list", "err", err)
	}
}
