package kb

import (
	"context"
	"database/sql"
	"fmt"
)

// insertChunkPostgres writes a chunk with its tsvector: the document's title
// (weight A), tags (B) and the chunk's text (C), stemmed with 'english'.
func insertChunkPostgres(ctx context.Context, tx *sql.Tx, docID string, ordinal int, content, title, tags string) error {
	if _, err := tx.ExecContext(ctx,
		`INSERT INTO kb_chunks (document_id, ordinal, content, search)
		 VALUES ($1, $2, $3, setweight(to_tsvector('english', $4), 'A') ||
		                     setweight(to_tsvector('english', $5), 'B') ||
		                     setweight(to_tsvector('english', $3), 'C'))`,
		docID, ordinal, content, title, tags); err != nil {
		return fmt.Errorf("insert chunk: %w", err)
	}
	return nil
}

// postgresSearchSQL ranks chunks the way BM25 does, since ts_rank_cd alone
// knows nothing of how rare a word is (with OR'd terms, a common word
// repeated would beat the rare word a question is about). Each term scores
// its inverse document frequency times its ts_rank_cd in the chunk (title
// weight A counting most, then tags B, then text C), saturated by
// normalisation 32 (rank/(rank+1)); a chunk's score is the sum over the
// terms it holds. The candidates are every chunk holding any term (one GIN
// lookup), so each term's document frequency is counted among them without
// another scan; the number of chunks is the statistics' estimate (counting
// them would read the whole table per query), at least the candidates. Each document keeps its best chunk, whose text and metadata
// alone are read. $1 is the terms, one websearch_to_tsquery each; $2 their
// "or" query.
const postgresSearchSQL = `
WITH terms AS MATERIALIZED (
    SELECT row_number() OVER () AS i, q
      FROM unnest($1::text[]) AS term, websearch_to_tsquery('english', term) AS q
     WHERE numnode(q) > 0),
candidates AS MATERIALIZED (
    SELECT c.id, c.document_id, c.search FROM kb_chunks c
     WHERE c.search @@ websearch_to_tsquery('english', $2)),
hits AS MATERIALIZED (
    SELECT k.id, k.document_id, t.i, ts_rank_cd(k.search, t.q, 32) AS r
      FROM candidates k JOIN terms t ON k.search @@ t.q),
df AS (SELECT i, count(*) AS n FROM hits GROUP BY i),
total AS (
    SELECT greatest(pg_stat_get_live_tuples('kb_chunks'::regclass),
                    (SELECT reltuples FROM pg_class WHERE oid = 'kb_chunks'::regclass),
                    (SELECT count(*) FROM candidates)) AS n),
scored AS (
    SELECT h.id, h.document_id, sum(ln(1 + (total.n - df.n + 0.5) / (df.n + 0.5)) * h.r) AS score
      FROM hits h JOIN df ON df.i = h.i CROSS JOIN total
     GROUP BY h.id, h.document_id),
ranked AS (
    SELECT id, document_id, score,
           row_number() OVER (PARTITION BY document_id ORDER BY score DESC, id) AS n
      FROM scored)
SELECT r.id, r.document_id, c.content, r.score, d.metadata
  FROM ranked r
  JOIN kb_chunks c ON c.id = r.id
  JOIN documents d ON d.id = r.document_id
 WHERE r.n = 1
 ORDER BY r.score DESC, r.id
 LIMIT $3`

// postgresSimilarity maps a score of postgresSearchSQL (0 and up) onto
// [matchFloor, 1) with the monotonic r/(r+k); k is about the score of a good
// match on the site's own content.
func postgresSimilarity(rank float64) float64 {
	const k = 1.0
	r := max(rank, 0)
	return matchFloor + (1-matchFloor)*r/(r+k)
}
