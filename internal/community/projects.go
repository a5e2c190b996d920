package community

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/auth"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// The projects board: the one place for the SQL of projects,
// project_reactions and project_comments. Reading is for every signed-in
// member; sharing, reacting and commenting are for those with tribe access
// (subscribers and admins). A hidden project is seen only by its author
// and admins.

// Limits of a project and a comment, in characters.
const (
	MaxProjectTitle       = 120
	MaxProjectDescription = 500
	MaxProjectLink        = 500
	MaxProjectTags        = 5
	MaxProjectTag         = 24
	MaxComment            = 2000
	MaxHiddenReason       = 500
)

// Refusals of the projects board, as a member reads them.
var (
	ErrProjectsForMembers = errs.New(errs.Forbidden, "Sharing projects, reacting and commenting are for tribe members: subscribe to take part.")
	ErrNotProjectAuthor   = errs.New(errs.Forbidden, "Only the project's author can change it.")
	ErrNotCommentAuthor   = errs.New(errs.Forbidden, "Only the comment's author or an admin can delete it.")
	ErrHideForAdmins      = errs.New(errs.Forbidden, "Only admins can hide or show projects.")
	ErrOwnProject         = errs.New(errs.Conflict, "You cannot react to your own project.")
	ErrProjectHidden      = errs.New(errs.Conflict, "This project was hidden by an admin: it takes no reactions or comments.")
	errNoProjectChange    = errs.New(errs.Invalid, "Send at least one field to change.")
)

// projectColumns are read from projects p joined to the author's profile
// pr; $1 is the viewer's id (whether they reacted).
const projectColumns = `p.id, p.user_id, COALESCE(pr.full_name, ''), pr.avatar_url, p.title, p.link, p.description,
	p.repo_url, p.tags,
	(SELECT COUNT(*) FROM project_reactions r WHERE r.project_id = p.id),
	EXISTS (SELECT 1 FROM project_reactions r WHERE r.project_id = p.id AND r.user_id = $1),
	(SELECT COUNT(*) FROM project_comments c WHERE c.project_id = p.id),
	p.hidden_reason, p.created_at, p.updated_at
	FROM projects p LEFT JOIN profiles pr ON pr.id = p.user_id`

func scanProject(row interface{ Scan(...any) error }) (*Project, error) {
	var (
		p        Project
		avatar   sql.NullString
		repo     sql.NullString
		tags     string
		reason   sql.NullString
		cre, upd store.Time
	)
	if err := row.Scan(&p.ID, &p.AuthorID, &p.AuthorName, &avatar, &p.Title, &p.Link, &p.Description,
		&repo, &tags, &p.Reactions, &p.Reacted, &p.Comments, &reason, &cre, &upd); err != nil {
		return nil, err
	}
	if avatar.Valid {
		p.AuthorAvatarURL = &avatar.String
	}
	if repo.Valid {
		p.RepoURL = &repo.String
	}
	p.Tags = splitTags(tags)
	p.Hidden = reason.Valid
	if reason.Valid {
		p.HiddenReason = &reason.String
	}
	p.CreatedAt, p.UpdatedAt = cre.Time, upd.Time
	return &p, nil
}

// forViewer fills what depends on who reads, and keeps the hidden reason
// from anyone but the author and admins.
func (p *Project) forViewer(v access.Viewer) {
	p.Mine = v.UserID != "" && p.AuthorID == v.UserID
	if !p.Mine && !v.Admin {
		p.HiddenReason = nil
	}
}

// visibleTo reports whether v may see p: everyone while it is shown, its
// author and admins once hidden.
func (p *Project) visibleTo(v access.Viewer) bool {
	return !p.Hidden || v.Admin || (v.UserID != "" && p.AuthorID == v.UserID)
}

func splitTags(s string) []string {
	if s == "" {
		return []string{}
	}
	return strings.Split(s, ",")
}

// ListProjects is the board as v sees it, newest first: every shown
// project, plus v's own hidden ones (all hidden ones for admins). A
// non-empty authorID keeps that member's projects only.
func ListProjects(ctx context.Context, db *store.DB, v access.Viewer, authorID string) ([]Project, error) {
	q := `SELECT ` + projectColumns + ` WHERE (p.hidden_at IS NULL OR p.user_id = $1 OR $2)`
	args := []any{v.UserID, v.Admin}
	if authorID != "" {
		q += ` AND p.user_id = $3`
		args = append(args, authorID)
	}
	q += ` ORDER BY p.created_at DESC, p.id`
	list, err := queryProjects(ctx, db, q, args...)
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].forViewer(v)
	}
	return list, nil
}

