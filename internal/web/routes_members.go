package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"tribe/internal/access"
	"tribe/internal/auth"
	"tribe/internal/billing"
	"tribe/internal/clock"
	"tribe/internal/community"
	"tribe/internal/config"
	"tribe/internal/errs"
	"tribe/internal/events"
	"tribe/internal/httpx"
	"tribe/internal/library"
	"tribe/internal/notify"
	"tribe/internal/storage"
	"tribe/internal/store"
)

// membersAPI serves the members area: profile, cohorts, live sessions,
// calendar feeds, tribe status and the dashboard overview. docs/api.md
// ("Members area") is its contract; internal/community and
// internal/billing decide everything.
type membersAPI struct {
	db      *store.DB
	cfg     *config.Config
	billing *billing.Service   // the tribe's status
	auth    *auth.Service      // a calendar feed owner's rights
	avatars *community.Avatars // uploads and the avatar files
	now     clock.Clock        // whether a session is upcoming
	pub     publisher
	notify  *notify.Service  // a moved or cancelled session's reminders
	library *library.Service // the replays past sessions link to
}

func (a *membersAPI) register(g *registrar) error {
	g.route("GET /api/tribe/status", anyone, a.tribeStatus)
	g.route("GET /api/members/overview", member, a.membersOverview)

	g.route("GET /api/profile", member, a.getProfile)
	g.route("PUT /api/profile", member, a.putProfile)
	g.route("POST /api/profile/avatar", member, a.postAvatar)
	g.route("DELETE /api/profile/avatar", member, a.deleteAvatar)
	g.route("GET /avatars/{name}", anyone, a.serveAvatar)

	g.route("GET /api/cohorts", member, a.listCohorts)
	g.route("POST /api/cohorts", member, a.createCohort)
	g.route("PUT /api/cohorts/{id}", member, a.updateCohort)    // creator, decided in community
	g.route("DELETE /api/cohorts/{id}", member, a.deleteCohort) // creator, decided in community
	g.route("POST /api/cohorts/{id}/join", member, a.joinCohort)
	g.route("POST /api/cohorts/{id}/leave", member, a.leaveCohort)

	g.route("GET /api/sessions", member, a.listSessions)
	g.route("GET /api/sessions/{id}", member, a.getSession)
	g.route("GET /api/sessions/{id}/calendar.ics", member, a.sessionICS)
	g.route("POST /api/admin/sessions", admin, a.createSession)
	g.route("PUT /api/admin/sessions/{id}", admin, a.updateSession)
	g.route("PUT /api/admin/sessions/{id}/status", admin, a.setSessionStatus)
	g.route("DELETE /api/admin/sessions/{id}", admin, a.deleteSession)

	g.route("GET /api/calendar/feed", member, a.getFeed)
	g.route("POST /api/calendar/feed", member, a.createFeed)
	g.route("DELETE /api/calendar/feed", member, a.deleteFeed)
	g.route("GET /calendar/{file}", anyone, a.serveFeed) // the token is the credential
	return nil
}

func (a *membersAPI) tribeStatus(w http.ResponseWriter, r *http.Request) error {
	st, err := a.billing.Status(r.Context())
	if err != nil {
		return err
	}
	st.Plans = a.billing.Plans(r.Context())
	httpx.WriteJSON(w, http.StatusOK, st)
	return nil
}

func (a *membersAPI) membersOverview(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	sub, err := billing.SubscriptionOf(r.Context(), a.db, v.UserID)
	if err != nil {
		return err
	}
	st, err := a.billing.Status(r.Context())
	if err != nil {
		return err
	}
	out := MembersOverview{Subscription: sub, IsSubscriber: sub.Active(), IsAdmin: v.Admin, Tribe: st}
	if v.SeesPaidContent() && a.cfg.GroupChatURL != "" {
		out.GroupChatURL = &a.cfg.GroupChatURL
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

// --- profile

func (a *membersAPI) getProfile(w http.ResponseWriter, r *http.Request) error {
	prof, err := community.GetProfile(r.Context(), a.db, caller(r).UserID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, ProfileBody{prof})
	return nil
}

func (a *membersAPI) putProfile(w http.ResponseWriter, r *http.Request) error {
	var in community.ProfileUpdate
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	p := caller(r)
	prof, err := community.UpdateProfile(r.Context(), a.db, p.UserID, in)
	if err != nil {
		return err
	}
	a.profileChanged(r, p.UserID)
	httpx.WriteJSON(w, http.StatusOK, ProfileBody{prof})
	return nil
}

// profileChanged tells cohort cards (names, avatars) and the user's own tabs.
func (a *membersAPI) profileChanged(r *http.Request, userID string) {
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicProfile, UserID: userID})
}

var (
	errNoAvatarFile = errs.Field("avatar", "Choose an image file to upload.")
	errUploadCut    = errs.New(errs.Invalid, "The upload could not be read. Please try again.")
)

