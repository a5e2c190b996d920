package library

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/levels"
	"tribe/internal/store"
)

// UnmarshalJSON reads the input and remembers which fields it named, so a
// PATCH can tell null (clear it) from absent (keep it).
func (in *ItemInput) UnmarshalJSON(b []byte) error {
	type plain ItemInput
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(b, &keys); err != nil {
		return err
	}
	*in = ItemInput(p)
	in.set = make(map[string]bool, len(keys))
	for k := range keys {
		in.set[k] = true
	}
	return nil
}

// FieldTypeMessage explains a value of the wrong type in the words of its
// rule.
func (in *ItemInput) FieldTypeMessage(field string) string {
	switch field {
	case "tags":
		return fmt.Sprintf("Tags must be a list of at most %d words of up to %d characters.", MaxTags, MaxTag)
	case "chapters":
		return `Chapters must be a list of {"start_s": seconds, "title": text}.`
	case "duration_s":
		return "The duration must be a whole number of seconds."
	case "min_level":
		return "The level must be a whole number from 0 (none) to 5."
	case "published_at":
		return "The publication time must be a date and time such as 2026-12-01T18:00:00Z, or null."
	}
	return ""
}

// named reports whether the JSON named field (a created item names them all).
func (in *ItemInput) named(field string) bool { return in.set == nil || in.set[field] }

// row is an item as stored.
type row struct {
	id, kind, title, description string
	sessionID                    sql.NullString
	tags                         []string
	durationS, minLevel          int
	publishedAt                  store.NullTime
	mediaKey, mediaType          sql.NullString
	mediaSize                    sql.NullInt64
	url, body                    string
	chapters                     []Chapter
	transcript                   []Cue // nil when none
	hasTranscript                bool
}

// published reports whether members see the row at now.
func (r *row) published(now time.Time) bool {
	return r.publishedAt.Valid && !r.publishedAt.Time.Time.After(now)
}

// apply checks in and writes it over r (a new row starts empty). Each
// refusal names its field.
func (in *ItemInput) apply(r *row, creating bool) error {
	if creating {
		if in.Kind == nil {
			return errs.Field("kind", "Choose a kind: recording, material, lesson or link.")
		}
		if in.Title == nil {
			return errs.Field("title", "Please give the item a title.")
		}
	}
	if in.Kind != nil {
		k := strings.TrimSpace(*in.Kind)
		if !slices.Contains([]string{KindRecording, KindMaterial, KindLesson, KindLink}, k) {
			return errs.Field("kind", "The kind must be recording, material, lesson or link.")
		}
		r.kind = k
	}
	if in.Title != nil {
		t := strings.TrimSpace(*in.Title)
		if t == "" || utf8.RuneCountInString(t) > MaxTitle || !storable(t) {
			return errs.Field("title", fmt.Sprintf("The title must be 1 to %d characters.", MaxTitle))
		}
		r.title = t
	}
	if in.Description != nil {
		d := strings.TrimSpace(*in.Description)
		if utf8.RuneCountInString(d) > MaxDescription || !storable(d) {
			return errs.Field("description", fmt.Sprintf("The description must be at most %d characters.", MaxDescription))
		}
		r.description = d
	}
	if in.named("session_id") {
		r.sessionID = sql.NullString{}
		if in.SessionID != nil && strings.TrimSpace(*in.SessionID) != "" {
			r.sessionID = sql.NullString{String: strings.TrimSpace(*in.SessionID), Valid: true}
		}
	}
	if in.Tags != nil {
		tags, err := cleanTags(*in.Tags)
		if err != nil {
			return err
		}
		r.tags = tags
	}
	if in.DurationS != nil {
		if *in.DurationS < 0 || *in.DurationS > MaxDuration {
			return errs.Field("duration_s", fmt.Sprintf("The duration must be 0 to %d seconds.", MaxDuration))
		}
		r.durationS = *in.DurationS
	}
	if in.MinLevel != nil {
		if *in.MinLevel < 0 || *in.MinLevel > len(levels.Table) {
			return errs.Field("min_level", fmt.Sprintf("The level must be 0 (none) to %d.", len(levels.Table)))
		}
		r.minLevel = *in.MinLevel
	}
	if in.named("published_at") {
		r.publishedAt = store.NullTime{}
		if in.PublishedAt != nil {
			r.publishedAt = store.NullTime{Time: store.At(*in.PublishedAt), Valid: true}
		}
	}
	if in.URL != nil {
		u := strings.TrimSpace(*in.URL)
		if u != "" {
			p, err := url.Parse(u)
			if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" || len(u) > MaxURL || !storable(u) {
				return errs.Field("url", "The link must be an http or https address.")
			}
		}
		r.url = u
	}
	if in.Body != nil {
		b := strings.TrimSpace(*in.Body)
		if utf8.RuneCountInString(b) > MaxBody || !storable(b) {
			return errs.Field("body", fmt.Sprintf("The lesson must be at most %d characters.", MaxBody))
		}
		r.body = b
	}
	if in.Chapters != nil {
		ch, err := cleanChapters(*in.Chapters)
		if err != nil {
			return err
		}
		r.chapters = ch
	}
	if r.kind == KindLink && r.url == "" {
		return errs.Field("url", "A link needs its address.")
	}
	if r.durationS > 0 {
		for i, c := range r.chapters {
			if c.StartS > r.durationS {
				return errs.Field("chapters", fmt.Sprintf("Chapter %d starts after the end of the recording.", i+1))
			}
		}
	}
	return nil
}

