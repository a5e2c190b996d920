package web

import (
	"net/http"

	"tribe/internal/events"
	"tribe/internal/forum"
	"tribe/internal/httpx"
	"tribe/internal/store"
)

// forumAPI serves the community's threads (docs/api.md, "Community").
// internal/forum decides who may read, write, react, accept and moderate,
// and whom each change is told to; these handlers read the request, call
// it, and tell open tabs to refetch.
type forumAPI struct {
	db    *store.DB
	forum *forum.Service
	pub   publisher
}

func (a *forumAPI) register(g *registrar) error {
	g.route("GET /api/community/threads", member, a.list) // free members: announcements, decided in forum
	g.route("POST /api/community/threads", member, a.create)
	g.route("GET /api/community/threads/{id}", member, a.get)
	g.route("PATCH /api/community/threads/{id}", member, a.update)  // the author, decided in forum
	g.route("DELETE /api/community/threads/{id}", member, a.remove) // the author or an admin
	g.route("POST /api/community/threads/{id}/replies", member, a.reply)
	g.route("PATCH /api/community/replies/{id}", member, a.updateReply)
	g.route("DELETE /api/community/replies/{id}", member, a.removeReply)
	g.route("PUT /api/community/threads/{id}/reaction", member, a.reactThread)
	g.route("DELETE /api/community/threads/{id}/reaction", member, a.unreactThread)
	g.route("PUT /api/community/replies/{id}/reaction", member, a.reactReply)
	g.route("DELETE /api/community/replies/{id}/reaction", member, a.unreactReply)
	g.route("PUT /api/community/threads/{id}/accepted", member, a.accept) // the asker or an admin
	g.route("PUT /api/community/threads/{id}/mute", member, a.mute)
	g.route("POST /api/community/reports", member, a.report)
	g.route("GET /api/admin/community/reports", admin, a.reports)
	g.route("POST /api/admin/community/reports/{id}/resolve", admin, a.resolve)
	g.route("PUT /api/admin/community/threads/{id}", admin, a.moderateThread)
	g.route("PUT /api/admin/community/replies/{id}", admin, a.moderateReply)
	return nil
}

// changed tells every open tab that the community changed.
func (a *forumAPI) changed(r *http.Request) {
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicCommunity})
}

func (a *forumAPI) list(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	q := r.URL.Query()
	list, err := a.forum.List(r.Context(), v, forum.ListQuery{Category: q.Get("category"), Q: q.Get("q"),
		Unanswered: q.Get("unanswered") == "1" || q.Get("unanswered") == "true", Cursor: q.Get("cursor")})
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, list)
	return nil
}

// thread answers one thread with status, after a change when changed.
func (a *forumAPI) thread(w http.ResponseWriter, r *http.Request, status int, d *forum.ThreadDetail) {
	if status != http.StatusOK || r.Method != http.MethodGet {
		a.changed(r)
	}
	httpx.WriteJSON(w, status, forum.ThreadEnvelope{Thread: d})
}

func (a *forumAPI) create(w http.ResponseWriter, r *http.Request) error {
	var in forum.ThreadInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	d, err := a.forum.Create(r.Context(), v, in)
	if err != nil {
		return err
	}
	a.thread(w, r, http.StatusCreated, d)
	return nil
}

func (a *forumAPI) get(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	d, err := a.forum.Get(r.Context(), v, r.PathValue("id"))
	if err != nil {
		return err
	}
	a.thread(w, r, http.StatusOK, d)
	return nil
}

func (a *forumAPI) update(w http.ResponseWriter, r *http.Request) error {
	var in forum.ThreadPatch
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	d, err := a.forum.Update(r.Context(), v, r.PathValue("id"), in)
	if err != nil {
		return err
	}
	a.thread(w, r, http.StatusOK, d)
	return nil
}