func (a *membersAPI) postAvatar(w http.ResponseWriter, r *http.Request) error {
	p := caller(r)
	if ok, wait := a.avatars.AllowUpload(p.UserID); !ok {
		return tooMany(wait, community.AvatarUploadsMessage)
	}
	// Room for the multipart framing around a file at the limit.
	r.Body = http.MaxBytesReader(w, r.Body, community.MaxAvatarBytes+64<<10)
	mr, err := r.MultipartReader()
	if err != nil {
		return errNoAvatarFile
	}
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			return errNoAvatarFile
		}
		if err != nil {
			return uploadError(err)
		}
		if part.FormName() != "avatar" {
			_ = part.Close()
			continue
		}
		body := &uploadReader{r: part}
		prof, err := a.avatars.Set(r.Context(), a.db, p.UserID, body)
		_ = part.Close()
		if body.err != nil {
			// The upload itself failed (cut off, too large): say so, not
			// that the image is bad.
			err = uploadError(body.err)
		}
		if err != nil {
			return err
		}
		a.profileChanged(r, p.UserID)
		httpx.WriteJSON(w, http.StatusOK, ProfileBody{prof})
		return nil
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

func (a *membersAPI) deleteAvatar(w http.ResponseWriter, r *http.Request) error {
	p := caller(r)
	prof, err := a.avatars.Remove(r.Context(), a.db, p.UserID)
	if err != nil {
		return err
	}
	a.profileChanged(r, p.UserID)
	httpx.WriteJSON(w, http.StatusOK, ProfileBody{prof})
	return nil
}

var errNoAvatar = errs.New(errs.NotFound, "No such avatar.")

func (a *membersAPI) serveAvatar(w http.ResponseWriter, r *http.Request) error {
	f, info, contentType, err := a.avatars.Open(r.Context(), r.PathValue("name"))
	if errors.Is(err, storage.ErrNotFound) || errs.Is(err, errs.NotFound) {
		return errNoAvatar
	}
	if err != nil {
		return err // the store is unreachable: a 500, logged, not a 404 cached as one
	}
	defer func() { _ = f.Close() }()
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("X-Content-Type-Options", "nosniff")
	// A new upload gets a new random name, so a name's bytes never change.
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	http.ServeContent(w, r, "", info.ModTime, f)
	return nil
}

// --- cohorts

func (a *membersAPI) listCohorts(w http.ResponseWriter, r *http.Request) error {
	cohorts, mine, err := community.ListCohorts(r.Context(), a.db, caller(r).UserID)
	if err != nil {
		return err
	}
	out := CohortList{Cohorts: cohorts}
	if mine != "" {
		out.MyCohortID = &mine
	}
	httpx.WriteJSON(w, http.StatusOK, out)
	return nil
}

func (a *membersAPI) createCohort(w http.ResponseWriter, r *http.Request) error {
	var in community.CohortInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	c, err := community.CreateCohort(r.Context(), a.db, caller(r).UserID, in)
	return a.cohortChanged(w, r, http.StatusCreated, c, err)
}

func (a *membersAPI) updateCohort(w http.ResponseWriter, r *http.Request) error {
	var in community.CohortInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	c, err := community.UpdateCohort(r.Context(), a.db, caller(r).UserID, r.PathValue("id"), in)
	return a.cohortChanged(w, r, http.StatusOK, c, err)
}

func (a *membersAPI) deleteCohort(w http.ResponseWriter, r *http.Request) error {
	err := community.DeleteCohort(r.Context(), a.db, caller(r).UserID, r.PathValue("id"))
	return a.cohortChanged(w, r, http.StatusNoContent, nil, err)
}

func (a *membersAPI) joinCohort(w http.ResponseWriter, r *http.Request) error {
	c, err := community.JoinCohort(r.Context(), a.db, caller(r).UserID, r.PathValue("id"))
	return a.cohortChanged(w, r, http.StatusOK, c, err)
}

func (a *membersAPI) leaveCohort(w http.ResponseWriter, r *http.Request) error {
	err := community.LeaveCohort(r.Context(), a.db, caller(r).UserID, r.PathValue("id"))
	return a.cohortChanged(w, r, http.StatusNoContent, nil, err)
}

// cohortChanged answers a cohort change: the error, or the cohort (nothing
// for 204) after telling every open members page.
func (a *membersAPI) cohortChanged(w http.ResponseWriter, r *http.Request, status int, c *community.Cohort, err error) error {
	if err != nil {
		return err
	}
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicCohorts})
	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return nil
	}
	httpx.WriteJSON(w, status, CohortBody{c})
	return nil
}

// --- live sessions

func (a *membersAPI) listSessions(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	list, err := community.ListSessions(r.Context(), a.db, v, a.now())
	if err != nil {
		return err
	}
	if err := a.withReplays(r.Context(), v, list); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, SessionList{Sessions: list, CanJoin: v.SeesPaidContent()})
	return nil
}

func (a *membersAPI) getSession(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	sess, err := community.GetSession(r.Context(), a.db, v, r.PathValue("id"), a.now())
	if err != nil {
		return err
	}
	one := []community.SessionView{sess}
	if err := a.withReplays(r.Context(), v, one); err != nil {
		return err
	}
	sess = one[0]
	httpx.WriteJSON(w, http.StatusOK, SessionReply{sess})
	return nil
}

