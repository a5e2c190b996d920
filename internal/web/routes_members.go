package web

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"tribe/internal/billing"
	"tribe/internal/community"
	"tribe/internal/errs"
	"tribe/internal/events"
	"tribe/internal/httpx"
)

// registerMembers adds the members-area endpoints: profile, cohorts, live
// sessions, calendar feeds, tribe status and the dashboard overview.
// docs/api.md ("Members area") is their contract.
func (s *server) registerMembers(mux *http.ServeMux) error {
	s.route(mux, "GET /api/tribe/status", anyone, s.tribeStatus)
	s.route(mux, "GET /api/members/overview", member, s.membersOverview)

	s.route(mux, "GET /api/profile", member, s.getProfile)
	s.route(mux, "PUT /api/profile", member, s.putProfile)
	s.route(mux, "POST /api/profile/avatar", member, s.postAvatar)
	s.route(mux, "DELETE /api/profile/avatar", member, s.deleteAvatar)
	s.route(mux, "GET /avatars/{name}", anyone, s.serveAvatar)

	s.route(mux, "GET /api/cohorts", member, s.listCohorts)
	s.route(mux, "POST /api/cohorts", member, s.createCohort)
	s.route(mux, "PUT /api/cohorts/{id}", member, s.updateCohort)    // creator, decided in community
	s.route(mux, "DELETE /api/cohorts/{id}", member, s.deleteCohort) // creator, decided in community
	s.route(mux, "POST /api/cohorts/{id}/join", member, s.joinCohort)
	s.route(mux, "POST /api/cohorts/{id}/leave", member, s.leaveCohort)

	s.route(mux, "GET /api/sessions", member, s.listSessions)
	s.route(mux, "GET /api/sessions/{id}", member, s.getSession)
	s.route(mux, "GET /api/sessions/{id}/calendar.ics", member, s.sessionICS)
	s.route(mux, "POST /api/admin/sessions", admin, s.createSession)
	s.route(mux, "PUT /api/admin/sessions/{id}", admin, s.updateSession)
	s.route(mux, "PUT /api/admin/sessions/{id}/status", admin, s.setSessionStatus)
	s.route(mux, "DELETE /api/admin/sessions/{id}", admin, s.deleteSession)

	s.route(mux, "GET /api/calendar/feed", member, s.getFeed)
	s.route(mux, "POST /api/calendar/feed", member, s.createFeed)
	s.route(mux, "DELETE /api/calendar/feed", member, s.deleteFeed)
	s.route(mux, "GET /calendar/{file}", anyone, s.serveFeed) // the token is the credential
	return nil
}

func (s *server) tribeStatus(w http.ResponseWriter, r *http.Request) {
	st, err := s.billing.Status(r.Context())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, st)
}

// MembersOverview is the dashboard's summary of GET /api/members/overview.
type MembersOverview struct {
	Subscription *billing.Subscription `json:"subscription"`
	IsSubscriber bool                  `json:"is_subscriber"`
	IsAdmin      bool                  `json:"is_admin"`
	Tribe        billing.TribeStatus   `json:"tribe"`
	// GroupChatURL is the invitation, only for those who may see paid content.
	GroupChatURL *string `json:"group_chat_url"`
}

