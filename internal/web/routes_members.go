package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/community"
	"tribe/internal/events"
)

// registerMembers adds the members-area endpoints: profile, cohorts, live
// sessions, calendar feeds, tribe status and the dashboard overview.
// docs/api.md ("Members area") is their contract.
func (s *server) registerMembers(mux *http.ServeMux) error {
	mux.Handle("GET /api/tribe/status", allow(anyone, s.tribeStatus))
	mux.Handle("GET /api/members/overview", allow(member, s.membersOverview))

	mux.Handle("GET /api/profile", allow(member, s.getProfile))
	mux.Handle("PUT /api/profile", allow(member, s.putProfile))
	mux.Handle("POST /api/profile/avatar", allow(member, s.postAvatar))
	mux.Handle("DELETE /api/profile/avatar", allow(member, s.deleteAvatar))
	mux.Handle("GET /avatars/{name}", allow(anyone, s.serveAvatar))

	mux.Handle("GET /api/cohorts", allow(member, s.listCohorts))
	mux.Handle("POST /api/cohorts", allow(member, s.createCohort))
	mux.Handle("PUT /api/cohorts/{id}", allow(member, s.updateCohort))    // creator, decided in community
	mux.Handle("DELETE /api/cohorts/{id}", allow(member, s.deleteCohort)) // creator, decided in community
	mux.Handle("POST /api/cohorts/{id}/join", allow(member, s.joinCohort))
	mux.Handle("POST /api/cohorts/{id}/leave", allow(member, s.leaveCohort))

	mux.Handle("GET /api/sessions", allow(member, s.listSessions))
	mux.Handle("GET /api/sessions/{id}", allow(member, s.getSession))
	mux.Handle("GET /api/sessions/{id}/calendar.ics", allow(member, s.sessionICS))
	mux.Handle("POST /api/admin/sessions", allow(admin, s.createSession))
	mux.Handle("PUT /api/admin/sessions/{id}", allow(admin, s.updateSession))
	mux.Handle("PUT /api/admin/sessions/{id}/status", allow(admin, s.setSessionStatus))
	mux.Handle("DELETE /api/admin/sessions/{id}", allow(admin, s.deleteSession))

	mux.Handle("GET /api/calendar/feed", allow(member, s.getFeed))
	mux.Handle("POST /api/calendar/feed", allow(member, s.createFeed))
	mux.Handle("DELETE /api/calendar/feed", allow(member, s.deleteFeed))
	mux.Handle("GET /calendar/{file}", allow(anyone, s.serveFeed)) // the token is the credential
	return nil
}

// caller is the signed-in user; allow() has already refused anonymous calls.
func caller(r *http.Request) *auth.Principal {
	p, _ := auth.PrincipalFrom(r.Context())
	return p
}

// canJoin decides on the server whether the caller sees meeting details:
// admins and users whose subscription is active right now.
func (s *server) canJoin(r *http.Request, p *auth.Principal) (bool, error) {
	if p.Admin {
		return true, nil
	}
	return billing.IsSubscriber(r.Context(), s.DB, p.UserID)
}

// membersFail answers a domain error with its status; what names the
// missing thing for a 404 ("Cohort", "Session").
func (s *server) membersFail(w http.ResponseWriter, r *http.Request, what string, err error) {
	var (
		verr    *community.ValidationError
		tooBig  *http.MaxBytesError
		problem community.Problem
	)
	switch {
	case errors.As(err, &verr):
		writeError(w, http.StatusBadRequest, "invalid", verr.Message)
	case errors.Is(err, community.ErrNotFound):
		writeError(w, http.StatusNotFound, "not_found", what+" not found.")
	case errors.Is(err, community.ErrAvatarTooLarge), errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", community.ErrAvatarTooLarge.Error())
	case errors.As(err, &problem):
		status, code := http.StatusConflict, ""
		switch problem {
		case community.ErrNotCreator:
			status, code = http.StatusForbidden, "forbidden"
		case community.ErrAlreadyInCohort:
			code = "already_in_cohort"
		case community.ErrCohortFull:
			code = "cohort_full"
		case community.ErrNotMember:
			code = "not_member"
		case community.ErrNotImage:
			status, code = http.StatusBadRequest, "invalid_image"
		default:
			status, code = http.StatusBadRequest, "invalid"
		}
		writeError(w, status, code, problem.Error())
	default:
		s.Logger.Error("members area request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "Something went wrong on our side. Please try again.")
	}
}

// fieldMessages explain a JSON value of the wrong type, by field name.
var fieldMessages = map[string]string{
	"max_attendees": "Max attendees must be a whole number from 1 to 10000.",
	"tags":          "Tags must be a list of at most 20 words of up to 40 characters.",
}

// readJSONBody decodes a JSON request body of at most 64 KB into v and
// answers the error itself when it cannot.
func readJSONBody(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10))
	err := dec.Decode(v)
	if err == nil {
		return true
	}
	var typeErr *json.UnmarshalTypeError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &typeErr):
		msg := fieldMessages[typeErr.Field]
		if label := community.ProfileFieldLabel(typeErr.Field); label != "" {
			msg = label + " must be text."
		}
		if msg == "" {
			msg = strings.ReplaceAll(typeErr.Field, "_", " ") + " has the wrong type."
			msg = strings.ToUpper(msg[:1]) + msg[1:]
		}
		writeError(w, http.StatusBadRequest, "invalid", msg)
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "too_large", "The request body is too large.")
	default:
		writeError(w, http.StatusBadRequest, "bad_json", "The request body is not valid JSON.")
	}
	return false
}

