package forum

import (
	"context"
	"fmt"
	"strings"

	"tribe/internal/kb"
	"tribe/internal/store"
)

// search ranks the threads v may see by a search text, with the knowledge
// base's rules (kb.ParseTerms: its terms, stop words and OR'd matching;
// a title counting four times the text on SQLite's bm25 as kb_fts does; on
// PostgreSQL the knowledge base's BM25-like sum over the terms, title
// weight A over text C). A thread is found by its
// own title and body or by any reply v may see, and ranks by its best post.
//
// Only the newest MaxRanked matching posts are ranked (on PostgreSQL, the
// newest MaxRanked threads and the newest MaxRanked replies): a search of
// words nearly every post holds would otherwise rank all of them, 105,000
// at the benchmark's size, for an answer of 50 threads. Newest first is the
// cheap order both engines walk without reading the rest: FTS5's rowids
// (forum_fts_keys counts up as posts come), and on PostgreSQL the indexes on
// last activity and on a reply's time, which the planner walks while the
// words are common and leaves for the GIN index when they are rare (then
// every match is ranked, as there are few). On SQLite bm25 still weighs
// each word by its frequency in every post; on PostgreSQL the frequency is
// counted among the ranked posts, so in a tribe of more posts than that a
// rare word still outweighs a common one, as before.
func (s *Service) search(ctx context.Context, text string, a *args, viewer, now, admin string, where []string) ([]*threadRow, error) {
	terms := kb.ParseTerms(text)
	if terms.Empty() {
		return nil, nil
	}
	ranked := fmt.Sprint(MaxRanked)
	var q string
	if s.db.Dialect == store.Postgres {
		// As the knowledge base ranks on PostgreSQL (kb's postgresSearchSQL):
		// each term scores its inverse document frequency among the posts
		// times its ts_rank_cd in the post, so a rare word a question is
		// about beats a common one repeated; a post's score is the sum over
		// the terms it holds, and a thread ranks by its best post.
		q = `WITH terms AS MATERIALIZED (
    SELECT row_number() OVER () AS i, q
      FROM unnest(` + a.add(terms.PostgresTerms()) + `::text[]) AS term, websearch_to_tsquery('english', term) AS q
     WHERE numnode(q) > 0),
query AS (SELECT websearch_to_tsquery('english', ` + a.add(terms.Postgres()) + `) AS q),
candidates AS MATERIALIZED (
    (SELECT 't' || t.id AS post, t.id AS thread_id, t.search FROM forum_threads t, query WHERE t.search @@ query.q
      ORDER BY t.last_activity_at DESC LIMIT ` + ranked + `)
    UNION ALL
    (SELECT 'r' || r.id, r.thread_id, r.search
      FROM forum_replies r, query
     WHERE r.search @@ query.q AND (r.hidden_at IS NULL OR r.user_id = ` + viewer + ` OR ` + admin + `)
     ORDER BY r.created_at DESC LIMIT ` + ranked + `)),
hits AS MATERIALIZED (
    SELECT k.post, k.thread_id, t.i, ts_rank_cd(k.search, t.q, 32) AS r
      FROM candidates k JOIN terms t ON k.search @@ t.q),
df AS (SELECT i, count(*) AS n FROM hits GROUP BY i),
total AS (
    SELECT greatest((SELECT reltuples FROM pg_class WHERE oid = 'forum_threads'::regclass) +
                    (SELECT reltuples FROM pg_class WHERE oid = 'forum_replies'::regclass),
                    (SELECT count(*) FROM candidates)) AS n),
scored AS (
    SELECT h.thread_id, h.post, sum(ln(1 + (total.n - df.n + 0.5) / (df.n + 0.5)) * h.r) AS score
      FROM hits h JOIN df ON df.i = h.i CROSS JOIN total
     GROUP BY h.thread_id, h.post),
best AS (SELECT thread_id, MAX(score) AS score FROM scored GROUP BY thread_id),
` + top(where, "DESC") + strings.Replace(threadSelect(viewer, now), `FROM forum_threads t LEFT JOIN`, `FROM top b JOIN forum_threads t ON t.id = b.id LEFT JOIN`, 1) +
			` ORDER BY b.score DESC, t.id`
	} else {
		q = `WITH hits AS MATERIALIZED (
    SELECT rowid AS id, bm25(forum_fts, 4.0, 1.0) AS score FROM forum_fts WHERE forum_fts MATCH ` + a.add(terms.FTS5()) + `
     ORDER BY rowid DESC LIMIT ` + ranked + `),
posts AS (
    SELECT COALESCE(r.thread_id, k.ref) AS thread_id, h.score
      FROM hits h JOIN forum_fts_keys k ON k.id = h.id
      LEFT JOIN forum_replies r ON k.kind = 'r' AND r.id = k.ref
     WHERE k.kind = 't' OR r.hidden_at IS NULL OR r.user_id = ` + viewer + ` OR ` + admin + `),
best AS (SELECT thread_id, MIN(score) AS score FROM posts GROUP BY thread_id),
` + top(where, "") + strings.Replace(threadSelect(viewer, now), `FROM forum_threads t LEFT JOIN`, `FROM top b JOIN forum_threads t ON t.id = b.id LEFT JOIN`, 1) +
			` ORDER BY b.score, t.id`
	}
	return s.query(ctx, q, *a...)
}

// top is the CTE of the best matches v may see, at most MaxSearchResults,
// ordered by score (dir "DESC" where higher is better): the thread rows and
// their counts are read for those alone.
func top(where []string, dir string) string {
	return `top AS (SELECT t.id, b.score FROM best b JOIN forum_threads t ON t.id = b.thread_id
     WHERE ` + strings.Join(where, ` AND `) + fmt.Sprintf(` ORDER BY b.score %s, t.id LIMIT %d)
`, dir, MaxSearchResults)
}