func (s *server) membersOverview(w http.ResponseWriter, r *http.Request) {
	v, err := s.viewer(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sub, err := billing.SubscriptionOf(r.Context(), s.DB, v.UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	st, err := s.billing.Status(r.Context())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := MembersOverview{Subscription: sub, IsSubscriber: sub.Active(), IsAdmin: v.Admin, Tribe: st}
	if v.SeesPaidContent() && s.Config.GroupChatURL != "" {
		out.GroupChatURL = &s.Config.GroupChatURL
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

// --- profile

type profileBody struct {
	Profile *community.Profile `json:"profile"`
}

func (s *server) getProfile(w http.ResponseWriter, r *http.Request) {
	prof, err := community.GetProfile(r.Context(), s.DB, caller(r).UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, profileBody{prof})
}

func (s *server) putProfile(w http.ResponseWriter, r *http.Request) {
	var in community.ProfileUpdate
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	p := caller(r)
	prof, err := community.UpdateProfile(r.Context(), s.DB, p.UserID, in)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	s.profileChanged(r, p.UserID)
	httpx.WriteJSON(w, http.StatusOK, profileBody{prof})
}

// profileChanged tells cohort cards (names, avatars) and the user's own tabs.
func (s *server) profileChanged(r *http.Request, userID string) {
	s.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	s.publish(r.Context(), events.Event{Topic: events.TopicProfile, UserID: userID})
}

var (
	errNoAvatarFile = errs.Field("avatar", "Choose an image file to upload.")
	errUploadCut    = errs.New(errs.Invalid, "The upload could not be read. Please try again.")
)

func (s *server) postAvatar(w http.ResponseWriter, r *http.Request) {
	if ok, wait := s.avatars.AllowUpload(caller(r).UserID); !ok {
		tooMany(w, r, wait, community.AvatarUploadsMessage)
		return
	}
	// Room for the multipart framing around a file at the limit.
	r.Body = http.MaxBytesReader(w, r.Body, community.MaxAvatarBytes+64<<10)
	mr, err := r.MultipartReader()
	if err != nil {
		httpx.WriteError(w, r, errNoAvatarFile)
		return
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			httpx.WriteError(w, r, errNoAvatarFile)
			return
		}
		if err != nil {
			httpx.WriteError(w, r, uploadError(err))
			return
		}
		if part.FormName() != "avatar" {
			_ = part.Close()
			continue
		}
		p := caller(r)
		body := &uploadReader{r: part}
		prof, err := s.avatars.Set(r.Context(), s.DB, p.UserID, body)
		_ = part.Close()
		if body.err != nil {
			// The upload itself failed (cut off, too large): say so, not
			// that the image is bad.
			err = uploadError(body.err)
		}
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		s.profileChanged(r, p.UserID)
		httpx.WriteJSON(w, http.StatusOK, profileBody{prof})
		return
	}
}

// uploadReader remembers the first read error of an upload other than its end.
type uploadReader struct {
	r   io.Reader
	err error
}

func (u *uploadReader) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) && u.err == nil {
		u.err = err
	}
	return n, err
}

// uploadError explains why an upload could not be read.
func uploadError(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return community.ErrAvatarTooLarge
	}
	return errUploadCut
}

func (s *server) deleteAvatar(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	prof, err := s.avatars.Remove(r.Context(), s.DB, p.UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	s.profileChanged(r, p.UserID)
	httpx.WriteJSON(w, http.StatusOK, profileBody{prof})
}

var errNoAvatar = errs.New(errs.NotFound, "No such avatar.")

func (s *server) serveAvatar(w http.ResponseWriter, r *http.Request) {
	f, st, contentType, err := community.OpenAvatar(s.avatars.Dir(), r.PathValue("name"))
	if err != nil {
		httpx.WriteError(w, r, errNoAvatar)
		return
	}
	defer func() { _ = f.Close() }()
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	// A new upload gets a new random name, so a name's bytes never change.
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, "", st.ModTime(), f)
}

// --- cohorts

type cohortBody struct {
	Cohort *community.Cohort `json:"cohort"`
}

// CohortList is the answer of GET /api/cohorts.
type CohortList struct {
	Cohorts    []community.Cohort `json:"cohorts"`
	MyCohortID *string            `json:"my_cohort_id"`
}

