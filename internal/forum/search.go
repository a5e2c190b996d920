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
// a title counting four times the text on SQLite's bm25 as kb_fts does, and
// weight A over C on PostgreSQL as kb_chunks do). A thread is found by its
// own title and body or by any reply v may see, and ranks by its best post.
func (s *Service) search(ctx context.Context, text string, a *args, viewer, now, admin string, where []string) ([]*threadRow, error) {
	terms := kb.ParseTerms(text)
	if terms.Empty() {
		return nil, nil
	}
	var q string
	if s.db.Dialect == store.Postgres {
		q = `WITH query AS (SELECT websearch_to_tsquery('english', ` + a.add(terms.Postgres()) + `) AS q),
posts AS (
    SELECT t.id AS thread_id, ts_rank_cd(t.search, query.q, 32) AS score
      FROM forum_threads t, query WHERE t.search @@ query.q
    UNION ALL
    SELECT r.thread_id, ts_rank_cd(r.search, query.q, 32)
      FROM forum_replies r, query
     WHERE r.search @@ query.q AND (r.hidden_at IS NULL OR r.user_id = ` + viewer + ` OR ` + admin + `)),
best AS (SELECT thread_id, MAX(score) AS score FROM posts GROUP BY thread_id),
` + top(where, "DESC") + strings.Replace(threadSelect(viewer, now), `FROM forum_threads t LEFT JOIN`, `FROM top b JOIN forum_threads t ON t.id = b.id LEFT JOIN`, 1) +
			` ORDER BY b.score DESC, t.id`
	} else {
		q = `WITH hits AS MATERIALIZED (
    SELECT rowid AS id, bm25(forum_fts, 4.0, 1.0) AS score FROM forum_fts WHERE forum_fts MATCH ` + a.add(terms.FTS5()) + `),
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
