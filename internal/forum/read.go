package forum

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// args numbers query parameters as both engines read them ($1, $2, …).
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return fmt.Sprintf("$%d", len(*a))
}

// threadSelect reads threads t joined to the author's profile p; the
// viewer's id, the clock and whether the viewer is an admin are the
// parameters numbered by viewerArgs.
func threadSelect(viewer, now string) string {
	return `SELECT t.id, t.category, t.title, t.body, t.user_id, COALESCE(p.full_name, ''), p.avatar_url,
	t.created_at, t.last_activity_at, t.edited_at,
	(SELECT COUNT(*) FROM forum_replies r WHERE r.thread_id = t.id AND r.hidden_at IS NULL),
	(SELECT COUNT(*) FROM forum_thread_reactions x WHERE x.thread_id = t.id),
	EXISTS (SELECT 1 FROM forum_thread_reactions x WHERE x.thread_id = t.id AND x.user_id = ` + viewer + `),
	(t.pinned AND (t.pinned_until IS NULL OR t.pinned_until > ` + now + `)),
	t.accepted_reply_id, t.hidden_reason
	FROM forum_threads t LEFT JOIN profiles p ON p.id = t.user_id`
}

// visible is the condition on t of what v sees: announcements only for
// free members, and hidden threads only for their author and admins;
// viewer and admin are the placeholders of v's id and admin flag.
func visible(v access.Viewer, viewer, admin string) string {
	cond := `(t.hidden_at IS NULL OR t.user_id = ` + viewer + ` OR ` + admin + `)`
	if !v.SeesPaidContent() {
		cond += ` AND t.category = 'announcement'`
	}
	return cond
}

// unansweredSQL is the condition of a question nobody answered yet.
const unansweredSQL = `t.category = 'question' AND t.accepted_reply_id IS NULL AND NOT EXISTS
	(SELECT 1 FROM forum_replies r WHERE r.thread_id = t.id AND r.hidden_at IS NULL)`

type threadRow struct {
	Thread
	body     string
	authorID string
	editedAt *time.Time
}

func scanThread(row interface{ Scan(...any) error }) (*threadRow, error) {
	var (
		t        threadRow
		avatar   sql.NullString
		accepted sql.NullString
		reason   sql.NullString
		cre, act store.Time
		edited   store.NullTime
	)
	if err := row.Scan(&t.ID, &t.Category, &t.Title, &t.body, &t.authorID, &t.Author.FullName, &avatar,
		&cre, &act, &edited, &t.ReplyCount, &t.Reactions, &t.Reacted, &t.Pinned, &accepted, &reason); err != nil {
		return nil, err
	}
	t.Author.ID = t.authorID
	if avatar.Valid {
		t.Author.AvatarURL = &avatar.String
	}
	if accepted.Valid {
		t.AcceptedReplyID = &accepted.String
	}
	t.Hidden = reason.Valid
	if reason.Valid {
		t.HiddenReason = &reason.String
	}
	t.CreatedAt, t.LastActivityAt = cre.Time, act.Time
	if edited.Valid {
		at := edited.Time.Time
		t.editedAt = &at
	}
	t.Excerpt = excerpt(t.body, 200)
	return &t, nil
}

// forViewer fills what depends on who reads and keeps the hidden reason
// from anyone but the author and admins.
func (t *threadRow) forViewer(v access.Viewer) {
	t.Mine = v.UserID != "" && t.authorID == v.UserID
	if !t.Mine && !v.Admin {
		t.HiddenReason = nil
	}
}

// excerpt is the start of a Markdown body as one line of plain text, at
// most n characters: the marks that only format are dropped.
func excerpt(body string, n int) string {
	text := strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if strings.ContainsRune("#*_`>[]~|", r) {
			return -1
		}
		if unicode.IsSpace(r) {
			return ' '
		}
		return r
	}, body)), " ")
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	r := []rune(text)[:n-1]
	return strings.TrimRightFunc(string(r), unicode.IsSpace) + "…"
}

// levels fills the authors' levels: one read of every level for a page
// of several authors, LevelOf for one or two.
func (s *Service) levels(ctx context.Context, authors ...*Author) error {
	if s.opts.LevelOf == nil {
		return nil
	}
	distinct := map[string]bool{}
	for _, a := range authors {
		distinct[a.ID] = true
	}
	if len(distinct) > 2 && s.opts.LevelsOfAll != nil {
		all, err := s.opts.LevelsOfAll(ctx)
		if err != nil {
			return err
		}
		for _, a := range authors {
			if l, ok := all[a.ID]; ok {
				a.Level = l
			} else {
				a.Level = s.opts.DefaultLevel
			}
		}
		return nil
	}
	seen := map[string]string{}
	for _, a := range authors {
		if l, ok := seen[a.ID]; ok {
			a.Level = l
			continue
		}
		l, err := s.opts.LevelOf(ctx, a.ID)
		if err != nil {
			return err
		}
		seen[a.ID], a.Level = l, l
	}
	return nil
}