// cleanTags trims tags, drops empty and repeated ones (ignoring case) and
// checks the limits.
func cleanTags(in []string) ([]string, error) {
	out := []string{}
	for _, t := range in {
		t = strings.TrimSpace(t)
		if t == "" || slices.ContainsFunc(out, func(o string) bool { return strings.EqualFold(o, t) }) {
			continue
		}
		if utf8.RuneCountInString(t) > MaxTag || !storable(t) {
			return nil, errs.Field("tags", fmt.Sprintf("Each tag must be at most %d characters.", MaxTag))
		}
		out = append(out, t)
	}
	if len(out) > MaxTags {
		return nil, errs.Field("tags", fmt.Sprintf("Give at most %d tags.", MaxTags))
	}
	return out, nil
}

// cleanChapters checks chapters and orders them by their start.
func cleanChapters(in []Chapter) ([]Chapter, error) {
	if len(in) > MaxChapters {
		return nil, errs.Field("chapters", fmt.Sprintf("Give at most %d chapters.", MaxChapters))
	}
	out := make([]Chapter, 0, len(in))
	for i, c := range in {
		c.Title = strings.TrimSpace(c.Title)
		if c.Title == "" || utf8.RuneCountInString(c.Title) > MaxTitle || !storable(c.Title) {
			return nil, errs.Field("chapters", fmt.Sprintf("Chapter %d needs a title of 1 to %d characters.", i+1, MaxTitle))
		}
		if c.StartS < 0 || c.StartS > MaxDuration {
			return nil, errs.Field("chapters", fmt.Sprintf("Chapter %d must start 0 to %d seconds in.", i+1, MaxDuration))
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b Chapter) int { return a.StartS - b.StartS })
	return out, nil
}

// storable reports whether text can be kept (PostgreSQL text holds no NUL).
func storable(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

// checkSession refuses a session_id that names no session.
func checkSession(ctx context.Context, tx *sql.Tx, r *row) error {
	if !r.sessionID.Valid {
		return nil
	}
	var one int
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM live_sessions WHERE id = $1`, r.sessionID.String).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return errs.Field("session_id", "No session has this id.")
	}
	return err
}

// encode is v as JSON text for a column.
func encode(v any) string {
	b, _ := json.Marshal(v) // slices of plain structs always encode
	return string(b)
}

// Create adds an item (admins).
func (s *Service) Create(ctx context.Context, v access.Viewer, in ItemInput) (*ItemDetail, error) {
	if !v.Admin {
		return nil, ErrForAdmins
	}
	in.set = nil // every field of a new item counts as named
	r := row{tags: []string{}, chapters: []Chapter{}}
	if err := in.apply(&r, true); err != nil {
		return nil, err
	}
	r.id = store.NewID()
	now := store.At(s.o.Clock())
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := checkSession(ctx, tx, &r); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO library_items
			(id, kind, title, description, session_id, tags, duration_s, min_level, published_at, url, body, chapters, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)`,
			r.id, r.kind, r.title, r.description, r.sessionID, encode(r.tags), r.durationS, r.minLevel,
			r.publishedAt, r.url, r.body, encode(r.chapters), now)
		return err
	})
	if err != nil {
		return nil, wrap("create library item", err)
	}
	s.announce(ctx, &r)
	return s.Get(ctx, v, r.id)
}

