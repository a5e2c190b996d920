package web

import (
	"log/slog"
	"mime"
	"net/http"
	"strings"

	"tribe/internal/clock"
	"tribe/internal/community"
	"tribe/internal/csvx"
	"tribe/internal/events"
	"tribe/internal/httpx"
	"tribe/internal/levels"
	"tribe/internal/store"
)

// showupAPI serves what brings members to the live sessions and counts
// that they came: RSVPs, the join redirect that records attendance, the
// admins' attendance sheet, awards, and each member's progress through the
// levels. internal/community decides RSVPs and attendance, internal/levels
// the levels and awards; docs/api.md ("Show-up") is the contract.
type showupAPI struct {
	db     *store.DB
	levels *levels.Service
	now    clock.Clock
	pub    publisher
	logger *slog.Logger
}

func (a *showupAPI) register(g *registrar) error {
	g.route("PUT /api/sessions/{id}/rsvp", member, a.rsvp) // subscribers and admins, decided in community
	g.route("GET /api/sessions/{id}/join", member, a.join) // subscribers and admins, decided in community
	g.route("GET /api/admin/sessions/{id}/attendance", admin, a.attendance)
	g.route("PUT /api/admin/sessions/{id}/attendance", admin, a.correctAttendance)

	g.route("GET /api/members/me/progress", member, a.progress)
	g.route("PUT /api/members/me/progress/seen", member, a.progressSeen)
	g.route("GET /api/members/me/awards", member, a.myAwards)
	g.route("POST /api/members/me/awards", member, a.suggestAward) // subscribers and admins, decided in levels

	g.route("GET /api/admin/awards", admin, a.listAwards)
	g.route("POST /api/admin/awards", admin, a.giveAward)
	g.route("POST /api/admin/awards/{id}/accept", admin, a.acceptAward)
	g.route("DELETE /api/admin/awards/{id}", admin, a.removeAward)
	return nil
}

// --- RSVP and joining

func (a *showupAPI) rsvp(w http.ResponseWriter, r *http.Request) error {
	var in community.RSVPInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	now := a.now()
	id := r.PathValue("id")
	if err := community.SetRSVP(r.Context(), a.db, v, id, in, now); err != nil {
		return err
	}
	// Every open tab shows the count going.
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicSessions})
	sess, err := community.GetSession(r.Context(), a.db, v, id, now)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, SessionReply{sess})
	return nil
}

func (a *showupAPI) join(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	joined, err := community.Join(r.Context(), a.db, v, r.PathValue("id"), a.now())
	if err != nil {
		return err
	}
	if joined.Recorded {
		a.pub.publish(r.Context(), events.Event{Topic: events.TopicProgress, UserID: v.UserID})
	}
	// The link is a member's secret: no cache keeps the redirect.
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, joined.MeetingURL, http.StatusSeeOther)
	return nil
}

// --- attendance (admins)

// wantsCSV reports whether the request asks for the CSV form: ?format=csv,
// or an Accept header that names text/csv.
func wantsCSV(r *http.Request) bool {
	if r.URL.Query().Get("format") == "csv" {
		return true
	}
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		if mt, _, err := mime.ParseMediaType(strings.TrimSpace(part)); err == nil && mt == "text/csv" {
			return true
		}
	}
	return false
}

func (a *showupAPI) attendance(w http.ResponseWriter, r *http.Request) error {
	sheet, err := community.Attendance(r.Context(), a.db, r.PathValue("id"), a.now())
	if err != nil {
		return err
	}
	if !wantsCSV(r) {
		httpx.WriteJSON(w, http.StatusOK, sheet)
		return nil
	}
	// The answer has begun: a failure now can only be logged.
	if err := sheet.WriteCSV(csvx.Respond(w, sheet.FileName()+".csv")); err != nil {
		a.logger.Error("export attendance", "session", sheet.SessionID, "err", err)
	}
	return nil
}

func (a *showupAPI) correctAttendance(w http.ResponseWriter, r *http.Request) error {
	var in community.AttendanceInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	sheet, err := community.CorrectAttendance(r.Context(), a.db, caller(r).UserID, r.PathValue("id"), in, a.now())
	if err != nil {
		return err
	}
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicProgress, UserID: strings.TrimSpace(in.UserID)})
	httpx.WriteJSON(w, http.StatusOK, sheet)
	return nil
}

// --- progress and awards

func (a *showupAPI) progress(w http.ResponseWriter, r *http.Request) error {
	p, err := a.levels.ProgressOf(r.Context(), caller(r).UserID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, p)
	return nil
}

func (a *showupAPI) progressSeen(w http.ResponseWriter, r *http.Request) error {
	var in levels.SeenInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	if err := a.levels.MarkSeen(r.Context(), caller(r).UserID, in); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *showupAPI) myAwards(w http.ResponseWriter, r *http.Request) error {
	list, err := a.levels.Mine(r.Context(), caller(r).UserID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, AwardList{list})
	return nil
}

func (a *showupAPI) suggestAward(w http.ResponseWriter, r *http.Request) error {
	var in levels.SuggestionInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	award, err := a.levels.Suggest(r.Context(), v, in)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, AwardReply{award})
	return nil
}

func (a *showupAPI) listAwards(w http.ResponseWriter, r *http.Request) error {
	list, err := a.levels.List(r.Context())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, AwardList{list})
	return nil
}

func (a *showupAPI) giveAward(w http.ResponseWriter, r *http.Request) error {
	var in levels.AwardInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	award, err := a.levels.Give(r.Context(), caller(r).UserID, in)
	if err != nil {
		return err
	}
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicProgress, UserID: award.UserID})
	httpx.WriteJSON(w, http.StatusCreated, AwardReply{award})
	return nil
}

func (a *showupAPI) acceptAward(w http.ResponseWriter, r *http.Request) error {
	award, err := a.levels.Accept(r.Context(), caller(r).UserID, r.PathValue("id"))
	if err != nil {
		return err
	}
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicProgress, UserID: award.UserID})
	httpx.WriteJSON(w, http.StatusOK, AwardReply{award})
	return nil
}

func (a *showupAPI) removeAward(w http.ResponseWriter, r *http.Request) error {
	userID, err := a.levels.Remove(r.Context(), r.PathValue("id"))
	if err != nil {
		return err
	}
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicProgress, UserID: userID})
	w.WriteHeader(http.StatusNoContent)
	return nil
}