// ListQuery is what the thread list is asked: a category, a search, only
// unanswered questions, and the cursor of the page after the first.
type ListQuery struct {
	Category   string
	Q          string
	Unanswered bool
	Cursor     string
}

// List is the threads v may see, newest activity first, pinned threads
// at the top of the first page; with a search text, the best matches
// first (threads found by their own text or by a reply's).
func (s *Service) List(ctx context.Context, v access.Viewer, in ListQuery) (*ThreadList, error) {
	if in.Category != "" && !validCategory(in.Category) {
		return nil, errs.Field("category", "Category must be one of "+strings.Join(Categories, ", ")+".")
	}
	q := strings.TrimSpace(in.Q)
	if !utf8.ValidString(q) || utf8.RuneCountInString(q) > MaxQuery {
		return nil, errs.Field("q", fmt.Sprintf("The search must be at most %d characters.", MaxQuery))
	}
	var a args
	viewer, now, admin := a.add(v.UserID), a.add(store.At(s.now())), a.add(v.Admin)
	where := []string{visible(v, viewer, admin)}
	if in.Category != "" {
		where = append(where, `t.category = `+a.add(in.Category))
	}
	if in.Unanswered {
		where = append(where, unansweredSQL)
	}
	out := &ThreadList{Threads: []Thread{}, CanPost: v.SeesPaidContent(), CanAnnounce: v.Admin}
	var rows []*threadRow
	var err error
	if q != "" {
		rows, err = s.search(ctx, q, &a, viewer, now, admin, where)
	} else {
		rows, out.NextCursor, err = s.page(ctx, in.Cursor, &a, viewer, now, where)
	}
	if err != nil {
		return nil, err
	}
	authors := make([]*Author, 0, len(rows))
	for _, t := range rows {
		t.forViewer(v)
		out.Threads = append(out.Threads, t.Thread)
	}
	for i := range out.Threads {
		authors = append(authors, &out.Threads[i].Author)
	}
	if err := s.levels(ctx, authors...); err != nil {
		return nil, err
	}
	return out, nil
}

// page is one page of the list by last activity: the first also holds the
// pinned threads, which the pages leave out.
func (s *Service) page(ctx context.Context, cursor string, a *args, viewer, now string, where []string) ([]*threadRow, *string, error) {
	pinned := `(t.pinned AND (t.pinned_until IS NULL OR t.pinned_until > ` + now + `))`
	var out []*threadRow
	base := threadSelect(viewer, now) + ` WHERE ` + strings.Join(where, ` AND `)
	if cursor == "" {
		// Pinned threads are few and sorted here: with an ORDER BY, SQLite
		// walks the activity index over every thread for them instead of the
		// partial index of pinned ones (5,000 rows per page at the
		// benchmark's size).
		top, err := s.query(ctx, base+` AND `+pinned, *a...)
		if err != nil {
			return nil, nil, err
		}
		slices.SortFunc(top, func(x, y *threadRow) int {
			if c := y.LastActivityAt.Compare(x.LastActivityAt); c != 0 {
				return c
			}
			return strings.Compare(y.ID, x.ID)
		})
		out = top
	}
	q := base + ` AND NOT ` + pinned
	if cursor != "" {
		at, id, ok := parseCursor(cursor)
		if !ok {
			return nil, nil, errs.Field("cursor", "The cursor is not one this list gave.")
		}
		atArg := a.add(store.At(at))
		idArg := a.add(id)
		q += ` AND (t.last_activity_at < ` + atArg + ` OR (t.last_activity_at = ` + atArg + ` AND t.id < ` + idArg + `))`
	}
	q += fmt.Sprintf(` ORDER BY t.last_activity_at DESC, t.id DESC LIMIT %d`, PageSize+1)
	rest, err := s.query(ctx, q, *a...)
	if err != nil {
		return nil, nil, err
	}
	var next *string
	if len(rest) > PageSize {
		rest = rest[:PageSize]
		last := rest[PageSize-1]
		c := makeCursor(last.LastActivityAt, last.ID)
		next = &c
	}
	return append(out, rest...), next, nil
}

func makeCursor(at time.Time, id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(store.At(at).UTC().Format(time.RFC3339Nano) + "|" + id))
}

func parseCursor(c string) (time.Time, string, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return time.Time{}, "", false
	}
	at, id, ok := strings.Cut(string(raw), "|")
	if !ok || id == "" || !utf8.ValidString(id) || len(id) > 64 {
		return time.Time{}, "", false
	}
	t, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		return time.Time{}, "", false
	}
	return t, id, true
}