func (s *server) tribeStatus(w http.ResponseWriter, r *http.Request) {
	st, err := billing.Status(r.Context(), s.DB, s.Config.Capacity)
	if err != nil {
		s.membersFail(w, r, "Tribe", err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func (s *server) membersOverview(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	sub, err := billing.SubscriptionOf(r.Context(), s.DB, p.UserID)
	if err != nil {
		s.membersFail(w, r, "Subscription", err)
		return
	}
	st, err := billing.Status(r.Context(), s.DB, s.Config.Capacity)
	if err != nil {
		s.membersFail(w, r, "Tribe", err)
		return
	}
	// The invitation is for paying members (and the admins who run the chat), so it is only
	// in the response for them; free members get null whether or not a link is configured.
	var chat *string
	if (sub.Active() || p.Admin) && s.Config.GroupChatURL != "" {
		chat = &s.Config.GroupChatURL
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"subscription":   sub,
		"is_subscriber":  sub.Active(),
		"is_admin":       p.Admin,
		"tribe":          st,
		"group_chat_url": chat,
	})
}

// --- profile

func (s *server) getProfile(w http.ResponseWriter, r *http.Request) {
	prof, err := community.GetProfile(r.Context(), s.DB, caller(r).UserID)
	if err != nil {
		s.membersFail(w, r, "Profile", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"profile": prof})
}

func (s *server) putProfile(w http.ResponseWriter, r *http.Request) {
	var body struct {
		FullName *string `json:"full_name"`
		Bio      *string `json:"bio"`
		Phone    *string `json:"phone"`
		Location *string `json:"location"`
		Company  *string `json:"company"`
		JobTitle *string `json:"job_title"`
	}
	if !readJSONBody(w, r, &body) {
		return
	}
	p := caller(r)
	prof, err := community.UpdateProfile(r.Context(), s.DB, p.UserID, community.ProfileUpdate(body))
	if err != nil {
		s.membersFail(w, r, "Profile", err)
		return
	}
	s.profileChanged(r, p.UserID)
	writeJSON(w, http.StatusOK, map[string]any{"profile": prof})
}

// profileChanged tells cohort cards (names, avatars) and the user's own tabs.
func (s *server) profileChanged(r *http.Request, userID string) {
	s.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	s.publish(r.Context(), events.Event{Topic: events.TopicProfile, UserID: userID})
}

func (s *server) postAvatar(w http.ResponseWriter, r *http.Request) {
	// Room for the multipart framing around a file at the limit.
	r.Body = http.MaxBytesReader(w, r.Body, community.MaxAvatarBytes+64<<10)
	mr, err := r.MultipartReader()
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid", "Choose an image file to upload.")
		return
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			writeError(w, http.StatusBadRequest, "invalid", "Choose an image file to upload.")
			return
		}
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				s.membersFail(w, r, "Profile", err)
				return
			}
			writeError(w, http.StatusBadRequest, "invalid", "The upload could not be read. Please try again.")
			return
		}
		if part.FormName() != "avatar" {
			_ = part.Close()
			continue
		}
		p := caller(r)
		prof, err := community.SetAvatar(r.Context(), s.DB, community.AvatarDir(s.Config.DataDir), p.UserID, part)
		_ = part.Close()
		if err != nil {
			s.membersFail(w, r, "Profile", err)
			return
		}
		s.profileChanged(r, p.UserID)
		writeJSON(w, http.StatusOK, map[string]any{"profile": prof})
		return
	}
}

