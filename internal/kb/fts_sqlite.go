package kb

import (
	"context"
	"database/sql"
	"fmt"
)

// insertChunkSQLite writes a chunk and its FTS5 row (same rowid).
func insertChunkSQLite(ctx context.Context, tx *sql.Tx, docID string, ordinal int, content, title, tags string) error {
	var id int64
	if err := tx.QueryRowContext(ctx,
		`INSERT INTO kb_chunks (document_id, ordinal, content) VALUES ($1, $2, $3) RETURNING id`,
		docID, ordinal, content).Scan(&id); err != nil {
		return fmt.Errorf("insert chunk: %w", err)
	}
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO kb_fts (rowid, title, tags, body) VALUES ($1, $2, $3, $4)`, id, title, tags, content); err != nil {
		return fmt.Errorf("insert full-text row: %w", err)
	}
	return nil
}

// sqliteSearchSQL ranks chunks with bm25 (lower is better; title counts
// most, then tags, then text), keeps each document's best chunk, and reads
// the text and metadata of those alone. $1 is an FTS5 query built by
// query.fts5. bm25 cannot run inside a window function, hence the
// materialised first step.
const sqliteSearchSQL = `
WITH matched AS MATERIALIZED (
    SELECT rowid AS id, bm25(kb_fts, 4.0, 2.0, 1.0) AS score
      FROM kb_fts
     WHERE kb_fts MATCH $1),
ranked AS (
    SELECT m.id, c.document_id, m.score,
           row_number() OVER (PARTITION BY c.document_id ORDER BY m.score, m.id) AS n
      FROM matched m JOIN kb_chunks c ON c.id = m.id)
SELECT r.id, r.document_id, c.content, r.score, d.metadata
  FROM ranked r
  JOIN kb_chunks c ON c.id = r.id
  JOIN documents d ON d.id = r.document_id
 WHERE r.n = 1
 ORDER BY r.score, r.id
 LIMIT $2`

// sqliteSimilarity maps a bm25 score (negative; more negative is a better
// match) onto [matchFloor, 1) with the monotonic s/(s+k); k is about the
// score of a good match on the site's own content.
func sqliteSimilarity(bm25 float64) float64 {
	const k = 8.0
	s := max(-bm25, 0)
	return matchFloor + (1-matchFloor)*s/(s+k)
}
