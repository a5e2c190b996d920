package kb

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/errs"
	"tribe/internal/store"
)

// Limits of a document, checked before anything is written.
const (
	MaxContentBytes = 200 << 10 // 200 KB of text
	maxTitle        = 200
	maxLabel        = 60 // category and type
	maxSource       = 500
	maxTags         = 20
	maxTag          = 40
)

// Defaults of a document written by an admin.
const (
	CategoryManual = "manual"
	defaultType    = "document"
	defaultSource  = "manual"
)

// Messages of the document rules; the web app shows them as they are.
const (
	msgRequired = "Please fill in all required fields"
	msgTags     = "Tags must be a list of at most 20 words of up to 40 characters."
)

// Metadata describes a document: what it is about and where it came from.
type Metadata struct {
	Title    string   `json:"title"`
	Category string   `json:"category"`
	Type     string   `json:"type"`
	Source   string   `json:"source"`
	Tags     []string `json:"tags"`
}

// Document is one knowledge-base entry. Seeded documents come from the
// content files and are replaced when the site is re-seeded.
type Document struct {
	ID        string    `json:"id"`
	Content   string    `json:"content"`
	Metadata  Metadata  `json:"metadata"`
	Seeded    bool      `json:"seeded"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// DocumentList is one page of documents, newest first, and how many there
// are in all.
type DocumentList struct {
	Documents []Document `json:"documents"`
	Total     int        `json:"total"`
}

// SeedResult answers a seeding: how many seeded documents the knowledge base
// now holds, a message for a person, and the count per category.
type SeedResult struct {
	Count     int           `json:"count"`
	Message   string        `json:"message"`
	Breakdown SeedBreakdown `json:"breakdown"`
}

// SeedBreakdown counts seeded documents per category.
type SeedBreakdown struct {
	About     int `json:"about"`
	Services  int `json:"services"`
	Projects  int `json:"projects"`
	Stack     int `json:"stack"`
	Contact   int `json:"contact"`
	Community int `json:"community"`
}

// Input is what an admin sends to add or edit a document. Title and content
// are required; on an edit, a metadata field left out keeps its value.
type Input struct {
	Title    string    `json:"title"`
	Content  string    `json:"content"`
	Category *string   `json:"category" tstype:"string | null"`
	Type     *string   `json:"type" tstype:"string | null"`
	Source   *string   `json:"source" tstype:"string | null"`
	Tags     *[]string `json:"tags" tstype:"string[] | null"`
}

// FieldTypeMessage explains a tags value of the wrong type in the words of
// its rule.
func (in *Input) FieldTypeMessage(field string) string {
	if field == "tags" {
		return msgTags
	}
	return ""
}

// Paging of List.
const (
	DefaultPage = 50
	MaxPage     = 100
)

// validate checks in and returns the content and metadata to store, starting
// from old (the stored metadata on an edit, nil on create).
func (in Input) validate(old *Metadata) (string, Metadata, error) {
	var md Metadata
	if old != nil {
		md = *old
	} else {
		md = Metadata{Category: CategoryManual, Type: defaultType, Source: defaultSource, Tags: []string{}}
	}
	title := strings.TrimSpace(in.Title)
	content := strings.TrimSpace(in.Content)
	for _, f := range []struct{ field, value string }{{"title", title}, {"content", content}} {
		if !storable(f.value) {
			return "", md, errs.Field(f.field, "The "+f.field+" contains characters that cannot be stored.")
		}
	}
	switch {
	case title == "":
		return "", md, errs.Field("title", msgRequired)
	case content == "":
		return "", md, errs.Field("content", msgRequired)
	case utf8.RuneCountInString(title) > maxTitle:
		return "", md, errs.Field("title", "Title must be at most 200 characters.")
	case len(content) > MaxContentBytes:
		return "", md, &errs.Error{Code: errs.TooLarge, Message: "Content must be at most 200 KB.", Field: "content"}
	}
	md.Title = title
	labels := []struct {
		field string
		in    *string
		out   *string
		def   string
		max   int
	}{
		{"category", in.Category, &md.Category, CategoryManual, maxLabel},
		{"type", in.Type, &md.Type, defaultType, maxLabel},
		{"source", in.Source, &md.Source, defaultSource, maxSource},
	}
	for _, l := range labels {
		if l.in == nil {
			continue
		}
		v := strings.TrimSpace(*l.in)
		if !storable(v) || utf8.RuneCountInString(v) > l.max {
			return "", md, errs.Field(l.field, fmt.Sprintf("%s must be text of at most %d characters.", strings.ToUpper(l.field[:1])+l.field[1:], l.max))
		}
		if v == "" {
			v = l.def
		}
		*l.out = v
	}
	if in.Tags != nil {
		tags, err := cleanTags(*in.Tags)
		if err != nil {
			return "", md, err
		}
		md.Tags = tags
	}
	if md.Tags == nil {
		md.Tags = []string{}
	}
	return content, md, nil
}

// cleanTags trims tags, drops empty ones and repeats, and checks the limits.
func cleanTags(in []string) ([]string, error) {
	out := []string{}
	for _, t := range in {
		t = strings.TrimSpace(t)
		if t == "" || containsFold(out, t) {
			continue
		}
		if !storable(t) || utf8.RuneCountInString(t) > maxTag {
			return nil, errs.Field("tags", msgTags)
		}
		out = append(out, t)
	}
	if len(out) > maxTags {
		return nil, errs.Field("tags", msgTags)
	}
	return out, nil
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// storable reports whether text can be stored on both engines: PostgreSQL
// refuses NUL characters in text.
func storable(s string) bool { return utf8.ValidString(s) && !strings.ContainsRune(s, 0) }

var errNoDocument = errs.New(errs.NotFound, "Document not found.")

const documentColumns = `id, content, metadata, seed_key, created_at, updated_at`

func scanDocument(row interface{ Scan(...any) error }) (Document, error) {
	var (
		d        Document
		meta     []byte
		seedKey  sql.NullString
		cre, upd store.Time
	)
	if err := row.Scan(&d.ID, &d.Content, &meta, &seedKey, &cre, &upd); err != nil {
		return d, err
	}
	d.Metadata = decodeMetadata(meta)
	d.Seeded = seedKey.Valid
	d.CreatedAt, d.UpdatedAt = cre.Time, upd.Time
	return d, nil
}

// decodeMetadata reads stored metadata; a row written by hand with missing
// fields still reads as a complete value.
func decodeMetadata(b []byte) Metadata {
	var md Metadata
	_ = json.Unmarshal(b, &md)
	if md.Tags == nil {
		md.Tags = []string{}
	}
	return md
}

// List returns one page of documents, newest first. limit 0 means
// DefaultPage; limit and offset out of range are refused.
func (s *Service) List(ctx context.Context, limit, offset int) (DocumentList, error) {
	if limit == 0 {
		limit = DefaultPage
	}
	if limit < 1 || limit > MaxPage {
		return DocumentList{}, errs.Field("limit", fmt.Sprintf("Limit must be a whole number from 1 to %d.", MaxPage))
	}
	if offset < 0 {
		return DocumentList{}, errs.Field("offset", "Offset must be a whole number of at least 0.")
	}
	out := DocumentList{Documents: []Document{}}
	if err := s.waitSeeded(ctx); err != nil {
		return out, err
	}
	if err := s.db.Read.QueryRowContext(ctx, `SELECT count(*) FROM documents`).Scan(&out.Total); err != nil {
		return out, fmt.Errorf("count documents: %w", err)
	}
	rows, err := s.db.Read.QueryContext(ctx,
		`SELECT `+documentColumns+` FROM documents ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`, limit, offset)
	if err != nil {
		return out, fmt.Errorf("list documents: %w", err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		d, err := scanDocument(rows)
		if err != nil {
			return out, fmt.Errorf("list documents: %w", err)
		}
		out.Documents = append(out.Documents, d)
	}
	if err := rows.Err(); err != nil {
		return out, fmt.Errorf("list documents: %w", err)
	}
	return out, nil
}

// Get returns one document, not_found when there is none.
func (s *Service) Get(ctx context.Context, id string) (Document, error) {
	if err := s.waitSeeded(ctx); err != nil {
		return Document{}, err
	}
	return getDocument(ctx, s.db.Read, id)
}

type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func getDocument(ctx context.Context, q queryer, id string) (Document, error) {
	d, err := scanDocument(q.QueryRowContext(ctx, `SELECT `+documentColumns+` FROM documents WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return d, errNoDocument
	}
	if err != nil {
		return d, fmt.Errorf("read document %s: %w", id, err)
	}
	return d, nil
}