// ProjectsSince is every shown project created at or after since, oldest
// first, as nobody in particular sees it (no reaction of the reader, no
// hidden reason): what a digest of new projects lists.
func ProjectsSince(ctx context.Context, db *store.DB, since time.Time) ([]Project, error) {
	list, err := queryProjects(ctx, db,
		`SELECT `+projectColumns+` WHERE p.hidden_at IS NULL AND p.created_at >= $2 ORDER BY p.created_at, p.id`,
		"", store.At(since))
	if err != nil {
		return nil, err
	}
	for i := range list {
		list[i].forViewer(access.Viewer{})
	}
	return list, nil
}

// ProjectsShared is how many projects the user has shared and an admin
// has not hidden: what the levels count.
func ProjectsShared(ctx context.Context, db *store.DB, userID string) (int, error) {
	var n int
	if err := db.ReadRow(ctx, `SELECT COUNT(*) FROM projects WHERE user_id = $1 AND hidden_at IS NULL`, userID).Scan(&n); err != nil {
		return 0, fmt.Errorf("count projects of %s: %w", userID, err)
	}
	return n, nil
}

// ProjectsSharedCounts is ProjectsShared for every member who shared one,
// in one query (the members export's levels).
func ProjectsSharedCounts(ctx context.Context, db *store.DB) (map[string]int, error) {
	return countsBy(ctx, db, "count projects", `SELECT user_id, COUNT(*) FROM projects WHERE hidden_at IS NULL GROUP BY user_id`)
}

// directoryProjects is the shown projects of members listed in the
// directory, newest first, by author, with their tags for the search.
func directoryProjects(ctx context.Context, db *store.DB) (map[string][]ProjectLink, map[string][]string, error) {
	rows, err := db.ReadRows(ctx,
		`SELECT p.user_id, p.id, p.title, p.link, p.tags FROM projects p JOIN profiles pr ON pr.id = p.user_id
		 WHERE pr.in_directory AND p.hidden_at IS NULL ORDER BY p.created_at DESC, p.id`)
	if err != nil {
		return nil, nil, fmt.Errorf("list directory projects: %w", err)
	}
	defer func() { _ = rows.Close() }()
	links, tags := map[string][]ProjectLink{}, map[string][]string{}
	for rows.Next() {
		var user, tagText string
		var l ProjectLink
		if err := rows.Scan(&user, &l.ID, &l.Title, &l.Link, &tagText); err != nil {
			return nil, nil, fmt.Errorf("list directory projects: %w", err)
		}
		links[user] = append(links[user], l)
		tags[user] = append(tags[user], splitTags(tagText)...)
	}
	if err := rows.Err(); err != nil {
		return nil, nil, fmt.Errorf("list directory projects: %w", err)
	}
	return links, tags, nil
}