func (s *server) deleteAvatar(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	prof, err := community.RemoveAvatar(r.Context(), s.DB, community.AvatarDir(s.Config.DataDir), p.UserID)
	if err != nil {
		s.membersFail(w, r, "Profile", err)
		return
	}
	s.profileChanged(r, p.UserID)
	writeJSON(w, http.StatusOK, map[string]any{"profile": prof})
}

func (s *server) serveAvatar(w http.ResponseWriter, r *http.Request) {
	path, contentType, ok := community.AvatarFile(community.AvatarDir(s.Config.DataDir), r.PathValue("name"))
	if !ok {
		writeError(w, http.StatusNotFound, "not_found", "No such avatar.")
		return
	}
	f, err := os.Open(path)
	if err != nil {
		writeError(w, http.StatusNotFound, "not_found", "No such avatar.")
		return
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		writeError(w, http.StatusNotFound, "not_found", "No such avatar.")
		return
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	// A new upload gets a new random name, so a name's bytes never change.
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, "", st.ModTime(), f)
}

// --- cohorts

type cohortBody struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Icon        string `json:"icon"`
	GitHubURL   string `json:"github_url"`
	HomepageURL string `json:"homepage_url"`
}

// readCohort reads a cohort body; a null URL means none.
func readCohort(w http.ResponseWriter, r *http.Request) (community.CohortInput, bool) {
	var b cohortBody
	if !readJSONBody(w, r, &b) {
		return community.CohortInput{}, false
	}
	return community.CohortInput(b), true
}

func (s *server) listCohorts(w http.ResponseWriter, r *http.Request) {
	cohorts, mine, err := community.ListCohorts(r.Context(), s.DB, caller(r).UserID)
	if err != nil {
		s.membersFail(w, r, "Cohort", err)
		return
	}
	var my *string
	if mine != "" {
		my = &mine
	}
	writeJSON(w, http.StatusOK, map[string]any{"cohorts": cohorts, "my_cohort_id": my})
}