// Create stores a new document and its chunks in one transaction; bad input
// writes nothing.
func (s *Service) Create(ctx context.Context, in Input) (Document, error) {
	content, md, err := in.validate(nil)
	if err != nil {
		return Document{}, err
	}
	id := store.NewID()
	var d Document
	err = s.db.Tx(ctx, func(tx *sql.Tx) error {
		if err := insertDocument(ctx, s.db.Dialect, tx, id, "", content, md, store.Now()); err != nil {
			return err
		}
		d, err = getDocument(ctx, tx, id)
		return err
	})
	if err != nil {
		return Document{}, fmt.Errorf("create document: %w", err)
	}
	s.changed(ctx)
	return d, nil
}

// Update replaces a document's title and content (and any metadata given)
// and rebuilds its chunks, in one transaction.
func (s *Service) Update(ctx context.Context, id string, in Input) (Document, error) {
	var d Document
	err := s.db.Tx(ctx, func(tx *sql.Tx) error {
		old, err := getDocument(ctx, tx, id)
		if err != nil {
			return err
		}
		content, md, err := in.validate(&old.Metadata)
		if err != nil {
			return err
		}
		if err := updateDocument(ctx, s.db.Dialect, tx, id, content, md, store.Now()); err != nil {
			return err
		}
		d, err = getDocument(ctx, tx, id)
		return err
	})
	if err != nil {
		if errs.CodeOf(err) != errs.Internal {
			return Document{}, err
		}
		return Document{}, fmt.Errorf("update document: %w", err)
	}
	s.changed(ctx)
	return d, nil
}