// Update changes an item (admins); fields left out keep their value.
// Publishing or unpublishing a recording with a transcript updates the
// knowledge base.
func (s *Service) Update(ctx context.Context, v access.Viewer, id string, in ItemInput) (*ItemDetail, error) {
	if !v.Admin {
		return nil, ErrForAdmins
	}
	if len(in.set) == 0 {
		return nil, errNoChange
	}
	var r *row
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		var err error
		if r, err = loadRow(ctx, tx, id, true); err != nil {
			return err
		}
		if err := in.apply(r, false); err != nil {
			return err
		}
		if err := checkSession(ctx, tx, r); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `UPDATE library_items SET kind = $1, title = $2, description = $3, session_id = $4,
			tags = $5, duration_s = $6, min_level = $7, published_at = $8, url = $9, body = $10, chapters = $11, updated_at = $12
			WHERE id = $13`,
			r.kind, r.title, r.description, r.sessionID, encode(r.tags), r.durationS, r.minLevel, r.publishedAt,
			r.url, r.body, encode(r.chapters), store.At(s.o.Clock()), id)
		return err
	})
	if err != nil {
		return nil, wrap("update library item", err)
	}
	s.reindex(ctx, r)
	s.announce(ctx, r)
	return s.Get(ctx, v, id)
}