func (s *Service) query(ctx context.Context, q string, a ...any) ([]*threadRow, error) {
	rows, err := s.db.ReadRows(ctx, q, a...)
	if err != nil {
		return nil, fmt.Errorf("list threads: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []*threadRow
	for rows.Next() {
		t, err := scanThread(rows)
		if err != nil {
			return nil, fmt.Errorf("list threads: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list threads: %w", err)
	}
	return out, nil
}

func validCategory(c string) bool {
	for _, k := range Categories {
		if c == k {
			return true
		}
	}
	return false
}

// thread reads one thread as v sees it: not found when it does not exist
// or is hidden from v; free members are refused any but announcements.
func (s *Service) thread(ctx context.Context, v access.Viewer, id string) (*threadRow, error) {
	var a args
	viewer, now := a.add(v.UserID), a.add(store.At(s.now()))
	q := threadSelect(viewer, now) + ` WHERE t.id = ` + a.add(id)
	t, err := scanThread(s.db.ReadRow(ctx, q, a...))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Thread")
	}
	if err != nil {
		return nil, fmt.Errorf("read thread %s: %w", id, err)
	}
	if t.Hidden && !v.Admin && t.authorID != v.UserID {
		return nil, notFound("Thread")
	}
	if !v.SeesPaidContent() && t.Category != CategoryAnnouncement {
		return nil, ErrForMembers
	}
	t.forViewer(v)
	return t, nil
}

const replySelect = `SELECT r.id, r.thread_id, r.user_id, COALESCE(p.full_name, ''), p.avatar_url, r.body,
	r.created_at, r.edited_at,
	(SELECT COUNT(*) FROM forum_reply_reactions x WHERE x.reply_id = r.id),
	EXISTS (SELECT 1 FROM forum_reply_reactions x WHERE x.reply_id = r.id AND x.user_id = $1),
	r.hidden_reason
	FROM forum_replies r LEFT JOIN profiles p ON p.id = r.user_id`

func scanReply(row interface{ Scan(...any) error }, v access.Viewer) (*Reply, error) {
	var (
		r      Reply
		avatar sql.NullString
		reason sql.NullString
		cre    store.Time
		edited store.NullTime
	)
	if err := row.Scan(&r.ID, &r.ThreadID, &r.Author.ID, &r.Author.FullName, &avatar, &r.Body, &cre, &edited,
		&r.Reactions, &r.Reacted, &reason); err != nil {
		return nil, err
	}
	if avatar.Valid {
		r.Author.AvatarURL = &avatar.String
	}
	r.CreatedAt = cre.Time
	if edited.Valid {
		at := edited.Time.Time
		r.EditedAt = &at
	}
	r.Mine = v.UserID != "" && r.Author.ID == v.UserID
	r.Hidden = reason.Valid
	if reason.Valid && (r.Mine || v.Admin) {
		r.HiddenReason = &reason.String
	}
	return &r, nil
}

// Get is one thread with its replies (oldest first) as v sees it: hidden
// replies only for their author and admins.
func (s *Service) Get(ctx context.Context, v access.Viewer, id string) (*ThreadDetail, error) {
	t, err := s.thread(ctx, v, id)
	if err != nil {
		return nil, err
	}
	d := &ThreadDetail{Thread: t.Thread, Body: t.body, EditedAt: t.editedAt, Replies: []Reply{}}
	d.CanReply = v.SeesPaidContent() && !t.Hidden
	d.CanAccept = t.Category == CategoryQuestion && (t.Mine || v.Admin)
	rows, err := s.db.ReadRows(ctx, replySelect+` WHERE r.thread_id = $2 AND (r.hidden_at IS NULL OR r.user_id = $1 OR $3)
		ORDER BY r.created_at, r.id`, v.UserID, id, v.Admin)
	if err != nil {
		return nil, fmt.Errorf("read replies of %s: %w", id, err)
	}
	err = func() error {
		defer func() { _ = rows.Close() }()
		for rows.Next() {
			r, err := scanReply(rows, v)
			if err != nil {
				return err
			}
			r.Accepted = t.AcceptedReplyID != nil && *t.AcceptedReplyID == r.ID
			d.Replies = append(d.Replies, *r)
		}
		return rows.Err()
	}()
	if err != nil {
		return nil, fmt.Errorf("read replies of %s: %w", id, err)
	}
	if v.UserID != "" {
		if err := s.db.ReadRow(ctx, `SELECT EXISTS (SELECT 1 FROM forum_mutes WHERE thread_id = $1 AND user_id = $2)`,
			id, v.UserID).Scan(&d.Muted); err != nil {
			return nil, fmt.Errorf("read mute of %s: %w", id, err)
		}
	}
	authors := []*Author{&d.Author}
	for i := range d.Replies {
		authors = append(authors, &d.Replies[i].Author)
	}
	if err := s.levels(ctx, authors...); err != nil {
		return nil, err
	}
	return d, nil
}

// reply reads one reply as v sees it.
func (s *Service) reply(ctx context.Context, v access.Viewer, id string) (*Reply, error) {
	r, err := scanReply(s.db.ReadRow(ctx, replySelect+` WHERE r.id = $2`, v.UserID, id), v)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Reply")
	}
	if err != nil {
		return nil, fmt.Errorf("read reply %s: %w", id, err)
	}
	t, err := s.thread(ctx, v, r.ThreadID)
	if err != nil {
		return nil, err
	}
	if r.Hidden && !r.Mine && !v.Admin {
		return nil, notFound("Reply")
	}
	r.Accepted = t.AcceptedReplyID != nil && *t.AcceptedReplyID == r.ID
	if err := s.levels(ctx, &r.Author); err != nil {
		return nil, err
	}
	return r, nil
}