func queryProjects(ctx context.Context, db *store.DB, q string, args ...any) ([]Project, error) {
	rows, err := db.ReadRows(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []Project{}
	for rows.Next() {
		p, err := scanProject(rows)
		if err != nil {
			return nil, fmt.Errorf("list projects: %w", err)
		}
		out = append(out, *p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list projects: %w", err)
	}
	return out, nil
}

// GetProject is one project as v sees it; not found when it does not
// exist or is hidden from v.
func GetProject(ctx context.Context, db *store.DB, v access.Viewer, id string) (*Project, error) {
	p, err := scanProject(db.Read.QueryRowContext(ctx, `SELECT `+projectColumns+` WHERE p.id = $2`, v.UserID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Project")
	}
	if err != nil {
		return nil, fmt.Errorf("read project %s: %w", id, err)
	}
	if !p.visibleTo(v) {
		return nil, notFound("Project")
	}
	p.forViewer(v)
	return p, nil
}

// cleanProject is a checked project ready to store.
type cleanProject struct {
	title, link, description, tags string
	repo                           *string
}

// checkText trims a member's text and checks it: required, at most max
// characters, valid UTF-8 and no control characters but line breaks and
// tabs (multiline says whether line breaks may appear). Windows line
// breaks become "\n".
func checkText(field, label, v string, max int, multiline bool) (string, error) {
	v = strings.TrimSpace(strings.ReplaceAll(v, "\r\n", "\n"))
	switch {
	case !utf8.ValidString(v):
		return "", errs.Field(field, label+" contains characters that cannot be stored.")
	case !auth.VisibleName(v):
		return "", errs.Field(field, label+" is required.")
	case utf8.RuneCountInString(v) > max:
		return "", errs.Field(field, fmt.Sprintf("%s must be at most %d characters.", label, max))
	}
	bad := strings.ContainsFunc(v, func(r rune) bool {
		return unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\t'))
	})
	if bad {
		return "", errs.Field(field, label+" cannot contain control characters.")
	}
	return v, nil
}

// checkLink checks a required or optional http(s) link.
func checkLink(field, label, raw string, required bool) (*string, error) {
	link, err := optionalURL(raw, MaxProjectLink)
	switch {
	case errors.Is(err, errURLCredentials):
		return nil, errs.Field(field, urlCredentialsMessage)
	case err != nil:
		return nil, errs.Field(field, fmt.Sprintf("%s must be an http:// or https:// address of at most %d characters.", label, MaxProjectLink))
	case link == nil && required:
		return nil, errs.Field(field, label+" is required.")
	}
	return link, nil
}

// checkTags trims, lowercases and de-duplicates tags: at most
// MaxProjectTags, each of letters, digits, spaces and - + . # _, at most
// MaxProjectTag characters. Empty tags are dropped.
func checkTags(in []string) (string, error) {
	out := []string{}
	for _, t := range in {
		t = strings.ToLower(strings.Join(strings.Fields(t), " "))
		if t == "" || slices.Contains(out, t) {
			continue
		}
		if !utf8.ValidString(t) || utf8.RuneCountInString(t) > MaxProjectTag {
			return "", errs.Field("tags", fmt.Sprintf("Each tag must be at most %d characters.", MaxProjectTag))
		}
		if strings.ContainsFunc(t, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !strings.ContainsRune(" -+.#_", r)
		}) {
			return "", errs.Field("tags", "Tags may hold letters, digits, spaces and - + . # _ only.")
		}
		out = append(out, t)
	}
	if len(out) > MaxProjectTags {
		return "", errs.Field("tags", fmt.Sprintf("A project has at most %d tags.", MaxProjectTags))
	}
	return strings.Join(out, ","), nil
}

func (in ProjectInput) check() (cleanProject, error) {
	var c cleanProject
	var err error
	if c.title, err = checkText("title", "Title", in.Title, MaxProjectTitle, false); err != nil {
		return c, err
	}
	link, err := checkLink("link", "Link", in.Link, true)
	if err != nil {
		return c, err
	}
	c.link = *link
	if c.description, err = checkText("description", "Description", in.Description, MaxProjectDescription, true); err != nil {
		return c, err
	}
	if c.repo, err = checkLink("repo_url", "Repository link", in.RepoURL, false); err != nil {
		return c, err
	}
	if c.tags, err = checkTags(in.Tags); err != nil {
		return c, err
	}
	return c, nil
}

// CreateProject shares a project of v's. Nothing is written when it
// refuses.
func CreateProject(ctx context.Context, db *store.DB, v access.Viewer, in ProjectInput, now time.Time) (*Project, error) {
	if !v.SeesPaidContent() {
		return nil, ErrProjectsForMembers
	}
	c, err := in.check()
	if err != nil {
		return nil, err
	}
	id := store.NewID()
	at := store.At(now)
	if _, err := db.Write.ExecContext(ctx,
		`INSERT INTO projects (id, user_id, title, link, description, repo_url, tags, created_at, updated_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
		id, v.UserID, c.title, c.link, c.description, c.repo, c.tags, at); err != nil {
		return nil, fmt.Errorf("create project: %w", err)
	}
	return GetProject(ctx, db, v, id)
}

// lockProject reads a project's author and whether it is hidden inside tx.
// On PostgreSQL the row is share-locked until tx ends, so it cannot be
// deleted between the check and the write that depends on it (reactions
// and comments still go side by side); SQLite's write transaction already
// holds the database's single write lock.
func lockProject(ctx context.Context, db *store.DB, tx *sql.Tx, id string, mode string) (author string, hidden bool, err error) {
	q := `SELECT user_id, hidden_at IS NOT NULL FROM projects WHERE id = $1`
	if db.Dialect == store.Postgres {
		q += ` FOR ` + mode
	}
	err = tx.QueryRowContext(ctx, q, id).Scan(&author, &hidden)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, notFound("Project")
	}
	if err != nil {
		return "", false, fmt.Errorf("read project %s: %w", id, err)
	}
	return author, hidden, nil
}

// UpdateProject changes a project: its author the content, admins whether
// it is hidden (hiding needs a reason). It returns the saved project and
// its author. Nothing is written when any field is refused.
func UpdateProject(ctx context.Context, db *store.DB, v access.Viewer, id string, in ProjectPatch, now time.Time) (*Project, error) {
	if in.Title == nil && in.Link == nil && in.Description == nil && in.RepoURL == nil && in.Tags == nil && in.Hidden == nil {
		return nil, errNoProjectChange
	}
	content := in.Title != nil || in.Link != nil || in.Description != nil || in.RepoURL != nil || in.Tags != nil
	sets, args := []string{}, []any{}
	set := func(column string, value any) {
		args = append(args, value)
		sets = append(sets, fmt.Sprintf("%s = $%d", column, len(args)))
	}
	if in.Title != nil {
		t, err := checkText("title", "Title", *in.Title, MaxProjectTitle, false)
		if err != nil {
			return nil, err
		}
		set("title", t)
	}
	if in.Link != nil {
		l, err := checkLink("link", "Link", *in.Link, true)
		if err != nil {
			return nil, err
		}
		set("link", *l)
	}
	if in.Description != nil {
		d, err := checkText("description", "Description", *in.Description, MaxProjectDescription, true)
		if err != nil {
			return nil, err
		}
		set("description", d)
	}
	if in.RepoURL != nil {
		r, err := checkLink("repo_url", "Repository link", *in.RepoURL, false)
		if err != nil {
			return nil, err
		}
		set("repo_url", r)
	}
	if in.Tags != nil {
		t, err := checkTags(*in.Tags)
		if err != nil {
			return nil, err
		}
		set("tags", t)
	}
	at := store.At(now)
	if in.Hidden != nil {
		if !v.Admin {
			return nil, ErrHideForAdmins
		}
		if *in.Hidden {
			reason := ""
			if in.HiddenReason != nil {
				reason = *in.HiddenReason
			}
			r, err := checkText("hidden_reason", "Reason", reason, MaxHiddenReason, true)
			if err != nil {
				return nil, err
			}
			set("hidden_reason", r)
			set("hidden_by", v.UserID)
			set("hidden_at", at)
		} else {
			set("hidden_reason", nil)
			set("hidden_by", nil)
			set("hidden_at", nil)
		}
	}
	if content {
		set("updated_at", at)
	}
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		author, hidden, err := lockProject(ctx, db, tx, id, "UPDATE")
		if err != nil {
			return err
		}
		if hidden && !v.Admin && author != v.UserID {
			return notFound("Project")
		}
		if content && author != v.UserID {
			return ErrNotProjectAuthor
		}
		args = append(args, id)
		_, err = tx.ExecContext(ctx, `UPDATE projects SET `+strings.Join(sets, ", ")+fmt.Sprintf(` WHERE id = $%d`, len(args)), args...)
		if err != nil {
			return fmt.Errorf("update project %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return GetProject(ctx, db, v, id)
}

// DeleteProject removes a project, its reactions and comments: its author
// or an admin may. It returns whose project it was.
func DeleteProject(ctx context.Context, db *store.DB, v access.Viewer, id string) (author string, err error) {
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		var hidden bool
		author, hidden, err = lockProject(ctx, db, tx, id, "UPDATE")
		if err != nil {
			return err
		}
		switch {
		case v.Admin || author == v.UserID:
		case hidden:
			return notFound("Project")
		default:
			return ErrNotProjectAuthor
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM projects WHERE id = $1`, id); err != nil {
			return fmt.Errorf("delete project %s: %w", id, err)
		}
		return nil
	})
	return author, err
}

