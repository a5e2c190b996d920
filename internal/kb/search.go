package kb

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"tribe/internal/errs"
)

// Search limits.
const (
	DefaultResults = 5
	MaxResults     = 20
	MaxQueryLength = 1000 // characters
)

// How Search ranked its results.
const (
	RankingFullText = "full_text"
	RankingHybrid   = "hybrid"
)

// Fusion parameters. rrfK is the usual constant of reciprocal rank fusion:
// it keeps one list's first place from outweighing agreement between both.
// Each list contributes up to fuseDepth documents.
const (
	rrfK      = 60
	fuseDepth = 50
	// queryEmbedTimeout bounds the embedding API call of one search; past it
	// the search answers from full text alone rather than keep a person waiting.
	queryEmbedTimeout = 5 * time.Second
)

// Results answers a search: the best documents first, and how they were
// ranked (RankingFullText or RankingHybrid).
type Results struct {
	Results []Result `json:"results"`
	Ranking string   `json:"ranking"`
	// Coverage is the share of the question's words (common words aside)
	// found in the best full-text match, 0 when no word matched anything:
	// what Weak reads. Similarities are no measure of it: a passage that is
	// all about one word of four scores high, and a hybrid ranking's
	// similarities are relative to its own first place.
	Coverage float64 `json:"-"`
}

// WeakMatch is the least Coverage of an answered question: when fewer than
// half of its words are in the best passage ("quantum basket weaving
// workshops" finds a passage on workshops and nothing else), the knowledge
// base has no answer to it.
const WeakMatch = 0.5

// Weak reports whether the knowledge base has no good answer to the search.
func (r Results) Weak() bool { return r.Coverage < WeakMatch }

// Result is one document found: its best-matching chunk, its metadata and a
// similarity in [0, 1] (higher is better; results are ordered by it).
type Result struct {
	Content    string   `json:"content"`
	Metadata   Metadata `json:"metadata"`
	Similarity float64  `json:"similarity"`
	DocumentID string   `json:"-"`
}

// Search finds the documents that best answer query, at most limit of them
// (0 means DefaultResults). Each document appears once, with its
// best-matching chunk. With an embedding model it fuses full-text and vector
// rankings (reciprocal rank fusion); without one, or when the embedding API
// fails, it ranks by full text alone and says so in Ranking.
func (s *Service) Search(ctx context.Context, query string, limit int) (Results, error) {
	text := strings.TrimSpace(query)
	switch {
	case text == "":
		return Results{}, errs.Field("query", "Please enter a search query.")
	case !utf8.ValidString(text):
		return Results{}, errs.Field("query", "The search query contains characters that cannot be read.")
	case utf8.RuneCountInString(text) > MaxQueryLength:
		return Results{}, errs.Field("query", fmt.Sprintf("The search query must be at most %d characters.", MaxQueryLength))
	}
	if limit == 0 {
		limit = DefaultResults
	}
	if limit < 1 || limit > MaxResults {
		return Results{}, errs.Field("limit", fmt.Sprintf("Limit must be a whole number from 1 to %d.", MaxResults))
	}
	if err := s.waitSeeded(ctx); err != nil {
		return Results{}, err
	}
	key := resultKey{query: text, limit: limit}
	res, gen, ok := s.results.get(key, time.Now())
	if ok {
		return res, nil
	}
	res, err := s.search(ctx, text, limit)
	if err != nil {
		return Results{}, err
	}
	s.results.put(key, gen, res, time.Now())
	return res, nil
}

// search runs a checked query against the index.
func (s *Service) search(ctx context.Context, text string, limit int) (Results, error) {
	q, err := s.prune(ctx, parseQuery(text))
	if err != nil {
		return Results{}, err
	}

	if vec := s.queryVector(ctx, text); vec != nil {
		if res, ok, err := s.hybrid(ctx, q, vec, limit); err != nil || ok {
			return res, err
		}
	}
	hits, err := s.fullText(ctx, q, limit)
	if err != nil {
		return Results{}, err
	}
	out := Results{Results: make([]Result, 0, len(hits)), Ranking: RankingFullText}
	out.Coverage = coverage(q, hits)
	for _, h := range hits {
		out.Results = append(out.Results, Result{Content: h.content, Metadata: h.metadata, Similarity: h.score, DocumentID: h.documentID})
	}
	return out, nil
}

