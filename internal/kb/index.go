package kb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"tribe/internal/store"
)

// indexChunks splits a document's content and writes its chunks and their
// full-text entries inside tx, so a document and its index change together.
func indexChunks(ctx context.Context, d store.Dialect, tx *sql.Tx, docID, content string, md Metadata) error {
	tags := strings.Join(md.Tags, " ")
	for i, chunk := range Split(content) {
		var err error
		if d == store.Postgres {
			err = insertChunkPostgres(ctx, tx, docID, i, chunk, md.Title, tags)
		} else {
			err = insertChunkSQLite(ctx, tx, docID, i, chunk, md.Title, tags)
		}
		if err != nil {
			return fmt.Errorf("index chunk %d of document %s: %w", i, docID, err)
		}
	}
	return nil
}

// matchFloor is the least similarity of a full-text match: a word found in
// most documents scores almost nothing in bm25, yet the document does hold it.
const matchFloor = 0.1

// ftsHit is one document's best chunk in a full-text ranking.
type ftsHit struct {
	chunkID    int64
	documentID string
	content    string
	metadata   Metadata
	score      float64 // similarity in [0, 1], higher is better
}

// fullText ranks documents by their best chunk for the query terms, best
// first, at most limit of them.
func (s *Service) fullText(ctx context.Context, q query, limit int) ([]ftsHit, error) {
	if len(q.terms) == 0 {
		return nil, nil
	}
	var (
		rows *sql.Rows
		err  error
	)
	// Prepared once per connection (store.ReadRows): parsing the search SQL
	// again on every query was a fifth of a search's time.
	if s.db.Dialect == store.Postgres {
		rows, err = s.db.ReadRows(ctx, postgresSearchSQL, q.postgresTerms(), q.postgres(), limit)
	} else {
		rows, err = s.db.ReadRows(ctx, sqliteSearchSQL, q.fts5(), limit)
	}
	if err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	defer func() { _ = rows.Close() }()
	var out []ftsHit
	for rows.Next() {
		var (
			h    ftsHit
			raw  float64
			meta []byte
		)
		if err := rows.Scan(&h.chunkID, &h.documentID, &h.content, &raw, &meta); err != nil {
			return nil, fmt.Errorf("full-text search: %w", err)
		}
		h.metadata = decodeMetadata(meta)
		if s.db.Dialect == store.Postgres {
			h.score = postgresSimilarity(raw)
		} else {
			h.score = sqliteSimilarity(raw)
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("full-text search: %w", err)
	}
	return out, nil
}