// openForMembers checks, inside tx, that v may react to or comment on
// project id: v has tribe access, and the project exists, is shown, and
// (for reactions, own) is not v's.
func openForMembers(ctx context.Context, db *store.DB, tx *sql.Tx, v access.Viewer, id string, own bool) error {
	author, hidden, err := lockProject(ctx, db, tx, id, "SHARE")
	if err != nil {
		return err
	}
	switch {
	case hidden && !v.Admin && author != v.UserID:
		return notFound("Project")
	case hidden:
		return ErrProjectHidden
	case !own && author == v.UserID:
		return ErrOwnProject
	}
	return nil
}

// SetReaction gives (on) or takes back v's "🔥" on a project. Both are
// idempotent: a second "🔥" from the same member changes nothing, so the
// count is one per member however often or concurrently they click.
func SetReaction(ctx context.Context, db *store.DB, v access.Viewer, id string, on bool, now time.Time) (*Project, error) {
	if !v.SeesPaidContent() {
		return nil, ErrProjectsForMembers
	}
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		if err := openForMembers(ctx, db, tx, v, id, false); err != nil {
			return err
		}
		var err error
		if on {
			_, err = tx.ExecContext(ctx,
				`INSERT INTO project_reactions (project_id, user_id, created_at) VALUES ($1, $2, $3)
				 ON CONFLICT (project_id, user_id) DO NOTHING`, id, v.UserID, store.At(now))
		} else {
			_, err = tx.ExecContext(ctx, `DELETE FROM project_reactions WHERE project_id = $1 AND user_id = $2`, id, v.UserID)
		}
		if err != nil {
			return fmt.Errorf("react to project %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return GetProject(ctx, db, v, id)
}

const commentColumns = `c.id, c.project_id, c.user_id, COALESCE(pr.full_name, ''), pr.avatar_url, c.body, c.created_at
	FROM project_comments c LEFT JOIN profiles pr ON pr.id = c.user_id`

func scanComment(row interface{ Scan(...any) error }) (*Comment, error) {
	var (
		c      Comment
		avatar sql.NullString
		cre    store.Time
	)
	if err := row.Scan(&c.ID, &c.ProjectID, &c.AuthorID, &c.AuthorName, &avatar, &c.Body, &cre); err != nil {
		return nil, err
	}
	if avatar.Valid {
		c.AuthorAvatarURL = &avatar.String
	}
	c.CreatedAt = cre.Time
	return &c, nil
}

// ListComments is a project's comments, oldest first, for those who may
// see the project.
func ListComments(ctx context.Context, db *store.DB, v access.Viewer, id string) ([]Comment, error) {
	if _, err := GetProject(ctx, db, v, id); err != nil {
		return nil, err
	}
	rows, err := db.ReadRows(ctx, `SELECT `+commentColumns+` WHERE c.project_id = $1 ORDER BY c.created_at, c.id`, id)
	if err != nil {
		return nil, fmt.Errorf("list comments of %s: %w", id, err)
	}
	defer func() { _ = rows.Close() }()
	out := []Comment{}
	for rows.Next() {
		c, err := scanComment(rows)
		if err != nil {
			return nil, fmt.Errorf("list comments of %s: %w", id, err)
		}
		out = append(out, *c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list comments of %s: %w", id, err)
	}
	return out, nil
}

// AddComment adds v's plain-text comment to a shown project. Nothing is
// written when it refuses.
func AddComment(ctx context.Context, db *store.DB, v access.Viewer, id string, in CommentInput, now time.Time) (*Comment, error) {
	if !v.SeesPaidContent() {
		return nil, ErrProjectsForMembers
	}
	body, err := checkText("body", "Comment", in.Body, MaxComment, true)
	if err != nil {
		return nil, err
	}
	cid := store.NewID()
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		if err := openForMembers(ctx, db, tx, v, id, true); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx,
			`INSERT INTO project_comments (id, project_id, user_id, body, created_at) VALUES ($1, $2, $3, $4, $5)`,
			cid, id, v.UserID, body, store.At(now)); err != nil {
			return fmt.Errorf("comment on project %s: %w", id, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	c, err := scanComment(db.Read.QueryRowContext(ctx, `SELECT `+commentColumns+` WHERE c.id = $1`, cid))
	if err != nil {
		return nil, fmt.Errorf("read comment %s: %w", cid, err)
	}
	return c, nil
}

// DeleteComment removes one comment of project id: its author may take it
// back and an admin may moderate it, without hiding the whole project. A
// hidden project's comments are as out of reach as the project itself.
func DeleteComment(ctx context.Context, db *store.DB, v access.Viewer, id, commentID string) error {
	return db.Tx(ctx, func(tx *sql.Tx) error {
		author, hidden, err := lockProject(ctx, db, tx, id, "SHARE")
		if err != nil {
			return err
		}
		if hidden && !v.Admin && author != v.UserID {
			return notFound("Project")
		}
		var writer string
		err = tx.QueryRowContext(ctx, `SELECT user_id FROM project_comments WHERE id = $1 AND project_id = $2`,
			commentID, id).Scan(&writer)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("Comment")
		}
		if err != nil {
			return fmt.Errorf("find comment %s: %w", commentID, err)
		}
		if !v.Admin && writer != v.UserID {
			return ErrNotCommentAuthor
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM project_comments WHERE id = $1`, commentID); err != nil {
			return fmt.Errorf("delete comment %s: %w", commentID, err)
		}
		return nil
	})
}
