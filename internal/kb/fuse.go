package kb

import (
	"cmp"
	"slices"
	"strings"
)

// fused is one document of a fused ranking.
type fused struct {
	doc   string
	score float64
	hit   *ftsHit // its full-text hit, shown when full text found it
	chunk int64   // otherwise its nearest chunk, read before it is shown
}

// fuse merges a full-text ranking (documents, best first) and a vector
// ranking (chunks, nearest first, often several of one document) by
// reciprocal rank fusion. The document in place r (from 0) of a list gets
// 1/(rrfK+r+1) from it, and its score is the sum over both lists, so
// agreement between the lists outweighs first place in one. A document
// counts once per list, at its best place, and each list counts only its
// first depth documents. Equal scores go to the smaller document id, so the
// order never depends on which list was read first.
func fuse(text []ftsHit, near []VectorHit, depth int) []fused {
	byDoc := map[string]*fused{}
	var order []*fused
	get := func(doc string) *fused {
		f, ok := byDoc[doc]
		if !ok {
			f = &fused{doc: doc}
			byDoc[doc] = f
			order = append(order, f)
		}
		return f
	}
	// Each list adds its terms in its own order, the text list first, so a
	// score is the same sum whatever the documents are.
	rank, seen := 0, map[string]bool{}
	for i := range text {
		h := &text[i]
		if seen[h.documentID] || rank >= depth {
			continue
		}
		seen[h.documentID] = true
		f := get(h.documentID)
		f.score += 1.0 / float64(rrfK+rank+1)
		f.hit = h
		rank++
	}
	rank, seen = 0, map[string]bool{}
	for _, h := range near {
		if seen[h.DocumentID] || rank >= depth {
			continue
		}
		seen[h.DocumentID] = true
		f := get(h.DocumentID)
		f.score += 1.0 / float64(rrfK+rank+1)
		if f.hit == nil {
			f.chunk = h.ChunkID
		}
		rank++
	}
	slices.SortFunc(order, func(a, b *fused) int {
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return strings.Compare(a.doc, b.doc)
	})
	out := make([]fused, len(order))
	for i, f := range order {
		out[i] = *f
	}
	return out
}

// vectorOnly lists the chunks to read for the documents of ranking that
// only the vector ranking found.
func vectorOnly(ranking []fused) []int64 {
	var ids []int64
	for _, f := range ranking {
		if f.hit == nil {
			ids = append(ids, f.chunk)
		}
	}
	return ids
}

// fusedResults is the first limit documents of ranking as results. A
// document found by vector alone shows its chunk from chunks, and drops out
// when that chunk is not there (deleted since the index saw it). Similarity
// is the score relative to first place in both lists.
func fusedResults(ranking []fused, chunks map[int64]ftsHit, limit int) []Result {
	const top = 2.0 / float64(rrfK+1)
	out := []Result{}
	for _, f := range ranking {
		if len(out) == limit {
			break
		}
		h := f.hit
		if h == nil {
			c, ok := chunks[f.chunk]
			if !ok {
				continue
			}
			h = &c
		}
		out = append(out, Result{Content: h.content, Metadata: h.metadata, Similarity: min(f.score/top, 1), DocumentID: f.doc})
	}
	return out
}
