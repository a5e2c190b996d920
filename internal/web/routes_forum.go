package web

import (
	"net/http"

	"tribe/internal/access"
	"tribe/internal/events"
	"tribe/internal/forum"
	"tribe/internal/httpx"
	"tribe/internal/store"
)

// forumAPI serves the community's threads (docs/api.md, "Community").
// internal/forum decides who may read, write, react, accept and moderate,
// and whom each change is told to; these handlers read the request (through
// withViewer), call it, and tell open tabs to refetch.
type forumAPI struct {
	db    *store.DB
	forum *forum.Service
	pub   publisher
}

func (a *forumAPI) register(g *registrar) error {
	db := a.db
	g.route("GET /api/community/threads", member, withViewer(db, a.list)) // free members: announcements, decided in forum
	g.route("POST /api/community/threads", member, withViewer(db, a.create))
	g.route("GET /api/community/threads/{id}", member, withViewer(db, a.get))
	g.route("PATCH /api/community/threads/{id}", member, withViewer(db, a.update))  // the author, decided in forum
	g.route("DELETE /api/community/threads/{id}", member, withViewer(db, a.remove)) // the author or an admin
	g.route("POST /api/community/threads/{id}/replies", member, withViewer(db, a.reply))
	g.route("PATCH /api/community/replies/{id}", member, withViewer(db, a.updateReply))
	g.route("DELETE /api/community/replies/{id}", member, withViewer(db, a.removeReply))
	g.route("PUT /api/community/threads/{id}/reaction", member, withViewer(db, a.reactThread(true)))
	g.route("DELETE /api/community/threads/{id}/reaction", member, withViewer(db, a.reactThread(false)))
	g.route("PUT /api/community/replies/{id}/reaction", member, withViewer(db, a.reactReply(true)))
	g.route("DELETE /api/community/replies/{id}/reaction", member, withViewer(db, a.reactReply(false)))
	g.route("PUT /api/community/threads/{id}/accepted", member, withViewer(db, a.accept)) // the asker or an admin
	g.route("PUT /api/community/threads/{id}/mute", member, withViewer(db, a.mute))
	g.route("POST /api/community/reports", member, withViewer(db, a.report))
	g.route("GET /api/admin/community/reports", admin, withViewer(db, a.reports))
	g.route("POST /api/admin/community/reports/{id}/resolve", admin, withViewer(db, a.resolve))
	g.route("PUT /api/admin/community/threads/{id}", admin, withViewer(db, a.moderateThread))
	g.route("PUT /api/admin/community/replies/{id}", admin, withViewer(db, a.moderateReply))
	return nil
}

// changed tells every open tab that the community changed.
func (a *forumAPI) changed(r *http.Request) {
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicCommunity})
}

// thread answers one thread with status (after a change, open tabs are
// told), or the error of the call that read it.
func (a *forumAPI) thread(w http.ResponseWriter, r *http.Request, status int, d *forum.ThreadDetail, err error) error {
	if err != nil {
		return err
	}
	if status != http.StatusOK || r.Method != http.MethodGet {
		a.changed(r)
	}
	httpx.WriteJSON(w, status, forum.ThreadEnvelope{Thread: d})
	return nil
}

// replyAnswer answers one reply with status and tells open tabs, or the
// error of the call that changed it.
func (a *forumAPI) replyAnswer(w http.ResponseWriter, r *http.Request, status int, rep *forum.Reply, err error) error {
	if err != nil {
		return err
	}
	a.changed(r)
	httpx.WriteJSON(w, status, forum.ReplyEnvelope{Reply: rep})
	return nil
}

// done answers 204 to a change that returns nothing, telling open tabs
// when the community's content changed.
func (a *forumAPI) done(w http.ResponseWriter, r *http.Request, tell bool, err error) error {
	if err != nil {
		return err
	}
	if tell {
		a.changed(r)
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *forumAPI) list(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	q := r.URL.Query()
	list, err := a.forum.List(r.Context(), v, forum.ListQuery{Category: q.Get("category"), Q: q.Get("q"),
		Unanswered: q.Get("unanswered") == "1" || q.Get("unanswered") == "true", Cursor: q.Get("cursor")})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, list)
	return nil
}