func (s *server) listCohorts(w http.ResponseWriter, r *http.Request) {
	cohorts, mine, err := community.ListCohorts(r.Context(), s.DB, caller(r).UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := CohortList{Cohorts: cohorts}
	if mine != "" {
		out.MyCohortID = &mine
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

func (s *server) createCohort(w http.ResponseWriter, r *http.Request) {
	var in community.CohortInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	c, err := community.CreateCohort(r.Context(), s.DB, caller(r).UserID, in)
	s.cohortChanged(w, r, http.StatusCreated, c, err)
}

func (s *server) updateCohort(w http.ResponseWriter, r *http.Request) {
	var in community.CohortInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	c, err := community.UpdateCohort(r.Context(), s.DB, caller(r).UserID, r.PathValue("id"), in)
	s.cohortChanged(w, r, http.StatusOK, c, err)
}

func (s *server) deleteCohort(w http.ResponseWriter, r *http.Request) {
	err := community.DeleteCohort(r.Context(), s.DB, caller(r).UserID, r.PathValue("id"))
	s.cohortChanged(w, r, http.StatusNoContent, nil, err)
}

func (s *server) joinCohort(w http.ResponseWriter, r *http.Request) {
	c, err := community.JoinCohort(r.Context(), s.DB, caller(r).UserID, r.PathValue("id"))
	s.cohortChanged(w, r, http.StatusOK, c, err)
}

func (s *server) leaveCohort(w http.ResponseWriter, r *http.Request) {
	err := community.LeaveCohort(r.Context(), s.DB, caller(r).UserID, r.PathValue("id"))
	s.cohortChanged(w, r, http.StatusNoContent, nil, err)
}

// cohortChanged answers a cohort change: the error, or the cohort (nothing
// for 204) after telling every open members page.
func (s *server) cohortChanged(w http.ResponseWriter, r *http.Request, status int, c *community.Cohort, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return
	}
	httpx.WriteJSON(w, status, cohortBody{c})
}

// --- live sessions

// SessionList is the answer of GET /api/sessions.
type SessionList struct {
	Sessions []community.SessionView `json:"sessions"`
	CanJoin  bool                    `json:"can_join"`
}

type sessionReply struct {
	Session community.SessionView `json:"session"`
}

func (s *server) listSessions(w http.ResponseWriter, r *http.Request) {
	v, err := s.viewer(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	list, err := community.ListSessions(r.Context(), s.DB, v, time.Now())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, SessionList{Sessions: list, CanJoin: v.SeesPaidContent()})
}

func (s *server) getSession(w http.ResponseWriter, r *http.Request) {
	v, err := s.viewer(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sess, err := community.GetSession(r.Context(), s.DB, v, r.PathValue("id"), time.Now())
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, sessionReply{sess})
}

func (s *server) sessionICS(w http.ResponseWriter, r *http.Request) {
	v, err := s.viewer(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	name, body, err := community.SessionCalendar(r.Context(), s.DB, v, r.PathValue("id"), s.Config.BaseURL)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.ics"`, name))
	writeCalendar(w, body)
}

func writeCalendar(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Cache-Control", "private, no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func (s *server) createSession(w http.ResponseWriter, r *http.Request) {
	var in community.SessionInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sess, err := community.CreateSession(r.Context(), s.DB, caller(r).UserID, in)
	s.sessionChanged(w, r, http.StatusCreated, sess, err)
}

func (s *server) updateSession(w http.ResponseWriter, r *http.Request) {
	var in community.SessionInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sess, err := community.UpdateSession(r.Context(), s.DB, r.PathValue("id"), in)
	s.sessionChanged(w, r, http.StatusOK, sess, err)
}

func (s *server) setSessionStatus(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Status string `json:"status"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	sess, err := community.SetSessionStatus(r.Context(), s.DB, r.PathValue("id"), in.Status)
	s.sessionChanged(w, r, http.StatusOK, sess, err)
}

func (s *server) deleteSession(w http.ResponseWriter, r *http.Request) {
	err := community.DeleteSession(r.Context(), s.DB, r.PathValue("id"))
	s.sessionChanged(w, r, http.StatusNoContent, nil, err)
}

// sessionChanged answers an admin's session change: the error, or the
// session as the admin sees it (nothing for 204) after telling open pages.
func (s *server) sessionChanged(w http.ResponseWriter, r *http.Request, status int, sess *community.Session, err error) {
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	s.publish(r.Context(), events.Event{Topic: events.TopicSessions})
	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return
	}
	v, err := s.viewer(r)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, status, sessionReply{sess.View(v, time.Now())})
}

// --- calendar feed

// FeedStatus is the answer of GET /api/calendar/feed.
type FeedStatus struct {
	Exists    bool       `json:"exists"`
	CreatedAt *time.Time `json:"created_at"`
}

// FeedCreated is the answer of POST /api/calendar/feed: the secret URL, shown once.
type FeedCreated struct {
	URL       string    `json:"url"`
	CreatedAt time.Time `json:"created_at"`
}

func (s *server) getFeed(w http.ResponseWriter, r *http.Request) {
	feed, err := community.GetFeed(r.Context(), s.DB, caller(r).UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if feed == nil {
		httpx.WriteJSON(w, http.StatusOK, FeedStatus{})
		return
	}
	httpx.WriteJSON(w, http.StatusOK, FeedStatus{Exists: true, CreatedAt: &feed.CreatedAt})
}

func (s *server) createFeed(w http.ResponseWriter, r *http.Request) {
	token, created, err := community.CreateFeed(r.Context(), s.DB, caller(r).UserID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusCreated, FeedCreated{URL: s.Config.BaseURL + "/calendar/" + token + ".ics", CreatedAt: created})
}

func (s *server) deleteFeed(w http.ResponseWriter, r *http.Request) {
	if err := community.DeleteFeed(r.Context(), s.DB, caller(r).UserID); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

var errNoCalendar = errs.New(errs.NotFound, "Calendar not found.")

func (s *server) serveFeed(w http.ResponseWriter, r *http.Request) {
	token, ok := strings.CutSuffix(r.PathValue("file"), ".ics")
	if !ok {
		httpx.WriteError(w, r, errNoCalendar)
		return
	}
	ownerID, err := community.LookupFeed(r.Context(), s.DB, token)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	// The owner is not signed in when their calendar app fetches the feed,
	// so their rights are read now, for this fetch.
	owner, err := s.authService().User(r.Context(), ownerID)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if owner == nil {
		httpx.WriteError(w, r, errNoCalendar)
		return
	}
	v, err := billing.ViewerOf(r.Context(), s.DB, owner.ID, owner.IsAdmin)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	body, err := community.FeedCalendar(r.Context(), s.DB, v, s.Config.BaseURL)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	// The URL is a secret: keep it out of referrers and search indexes.
	w.Header().Set("X-Robots-Tag", "noindex")
	writeCalendar(w, body)
}