func (a *forumAPI) remove(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	if err := a.forum.Delete(r.Context(), v, r.PathValue("id")); err != nil {
		return err
	}
	a.changed(r)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// replyAnswer answers one reply with status and tells open tabs.
func (a *forumAPI) replyAnswer(w http.ResponseWriter, r *http.Request, status int, rep *forum.Reply) {
	a.changed(r)
	httpx.WriteJSON(w, status, forum.ReplyEnvelope{Reply: rep})
}

func (a *forumAPI) reply(w http.ResponseWriter, r *http.Request) error {
	var in forum.ReplyInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	rep, err := a.forum.AddReply(r.Context(), v, r.PathValue("id"), in)
	if err != nil {
		return err
	}
	a.replyAnswer(w, r, http.StatusCreated, rep)
	return nil
}

func (a *forumAPI) updateReply(w http.ResponseWriter, r *http.Request) error {
	var in forum.ReplyInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	rep, err := a.forum.UpdateReply(r.Context(), v, r.PathValue("id"), in)
	if err != nil {
		return err
	}
	a.replyAnswer(w, r, http.StatusOK, rep)
	return nil
}

func (a *forumAPI) removeReply(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	if err := a.forum.DeleteReply(r.Context(), v, r.PathValue("id")); err != nil {
		return err
	}
	a.changed(r)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *forumAPI) reactThreadAs(w http.ResponseWriter, r *http.Request, on bool) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	d, err := a.forum.ReactThread(r.Context(), v, r.PathValue("id"), on)
	if err != nil {
		return err
	}
	a.thread(w, r, http.StatusOK, d)
	return nil
}

func (a *forumAPI) reactThread(w http.ResponseWriter, r *http.Request) error {
	return a.reactThreadAs(w, r, true)
}

func (a *forumAPI) unreactThread(w http.ResponseWriter, r *http.Request) error {
	return a.reactThreadAs(w, r, false)
}

func (a *forumAPI) reactReplyAs(w http.ResponseWriter, r *http.Request, on bool) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	rep, err := a.forum.ReactReply(r.Context(), v, r.PathValue("id"), on)
	if err != nil {
		return err
	}
	a.replyAnswer(w, r, http.StatusOK, rep)
	return nil
}

func (a *forumAPI) reactReply(w http.ResponseWriter, r *http.Request) error {
	return a.reactReplyAs(w, r, true)
}

func (a *forumAPI) unreactReply(w http.ResponseWriter, r *http.Request) error {
	return a.reactReplyAs(w, r, false)
}

func (a *forumAPI) accept(w http.ResponseWriter, r *http.Request) error {
	var in forum.AcceptInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	d, err := a.forum.Accept(r.Context(), v, r.PathValue("id"), in)
	if err != nil {
		return err
	}
	a.thread(w, r, http.StatusOK, d)
	return nil
}

func (a *forumAPI) mute(w http.ResponseWriter, r *http.Request) error {
	var in forum.MuteInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	if err := a.forum.Mute(r.Context(), v, r.PathValue("id"), in.Muted); err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, in)
	return nil
}

func (a *forumAPI) report(w http.ResponseWriter, r *http.Request) error {
	var in forum.ReportInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	if err := a.forum.Report(r.Context(), v, in); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *forumAPI) reports(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	list, err := a.forum.Reports(r.Context(), v)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, list)
	return nil
}

func (a *forumAPI) resolve(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	if err := a.forum.ResolveReport(r.Context(), v, r.PathValue("id")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *forumAPI) moderateThread(w http.ResponseWriter, r *http.Request) error {
	var in forum.Moderation
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	d, err := a.forum.ModerateThread(r.Context(), v, r.PathValue("id"), in)
	if err != nil {
		return err
	}
	a.thread(w, r, http.StatusOK, d)
	return nil
}

func (a *forumAPI) moderateReply(w http.ResponseWriter, r *http.Request) error {
	var in forum.Moderation
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	rep, err := a.forum.ModerateReply(r.Context(), v, r.PathValue("id"), in)
	if err != nil {
		return err
	}
	a.replyAnswer(w, r, http.StatusOK, rep)
	return nil
}