// Delete removes an item, its progress, its stored file and its passages
// in the knowledge base (admins).
func (s *Service) Delete(ctx context.Context, v access.Viewer, id string) error {
	if !v.Admin {
		return ErrForAdmins
	}
	var key sql.NullString
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT media_key FROM library_items WHERE id = $1`, id).Scan(&key)
		if errors.Is(err, sql.ErrNoRows) {
			return errNotFound
		}
		if err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `DELETE FROM library_items WHERE id = $1`, id)
		return err
	})
	if err != nil {
		return wrap("delete library item", err)
	}
	if s.o.Index != nil {
		if err := s.o.Index.RemoveReplay(ctx, id); err != nil {
			return fmt.Errorf("remove the replay's passages: %w", err)
		}
	}
	if key.Valid {
		// The row is gone, so nothing serves the file any more; a failed
		// delete leaves an object no row names, which the sweeper removes.
		if err := s.o.Files.Delete(ctx, key.String); err != nil {
			s.o.Logger.Warn("library file not deleted; the sweeper will", "key", key.String, "err", err)
		}
	}
	return nil
}

// wrap passes a person's refusal through and labels anything else.
func wrap(what string, err error) error {
	var e *errs.Error
	if errors.As(err, &e) {
		return e
	}
	return fmt.Errorf("%s: %w", what, err)
}

// columns are what loadRow reads, in scan order.
const columns = `id, kind, title, description, session_id, tags, duration_s, min_level, published_at,
	media_key, media_type, media_size, url, body, chapters, transcript IS NOT NULL`

// listColumns are what the list shows: no file key, link, lesson body,
// chapters or transcript, which only an opened item needs.
const listColumns = `i.id, i.kind, i.title, i.description, i.session_id, i.tags, i.duration_s, i.min_level, i.published_at,
	i.media_key IS NOT NULL, i.transcript IS NOT NULL`

type scanner interface {
	Scan(dest ...any) error
}

type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// loadRow reads one item, with its transcript when withTranscript.
func loadRow(ctx context.Context, q querier, id string, withTranscript bool) (*row, error) {
	cols := columns
	if withTranscript {
		cols += ", transcript"
	}
	r, err := scanRow(q.QueryRowContext(ctx, `SELECT `+cols+` FROM library_items WHERE id = $1`, id), withTranscript)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNotFound
	}
	return r, err
}

func scanRow(sc scanner, withTranscript bool) (*row, error) {
	var r row
	var tags, chapters string
	var transcript sql.NullString
	dest := []any{&r.id, &r.kind, &r.title, &r.description, &r.sessionID, &tags, &r.durationS, &r.minLevel,
		&r.publishedAt, &r.mediaKey, &r.mediaType, &r.mediaSize, &r.url, &r.body, &chapters, &r.hasTranscript}
	if withTranscript {
		dest = append(dest, &transcript)
	}
	if err := sc.Scan(dest...); err != nil {
		return nil, err
	}
	if err := errors.Join(decode(tags, &r.tags), decode(chapters, &r.chapters)); err != nil {
		return nil, fmt.Errorf("library item %s: %w", r.id, err)
	}
	if transcript.Valid {
		if err := decode(transcript.String, &r.transcript); err != nil {
			return nil, fmt.Errorf("library item %s transcript: %w", r.id, err)
		}
	}
	return &r, nil
}

// decode reads a JSON column, leaving empty lists rather than null.
func decode[T any](text string, dst *[]T) error {
	if err := json.Unmarshal([]byte(text), dst); err != nil {
		return err
	}
	if *dst == nil {
		*dst = []T{}
	}
	return nil
}

// standing is what a viewer may open: admins everything, members up to
// their level's rank, others nothing.
type standing struct {
	admin, member bool
	rank          int
}

func (s *Service) standingOf(ctx context.Context, v access.Viewer) (standing, error) {
	st := standing{admin: v.Admin, member: v.Member, rank: 1}
	if v.Admin || !v.Member || s.o.LevelOf == nil {
		return st, nil
	}
	name, err := s.o.LevelOf(ctx, v.UserID)
	if err != nil {
		return st, fmt.Errorf("level of %s: %w", v.UserID, err)
	}
	if r := levels.RankOf(name); r > 0 {
		st.rank = r
	}
	return st, nil
}

// lock says whether st may open an item asking for minLevel, and why not.
func (st standing) lock(minLevel int) (bool, string) {
	switch {
	case st.admin:
		return false, ""
	case !st.member:
		return true, LockMembership
	case minLevel > st.rank:
		return true, LockLevel
	}
	return false, ""
}

// item is r as st sees it in a list.
func (r *row) item(st standing, p Progress) Item {
	it := Item{ID: r.id, Kind: r.kind, Title: r.title, Description: r.description, Tags: r.tags,
		DurationS: r.durationS, MinLevel: r.minLevel, RequiredLevel: levelName(r.minLevel),
		Progress: p, HasTranscript: r.hasTranscript, HasMedia: r.mediaKey.Valid}
	if r.sessionID.Valid {
		it.SessionID = &r.sessionID.String
	}
	if r.publishedAt.Valid {
		t := r.publishedAt.Time.Time
		it.PublishedAt = &t
	}
	it.Locked, it.LockReason = st.lock(r.minLevel)
	return it
}

// ListQuery filters the list: by kind, tag (exact, ignoring case), session
// and words in the title, description or tags.
type ListQuery struct {
	Kind, Tag, SessionID, Q string
}

// List answers the library as v sees it, newest first.
func (s *Service) List(ctx context.Context, v access.Viewer, q ListQuery) (*ItemList, error) {
	if v.Anonymous() {
		return nil, errNotSignedIn
	}
	if q.Kind != "" && !slices.Contains([]string{KindRecording, KindMaterial, KindLesson, KindLink}, q.Kind) {
		return nil, errs.Field("kind", "The kind must be recording, material, lesson or link.")
	}
	if utf8.RuneCountInString(q.Q) > MaxQuery {
		return nil, errs.Field("q", fmt.Sprintf("The search must be at most %d characters.", MaxQuery))
	}
	st, err := s.standingOf(ctx, v)
	if err != nil {
		return nil, err
	}
	query := `SELECT ` + listColumns + `, p.position_s, p.completed FROM library_items i
		LEFT JOIN library_progress p ON p.item_id = i.id AND p.user_id = $1 WHERE 1 = 1`
	args := []any{v.UserID}
	if !st.admin {
		args = append(args, store.At(s.o.Clock()))
		query += fmt.Sprintf(` AND i.published_at IS NOT NULL AND i.published_at <= $%d`, len(args))
	}
	if q.Kind != "" {
		args = append(args, q.Kind)
		query += fmt.Sprintf(` AND i.kind = $%d`, len(args))
	}
	if q.SessionID != "" {
		args = append(args, q.SessionID)
		query += fmt.Sprintf(` AND i.session_id = $%d`, len(args))
	}
	query += ` ORDER BY COALESCE(i.published_at, i.created_at) DESC, i.id`
	// A handful of query texts (one per combination of filters), each
	// prepared once: parsing the SQL again was a tenth of the list's time.
	rows, err := s.db.ReadRows(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list library: %w", err)
	}
	defer func() { _ = rows.Close() }()
	words := strings.Fields(strings.ToLower(q.Q))
	out := &ItemList{Items: []Item{}}
	for rows.Next() {
		var pos sql.NullInt64
		var done sql.NullBool
		var r row
		var tags string
		var hasMedia bool
		if err := rows.Scan(&r.id, &r.kind, &r.title, &r.description, &r.sessionID, &tags, &r.durationS, &r.minLevel,
			&r.publishedAt, &hasMedia, &r.hasTranscript, &pos, &done); err != nil {
			return nil, fmt.Errorf("list library: %w", err)
		}
		if err := decode(tags, &r.tags); err != nil {
			return nil, fmt.Errorf("library item %s: %w", r.id, err)
		}
		if hasMedia {
			r.mediaKey.Valid = true // the list says whether there is one, never which
		}
		if !r.matches(q.Tag, words) {
			continue
		}
		out.Items = append(out.Items, r.item(st, Progress{PositionS: int(pos.Int64), Completed: done.Bool}))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list library: %w", err)
	}
	return out, nil
}

// matches reports whether r has the tag (when given) and every word.
func (r *row) matches(tag string, words []string) bool {
	if tag != "" && !slices.ContainsFunc(r.tags, func(t string) bool { return strings.EqualFold(t, tag) }) {
		return false
	}
	if len(words) == 0 {
		return true
	}
	text := strings.ToLower(r.title + "\n" + r.description + "\n" + strings.Join(r.tags, "\n"))
	for _, w := range words {
		if !strings.Contains(text, w) {
			return false
		}
	}
	return true
}

// Get answers one item as v sees it: locked, it shows what the list shows;
// open, its media address, link, lesson, chapters and transcript.
func (s *Service) Get(ctx context.Context, v access.Viewer, id string) (*ItemDetail, error) {
	if v.Anonymous() {
		return nil, errNotSignedIn
	}
	r, err := loadRow(ctx, s.db.Read, id, true)
	if err != nil {
		return nil, wrap("read library item", err)
	}
	if !v.Admin && !r.published(s.o.Clock()) {
		return nil, errNotFound
	}
	st, err := s.standingOf(ctx, v)
	if err != nil {
		return nil, err
	}
	p, err := s.progressOf(ctx, s.db.Read, v.UserID, id)
	if err != nil {
		return nil, err
	}
	d := &ItemDetail{Item: r.item(st, p), Chapters: []Chapter{}, Transcript: []Cue{}}
	if d.Locked {
		return d, nil
	}
	if r.mediaKey.Valid {
		d.MediaURL = "/api/library/" + r.id + "/media"
		d.MediaType, d.MediaSize = r.mediaType.String, r.mediaSize.Int64
	}
	d.URL, d.EmbedURL = r.url, EmbedURL(r.url)
	d.Body, d.Chapters = r.body, r.chapters
	if r.transcript != nil {
		d.Transcript = r.transcript
	}
	return d, nil
}

// openable loads an item v may open (published, unlocked), or the refusal
// that says why not. Unpublished items do not exist for members.
func (s *Service) openable(ctx context.Context, v access.Viewer, id string) (*row, error) {
	if v.Anonymous() {
		return nil, errNotSignedIn
	}
	r, err := loadRow(ctx, s.db.Read, id, false)
	if err != nil {
		return nil, wrap("read library item", err)
	}
	if !v.Admin && !r.published(s.o.Clock()) {
		return nil, errNotFound
	}
	st, err := s.standingOf(ctx, v)
	if err != nil {
		return nil, err
	}
	if locked, why := st.lock(r.minLevel); locked {
		if why == LockLevel {
			return nil, levelLocked(r.minLevel)
		}
		return nil, ErrLocked
	}
	return r, nil
}
