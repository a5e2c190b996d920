package kb

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"tribe/internal/store"
)

// Pruning of common words. A word found in a large share of the chunks
// tells documents apart hardly at all (bm25 gives a word in over half of
// them no weight), yet matching it makes the engine score most of the
// index. On a large knowledge base such words are left out of the match
// while rarer words of the query remain; on a small one pruning would save
// nothing and is skipped.
const (
	pruneMinChunks = 2000
	pruneShare     = 0.25 // a word in more than this share of chunks is common
	pruneKeep      = 2    // when every word is common, the rarest ones kept
	statsTTL       = time.Minute
)

// termStats caches how many chunks hold each word, and how many chunks
// there are, for pruning. Counts go stale by up to statsTTL (or until a
// local change clears them); that only moves the line between common and
// rare words a little.
type termStats struct {
	mu    sync.Mutex
	at    time.Time
	total int
	df    map[string]int
}

// reset forgets every count, after a change to the knowledge base.
func (t *termStats) reset() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.at = time.Time{}
}

// prune leaves the common words out of q when the knowledge base is large
// and rarer words remain.
func (s *Service) prune(ctx context.Context, q query) (query, error) {
	words := append(append([]string(nil), q.terms...), q.extra...)
	if len(words) < 2 {
		return q, nil
	}
	total, df, err := s.docFreq(ctx, words)
	if err != nil || total < s.pruneMin {
		return q, err
	}
	limit := int(pruneShare * float64(total))
	keep := map[string]bool{}
	for _, w := range words {
		if df[w] > 0 && df[w] <= limit {
			keep[w] = true
		}
	}
	if len(keep) == 0 {
		byFreq := slices.Clone(words)
		slices.SortStableFunc(byFreq, func(a, b string) int { return df[a] - df[b] })
		for _, w := range byFreq[:min(pruneKeep, len(byFreq))] {
			keep[w] = true
		}
	}
	out := query{}
	for _, w := range q.terms {
		if keep[w] {
			out.terms = append(out.terms, w)
		}
	}
	for _, w := range q.extra {
		if keep[w] {
			out.extra = append(out.extra, w)
		}
	}
	if len(out.terms) == 0 && len(out.extra) == 0 {
		return q, nil
	}
	return out, nil
}

// docFreq returns the number of chunks and, for each word, how many chunks
// hold it, from the cache where it can.
func (s *Service) docFreq(ctx context.Context, words []string) (int, map[string]int, error) {
	t := &s.stats
	t.mu.Lock()
	defer t.mu.Unlock()
	if time.Since(t.at) > statsTTL {
		if err := s.db.Read.QueryRowContext(ctx, `SELECT count(*) FROM kb_chunks`).Scan(&t.total); err != nil {
			return 0, nil, fmt.Errorf("count chunks: %w", err)
		}
		t.at, t.df = time.Now(), map[string]int{}
	}
	out := make(map[string]int, len(words))
	if t.total < s.pruneMin {
		return t.total, out, nil
	}
	for _, w := range words {
		n, ok := t.df[w]
		if !ok {
			var err error
			if s.db.Dialect == store.Postgres {
				err = s.db.Read.QueryRowContext(ctx,
					`SELECT count(*) FROM kb_chunks WHERE search @@ websearch_to_tsquery('english', $1)`, w).Scan(&n)
			} else {
				err = s.db.Read.QueryRowContext(ctx,
					`SELECT count(*) FROM kb_fts WHERE kb_fts MATCH $1`, query{terms: []string{w}}.fts5()).Scan(&n)
			}
			if err != nil {
				return 0, nil, fmt.Errorf("count chunks holding %q: %w", w, err)
			}
			t.df[w] = n
		}
		out[w] = n
	}
	return t.total, out, nil
}