// queryVector embeds the query, or returns nil when there is no embedding
// model, no vector has been stored yet, or the API does not answer in time.
func (s *Service) queryVector(ctx context.Context, text string) []float32 {
	if s.embedder == nil {
		return nil
	}
	if err := s.ensureVectors(ctx); err != nil {
		s.logger.Warn("knowledge base: vector index unavailable; searching full text only", "err", err)
		return nil
	}
	if s.vectors.Len() == 0 {
		return nil
	}
	if v, ok := s.queries.get(text); ok {
		return v
	}
	ctx, cancel := context.WithTimeout(ctx, queryEmbedTimeout)
	defer cancel()
	vecs, err := s.embedder.Embed(ctx, []string{text})
	if err != nil {
		if ctx.Err() == nil || ctx.Err() == context.DeadlineExceeded {
			s.logger.Warn("knowledge base: query not embedded; searching full text only", "err", err)
		}
		return nil
	}
	s.queries.put(text, vecs[0])
	return vecs[0]
}

// ensureVectors loads the vector index the first time it is needed in a
// process where the worker has not loaded it yet.
func (s *Service) ensureVectors(ctx context.Context) error {
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	if s.loaded {
		return nil
	}
	if err := s.vectors.Sync(ctx); err != nil {
		return err // tried again by the next search
	}
	s.loaded = true
	return nil
}

// hybrid fuses the full-text and vector rankings. ok is false when the
// vector side found nothing, so the caller answers from full text alone.
func (s *Service) hybrid(ctx context.Context, q query, vec []float32, limit int) (Results, bool, error) {
	// The database ranks by full text while this process ranks by vector.
	var (
		text    []ftsHit
		textErr error
		wg      sync.WaitGroup
	)
	wg.Go(func() { text, textErr = s.fullText(ctx, q, fuseDepth) })
	near, err := s.vectors.Nearest(ctx, vec, 4*fuseDepth)
	wg.Wait()
	if err != nil {
		s.logger.Warn("knowledge base: vector ranking failed; searching full text only", "err", err)
		return Results{}, false, nil
	}
	if len(near) == 0 {
		return Results{}, false, nil
	}
	if textErr != nil {
		return Results{}, false, textErr
	}
	ranking := fuse(text, near, fuseDepth)
	// Read the chunks of the documents found by vector alone near the top,
	// with some to spare for chunks deleted since the index saw them.
	chunks, err := chunkText(ctx, s.db.Read, vectorOnly(ranking[:min(len(ranking), limit+fuseDepth/5)]))
	if err != nil {
		return Results{}, false, err
	}
	return Results{Results: fusedResults(ranking, chunks, limit), Ranking: RankingHybrid, Coverage: coverage(q, text)}, true, nil
}

// coverage is the share of q's terms that the first of hits contains. A
// term counts when the passage holds its stem (an -ing, -ed, -es or -s cut,
// then at most five letters), so "pricing" is found in "price" and
// "sessions" in "session", as the full-text index's stemming finds them.
func coverage(q query, hits []ftsHit) float64 {
	if len(hits) == 0 || len(q.terms) == 0 {
		return 0
	}
	text := strings.ToLower(hits[0].content + " " + hits[0].metadata.Title)
	found := 0
	for _, t := range q.terms {
		for _, suffix := range []string{"ing", "ed", "es", "s"} {
			if base, ok := strings.CutSuffix(t, suffix); ok && utf8.RuneCountInString(base) >= 3 {
				t = base
				break
			}
		}
		if r := []rune(t); len(r) > 5 {
			t = string(r[:5])
		}
		if strings.Contains(text, t) {
			found++
		}
	}
	return float64(found) / float64(len(q.terms))
}