func (a *forumAPI) create(w http.ResponseWriter, r *http.Request, v access.Viewer, in forum.ThreadInput) error {
	d, err := a.forum.Create(r.Context(), v, in)
	return a.thread(w, r, http.StatusCreated, d, err)
}

func (a *forumAPI) get(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	d, err := a.forum.Get(r.Context(), v, r.PathValue("id"))
	return a.thread(w, r, http.StatusOK, d, err)
}

func (a *forumAPI) update(w http.ResponseWriter, r *http.Request, v access.Viewer, in forum.ThreadPatch) error {
	d, err := a.forum.Update(r.Context(), v, r.PathValue("id"), in)
	return a.thread(w, r, http.StatusOK, d, err)
}

func (a *forumAPI) remove(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	return a.done(w, r, true, a.forum.Delete(r.Context(), v, r.PathValue("id")))
}

func (a *forumAPI) reply(w http.ResponseWriter, r *http.Request, v access.Viewer, in forum.ReplyInput) error {
	rep, err := a.forum.AddReply(r.Context(), v, r.PathValue("id"), in)
	return a.replyAnswer(w, r, http.StatusCreated, rep, err)
}

func (a *forumAPI) updateReply(w http.ResponseWriter, r *http.Request, v access.Viewer, in forum.ReplyInput) error {
	rep, err := a.forum.UpdateReply(r.Context(), v, r.PathValue("id"), in)
	return a.replyAnswer(w, r, http.StatusOK, rep, err)
}

func (a *forumAPI) removeReply(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	return a.done(w, r, true, a.forum.DeleteReply(r.Context(), v, r.PathValue("id")))
}

// reactThread gives (on) or takes back the viewer's 🔥 on a thread.
func (a *forumAPI) reactThread(on bool) func(http.ResponseWriter, *http.Request, access.Viewer, noBody) error {
	return func(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
		d, err := a.forum.ReactThread(r.Context(), v, r.PathValue("id"), on)
		return a.thread(w, r, http.StatusOK, d, err)
	}
}

// reactReply gives (on) or takes back the viewer's 🔥 on a reply.
func (a *forumAPI) reactReply(on bool) func(http.ResponseWriter, *http.Request, access.Viewer, noBody) error {
	return func(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
		rep, err := a.forum.ReactReply(r.Context(), v, r.PathValue("id"), on)
		return a.replyAnswer(w, r, http.StatusOK, rep, err)
	}
}

func (a *forumAPI) accept(w http.ResponseWriter, r *http.Request, v access.Viewer, in forum.AcceptInput) error {
	d, err := a.forum.Accept(r.Context(), v, r.PathValue("id"), in)
	return a.thread(w, r, http.StatusOK, d, err)
}

func (a *forumAPI) mute(w http.ResponseWriter, r *http.Request, v access.Viewer, in forum.MuteInput) error {
	if err := a.forum.Mute(r.Context(), v, r.PathValue("id"), in.Muted); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, in)
	return nil
}

// report and resolve change nothing any tab shows, so tabs are not told.
func (a *forumAPI) report(w http.ResponseWriter, r *http.Request, v access.Viewer, in forum.ReportInput) error {
	return a.done(w, r, false, a.forum.Report(r.Context(), v, in))
}

func (a *forumAPI) reports(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	list, err := a.forum.Reports(r.Context(), v)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, list)
	return nil
}

func (a *forumAPI) resolve(w http.ResponseWriter, r *http.Request, v access.Viewer, _ noBody) error {
	return a.done(w, r, false, a.forum.ResolveReport(r.Context(), v, r.PathValue("id")))
}

func (a *forumAPI) moderateThread(w http.ResponseWriter, r *http.Request, v access.Viewer, in forum.Moderation) error {
	d, err := a.forum.ModerateThread(r.Context(), v, r.PathValue("id"), in)
	return a.thread(w, r, http.StatusOK, d, err)
}

func (a *forumAPI) moderateReply(w http.ResponseWriter, r *http.Request, v access.Viewer, in forum.Moderation) error {
	rep, err := a.forum.ModerateReply(r.Context(), v, r.PathValue("id"), in)
	return a.replyAnswer(w, r, http.StatusOK, rep, err)
}