func (s *server) createCohort(w http.ResponseWriter, r *http.Request) {
	in, ok := readCohort(w, r)
	if !ok {
		return
	}
	c, err := community.CreateCohort(r.Context(), s.DB, caller(r).UserID, in)
	if err != nil {
		s.membersFail(w, r, "Cohort", err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	writeJSON(w, http.StatusCreated, map[string]any{"cohort": c})
}

func (s *server) updateCohort(w http.ResponseWriter, r *http.Request) {
	in, ok := readCohort(w, r)
	if !ok {
		return
	}
	c, err := community.UpdateCohort(r.Context(), s.DB, caller(r).UserID, r.PathValue("id"), in)
	if err != nil {
		s.membersFail(w, r, "Cohort", err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	writeJSON(w, http.StatusOK, map[string]any{"cohort": c})
}

func (s *server) deleteCohort(w http.ResponseWriter, r *http.Request) {
	if err := community.DeleteCohort(r.Context(), s.DB, caller(r).UserID, r.PathValue("id")); err != nil {
		s.membersFail(w, r, "Cohort", err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	w.WriteHeader(http.StatusNoContent)
}

func (s *server) joinCohort(w http.ResponseWriter, r *http.Request) {
	c, err := community.JoinCohort(r.Context(), s.DB, caller(r).UserID, r.PathValue("id"))
	if err != nil {
		s.membersFail(w, r, "Cohort", err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	writeJSON(w, http.StatusOK, map[string]any{"cohort": c})
}

func (s *server) leaveCohort(w http.ResponseWriter, r *http.Request) {
	if err := community.LeaveCohort(r.Context(), s.DB, caller(r).UserID, r.PathValue("id")); err != nil {
		s.membersFail(w, r, "Cohort", err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	w.WriteHeader(http.StatusNoContent)
}

// --- live sessions

func (s *server) listSessions(w http.ResponseWriter, r *http.Request) {
	join, err := s.canJoin(r, caller(r))
	if err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	list, err := community.ListSessions(r.Context(), s.DB)
	if err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	now := time.Now()
	views := make([]community.SessionView, len(list))
	for i, sess := range list {
		views[i] = sess.View(join, now)
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": views, "can_join": join})
}

func (s *server) getSession(w http.ResponseWriter, r *http.Request) {
	join, err := s.canJoin(r, caller(r))
	if err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	sess, err := community.GetSession(r.Context(), s.DB, r.PathValue("id"))
	if err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"session": sess.View(join, time.Now())})
}

func (s *server) sessionICS(w http.ResponseWriter, r *http.Request) {
	join, err := s.canJoin(r, caller(r))
	if err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	sess, err := community.GetSession(r.Context(), s.DB, r.PathValue("id"))
	if err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	body := community.Calendar{BaseURL: s.Config.BaseURL, WithMeeting: join}.ICS([]*community.Session{sess})
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.ics"`, icsFileName(sess.Title)))
	writeCalendar(w, body)
}

// icsFileName keeps letters, digits and dashes of a title for a file name.
func icsFileName(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(title) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
		if b.Len() >= 60 {
			break
		}
	}
	name := strings.Trim(b.String(), "-")
	if name == "" {
		return "session"
	}
	return name
}

func writeCalendar(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Cache-Control", "private, no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func (s *server) createSession(w http.ResponseWriter, r *http.Request) {
	var in community.SessionInput
	if !readJSONBody(w, r, &in) {
		return
	}
	sess, err := community.CreateSession(r.Context(), s.DB, caller(r).UserID, in)
	if err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicSessions})
	writeJSON(w, http.StatusCreated, map[string]any{"session": sess.View(true, time.Now())})
}

func (s *server) updateSession(w http.ResponseWriter, r *http.Request) {
	var in community.SessionInput
	if !readJSONBody(w, r, &in) {
		return
	}
	sess, err := community.UpdateSession(r.Context(), s.DB, r.PathValue("id"), in)
	if err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicSessions})
	writeJSON(w, http.StatusOK, map[string]any{"session": sess.View(true, time.Now())})
}

func (s *server) setSessionStatus(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Status string `json:"status"`
	}
	if !readJSONBody(w, r, &body) {
		return
	}
	sess, err := community.SetSessionStatus(r.Context(), s.DB, r.PathValue("id"), body.Status)
	if err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicSessions})
	writeJSON(w, http.StatusOK, map[string]any{"session": sess.View(true, time.Now())})
}

func (s *server) deleteSession(w http.ResponseWriter, r *http.Request) {
	if err := community.DeleteSession(r.Context(), s.DB, r.PathValue("id")); err != nil {
		s.membersFail(w, r, "Session", err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicSessions})
	w.WriteHeader(http.StatusNoContent)
}

// --- calendar feed

func (s *server) getFeed(w http.ResponseWriter, r *http.Request) {
	feed, err := community.GetFeed(r.Context(), s.DB, caller(r).UserID)
	if err != nil {
		s.membersFail(w, r, "Calendar feed", err)
		return
	}
	if feed == nil {
		writeJSON(w, http.StatusOK, map[string]any{"exists": false, "created_at": nil})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"exists": true, "created_at": feed.CreatedAt})
}

func (s *server) createFeed(w http.ResponseWriter, r *http.Request) {
	token, created, err := community.CreateFeed(r.Context(), s.DB, caller(r).UserID)
	if err != nil {
		s.membersFail(w, r, "Calendar feed", err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{
		"url":        s.Config.BaseURL + "/calendar/" + token + ".ics",
		"created_at": created,
	})
}

func (s *server) deleteFeed(w http.ResponseWriter, r *http.Request) {
	if err := community.DeleteFeed(r.Context(), s.DB, caller(r).UserID); err != nil {
		s.membersFail(w, r, "Calendar feed", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *server) serveFeed(w http.ResponseWriter, r *http.Request) {
	token, ok := strings.CutSuffix(r.PathValue("file"), ".ics")
	if !ok {
		writeError(w, http.StatusNotFound, "not_found", "No such calendar.")
		return
	}
	ownerID, err := community.LookupFeed(r.Context(), s.DB, token)
	if err != nil {
		s.membersFail(w, r, "Calendar", err)
		return
	}
	// The owner is not signed in when their calendar app fetches the feed,
	// so admin rights and the subscription are read now, for this fetch.
	owner, err := s.authService().User(r.Context(), ownerID)
	if err != nil {
		s.membersFail(w, r, "Calendar", err)
		return
	}
	if owner == nil {
		writeError(w, http.StatusNotFound, "not_found", "Calendar not found.")
		return
	}
	join := owner.IsAdmin
	if !join {
		if join, err = billing.IsSubscriber(r.Context(), s.DB, ownerID); err != nil {
			s.membersFail(w, r, "Calendar", err)
			return
		}
	}
	list, err := community.FeedSessions(r.Context(), s.DB)
	if err != nil {
		s.membersFail(w, r, "Calendar", err)
		return
	}
	// The URL is a secret: keep it out of referrers and search indexes.
	w.Header().Set("X-Robots-Tag", "noindex")
	writeCalendar(w, community.Calendar{Name: "Tribe live sessions", BaseURL: s.Config.BaseURL, WithMeeting: join}.ICS(list))
}