// Delete removes a document and its chunks.
func (s *Service) Delete(ctx context.Context, id string) error {
	res, err := s.db.Write.ExecContext(ctx, `DELETE FROM documents WHERE id = $1`, id)
	if err != nil {
		return fmt.Errorf("delete document %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return errNoDocument
	}
	s.changed(ctx)
	return nil
}

// insertDocument writes a document row and its chunks inside tx.
func insertDocument(ctx context.Context, d store.Dialect, tx *sql.Tx, id, seedKey, content string, md Metadata, now store.Time) error {
	meta, err := json.Marshal(md)
	if err != nil {
		return fmt.Errorf("encode metadata: %w", err)
	}
	var key *string
	if seedKey != "" {
		key = &seedKey
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO documents (id, content, metadata, seed_key, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)`,
		id, content, string(meta), key, now); err != nil {
		return fmt.Errorf("insert document: %w", err)
	}
	return indexChunks(ctx, d, tx, id, content, md)
}

// updateDocument rewrites a document row and replaces its chunks inside tx.
func updateDocument(ctx context.Context, d store.Dialect, tx *sql.Tx, id, content string, md Metadata, now store.Time) error {
	meta, err := json.Marshal(md)
	if err != nil {
		return fmt.Errorf("encode metadata: %w", err)
	}
	if _, err := tx.ExecContext(ctx,
		`UPDATE documents SET content = $1, metadata = $2, updated_at = $3 WHERE id = $4`,
		content, string(meta), now, id); err != nil {
		return fmt.Errorf("update document: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM kb_chunks WHERE document_id = $1`, id); err != nil {
		return fmt.Errorf("drop old chunks: %w", err)
	}
	return indexChunks(ctx, d, tx, id, content, md)
}