// withReplays links each session that is over to its published replay.
func (a *membersAPI) withReplays(ctx context.Context, v access.Viewer, list []community.SessionView) error {
	if a.library == nil {
		return nil
	}
	replays, err := a.library.Replays(ctx, v)
	if err != nil {
		return err
	}
	for i := range list {
		if !list[i].Upcoming {
			list[i].ReplayID = replays[list[i].ID]
		}
	}
	return nil
}

func (a *membersAPI) sessionICS(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	name, body, err := community.SessionCalendar(r.Context(), a.db, v, r.PathValue("id"), a.cfg.BaseURL)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="%s.ics"`, name))
	writeCalendar(w, body)
	return nil
}

func writeCalendar(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Cache-Control", "private, no-cache")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

func (a *membersAPI) createSession(w http.ResponseWriter, r *http.Request) error {
	var in community.SessionInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	sess, err := community.CreateSession(r.Context(), a.db, caller(r).UserID, in)
	return a.sessionChanged(w, r, http.StatusCreated, sess, err)
}

func (a *membersAPI) updateSession(w http.ResponseWriter, r *http.Request) error {
	var in community.SessionInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	sess, err := community.UpdateSession(r.Context(), a.db, r.PathValue("id"), in)
	return a.sessionChanged(w, r, http.StatusOK, sess, err)
}

func (a *membersAPI) setSessionStatus(w http.ResponseWriter, r *http.Request) error {
	var in struct {
		Status string `json:"status"`
	}
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	sess, err := community.SetSessionStatus(r.Context(), a.db, r.PathValue("id"), in.Status, a.now())
	return a.sessionChanged(w, r, http.StatusOK, sess, err)
}

func (a *membersAPI) deleteSession(w http.ResponseWriter, r *http.Request) error {
	err := community.DeleteSession(r.Context(), a.db, r.PathValue("id"))
	return a.sessionChanged(w, r, http.StatusNoContent, nil, err)
}

// sessionChanged answers an admin's session change: the error, or the
// session as the admin sees it (nothing for 204) after telling open pages.
func (a *membersAPI) sessionChanged(w http.ResponseWriter, r *http.Request, status int, sess *community.Session, err error) error {
	if err != nil {
		return err
	}
	if id := r.PathValue("id"); id != "" {
		// The change is made; reminders queued for what it was are dropped
		// and the next sweep plans what holds now. A failure leaves them to
		// go out as planned, which is logged rather than failing the change.
		if err := a.notify.SessionChanged(r.Context(), id); err != nil {
			a.pub.logger.Error("drop session reminders", "session", id, "err", err)
		}
	}
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicSessions})
	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return nil
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	view, err := community.GetSession(r.Context(), a.db, v, sess.ID, a.now())
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, status, SessionReply{view})
	return nil
}

// --- calendar feed

func (a *membersAPI) getFeed(w http.ResponseWriter, r *http.Request) error {
	feed, err := community.GetFeed(r.Context(), a.db, caller(r).UserID)
	if err != nil {
		return err
	}
	if feed == nil {
		httpx.WriteJSON(w, http.StatusOK, FeedStatus{})
		return nil
	}
	httpx.WriteJSON(w, http.StatusOK, FeedStatus{Exists: true, CreatedAt: &feed.CreatedAt})
	return nil
}

func (a *membersAPI) createFeed(w http.ResponseWriter, r *http.Request) error {
	token, created, err := community.CreateFeed(r.Context(), a.db, caller(r).UserID)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusCreated, FeedCreated{URL: a.cfg.BaseURL + "/calendar/" + token + ".ics", CreatedAt: created})
	return nil
}

func (a *membersAPI) deleteFeed(w http.ResponseWriter, r *http.Request) error {
	if err := community.DeleteFeed(r.Context(), a.db, caller(r).UserID); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

var errNoCalendar = errs.New(errs.NotFound, "Calendar not found.")

func (a *membersAPI) serveFeed(w http.ResponseWriter, r *http.Request) error {
	token, ok := strings.CutSuffix(r.PathValue("file"), ".ics")
	if !ok {
		return errNoCalendar
	}
	ownerID, err := community.LookupFeed(r.Context(), a.db, token)
	if err != nil {
		return err
	}
	// The owner is not signed in when their calendar app fetches the feed,
	// so their rights are read now, for this fetch.
	owner, err := a.auth.User(r.Context(), ownerID)
	if err != nil {
		return err
	}
	if owner == nil {
		return errNoCalendar
	}
	v, err := billing.ViewerOf(r.Context(), a.db, owner.ID, owner.IsAdmin)
	if err != nil {
		return err
	}
	body, err := community.FeedCalendar(r.Context(), a.db, v, a.cfg.BaseURL)
	if err != nil {
		return err
	}
	// The URL is a secret: keep it out of referrers and search indexes.
	w.Header().Set("X-Robots-Tag", "noindex")
	writeCalendar(w, body)
	return nil
}
