package web

import (
	"net/http"

	"tribe/internal/clock"
	"tribe/internal/community"
	"tribe/internal/events"
	"tribe/internal/httpx"
	"tribe/internal/levels"
	"tribe/internal/store"
)

// projectsAPI serves the projects board and the member directory.
// internal/community decides who may share, react, comment, moderate and
// read the directory; docs/api.md ("Projects and directory") is the
// contract.
type projectsAPI struct {
	db     *store.DB
	levels *levels.Service
	now    clock.Clock
	pub    publisher
}

func (a *projectsAPI) register(g *registrar) error {
	g.route("GET /api/projects", member, a.list)
	g.route("POST /api/projects", member, a.create) // subscribers and admins, decided in community
	g.route("PATCH /api/projects/{id}", member, a.update)
	g.route("DELETE /api/projects/{id}", member, a.remove)
	g.route("PUT /api/projects/{id}/reaction", member, a.react) // subscribers and admins, decided in community
	g.route("DELETE /api/projects/{id}/reaction", member, a.unreact)
	g.route("GET /api/projects/{id}/comments", member, a.comments)
	g.route("POST /api/projects/{id}/comments", member, a.comment)               // subscribers and admins, decided in community
	g.route("DELETE /api/projects/{id}/comments/{comment}", member, a.uncomment) // the comment's author or an admin, decided in community
	g.route("GET /api/members/directory", member, a.directory)                   // subscribers and admins, decided in community
	return nil
}

// changed tells every open board to refetch and, when a project was
// added, removed, hidden or shown, its author that their level may have
// moved.
func (a *projectsAPI) changed(r *http.Request, author string) {
	a.pub.publish(r.Context(), events.Event{Topic: events.TopicProjects})
	if author != "" {
		a.pub.publish(r.Context(), events.Event{Topic: events.TopicProgress, UserID: author})
	}
}

func (a *projectsAPI) list(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	author := r.URL.Query().Get("author")
	if author == "me" {
		author = v.UserID
	}
	list, err := community.ListProjects(r.Context(), a.db, v, author)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, ProjectList{Projects: list, CanPost: v.SeesPaidContent()})
	return nil
}

func (a *projectsAPI) create(w http.ResponseWriter, r *http.Request) error {
	var in community.ProjectInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	p, err := community.CreateProject(r.Context(), a.db, v, in, a.now())
	if err != nil {
		return err
	}
	a.changed(r, p.AuthorID)
	httpx.WriteJSON(w, http.StatusCreated, ProjectReply{p})
	return nil
}

func (a *projectsAPI) update(w http.ResponseWriter, r *http.Request) error {
	var in community.ProjectPatch
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	p, err := community.UpdateProject(r.Context(), a.db, v, r.PathValue("id"), in, a.now())
	if err != nil {
		return err
	}
	author := ""
	if in.Hidden != nil {
		author = p.AuthorID // hiding or showing changes what counts towards the level
	}
	a.changed(r, author)
	httpx.WriteJSON(w, http.StatusOK, ProjectReply{p})
	return nil
}

func (a *projectsAPI) remove(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	author, err := community.DeleteProject(r.Context(), a.db, v, r.PathValue("id"))
	if err != nil {
		return err
	}
	a.changed(r, author)
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *projectsAPI) setReaction(w http.ResponseWriter, r *http.Request, on bool) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	p, err := community.SetReaction(r.Context(), a.db, v, r.PathValue("id"), on, a.now())
	if err != nil {
		return err
	}
	a.changed(r, "")
	httpx.WriteJSON(w, http.StatusOK, ProjectReply{p})
	return nil
}

func (a *projectsAPI) react(w http.ResponseWriter, r *http.Request) error {
	return a.setReaction(w, r, true)
}

func (a *projectsAPI) unreact(w http.ResponseWriter, r *http.Request) error {
	return a.setReaction(w, r, false)
}

func (a *projectsAPI) comments(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	list, err := community.ListComments(r.Context(), a.db, v, r.PathValue("id"))
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, CommentList{list})
	return nil
}

func (a *projectsAPI) comment(w http.ResponseWriter, r *http.Request) error {
	var in community.CommentInput
	if err := httpx.ReadJSON(w, r, &in); err != nil {
		return err
	}
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	c, err := community.AddComment(r.Context(), a.db, v, r.PathValue("id"), in, a.now())
	if err != nil {
		return err
	}
	a.changed(r, "")
	httpx.WriteJSON(w, http.StatusCreated, CommentReply{c})
	return nil
}

func (a *projectsAPI) uncomment(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	if err := community.DeleteComment(r.Context(), a.db, v, r.PathValue("id"), r.PathValue("comment")); err != nil {
		return err
	}
	a.changed(r, "")
	w.WriteHeader(http.StatusNoContent)
	return nil
}

func (a *projectsAPI) directory(w http.ResponseWriter, r *http.Request) error {
	v, err := viewer(r, a.db)
	if err != nil {
		return err
	}
	list, err := community.Directory(r.Context(), a.db, v, r.URL.Query().Get("q"), a.levels.LevelOf)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, DirectoryList{list})
	return nil
}
