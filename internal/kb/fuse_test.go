package kb

import (
	"encoding/json"
	"slices"
	"testing"
)

// textHit is a full-text hit on doc's chunk.
func textHit(doc string, chunk int64) ftsHit {
	return ftsHit{chunkID: chunk, documentID: doc, content: "text of " + doc, metadata: Metadata{Title: doc}}
}

// rrf is the fused score of a document at the given places (from 0), added
// in the order fuse adds them: full text first.
func rrf(places ...int) float64 {
	var s float64
	for _, p := range places {
		s += 1.0 / float64(rrfK+p+1)
	}
	return s
}

// shown is a fused document as the tests compare it: id, score, and the
// chunk that would be shown (the full-text hit's or the vector one's).
type shown struct {
	doc      string
	score    float64
	chunk    int64
	fullText bool
}

func TestFuse(t *testing.T) {
	cases := []struct {
		name  string
		text  []ftsHit
		near  []VectorHit
		depth int
		want  []shown
	}{
		{
			name:  "agreement between the lists outweighs first place in one",
			text:  []ftsHit{textHit("a", 1), textHit("b", 2)},
			near:  []VectorHit{{ChunkID: 30, DocumentID: "c"}, {ChunkID: 20, DocumentID: "b"}},
			depth: 50,
			want: []shown{
				{doc: "b", score: rrf(1, 1), chunk: 2, fullText: true},
				{doc: "a", score: rrf(0), chunk: 1, fullText: true},
				{doc: "c", score: rrf(0), chunk: 30},
			},
		},
		{
			name:  "places weigh 1/(k+place+1): first in one list and third in the other edges out second in both",
			text:  []ftsHit{textHit("a", 1), textHit("b", 2), textHit("c", 3)},
			near:  []VectorHit{{ChunkID: 40, DocumentID: "d"}, {ChunkID: 20, DocumentID: "b"}, {ChunkID: 10, DocumentID: "a"}},
			depth: 50,
			want: []shown{
				{doc: "a", score: rrf(0, 2), chunk: 1, fullText: true},
				{doc: "b", score: rrf(1, 1), chunk: 2, fullText: true},
				{doc: "d", score: rrf(0), chunk: 40},
				{doc: "c", score: rrf(2), chunk: 3, fullText: true},
			},
		},
		{
			name:  "equal scores go to the smaller document id, text first",
			text:  []ftsHit{textHit("z", 1)},
			near:  []VectorHit{{ChunkID: 2, DocumentID: "a"}},
			depth: 50,
			want:  []shown{{doc: "a", score: rrf(0), chunk: 2}, {doc: "z", score: rrf(0), chunk: 1, fullText: true}},
		},
		{
			name:  "equal scores go to the smaller document id, vector first",
			text:  []ftsHit{textHit("a", 1)},
			near:  []VectorHit{{ChunkID: 2, DocumentID: "z"}},
			depth: 50,
			want:  []shown{{doc: "a", score: rrf(0), chunk: 1, fullText: true}, {doc: "z", score: rrf(0), chunk: 2}},
		},
		{
			name:  "no vector hits: the full-text order",
			text:  []ftsHit{textHit("c", 3), textHit("a", 1), textHit("b", 2)},
			depth: 50,
			want: []shown{
				{doc: "c", score: rrf(0), chunk: 3, fullText: true},
				{doc: "a", score: rrf(1), chunk: 1, fullText: true},
				{doc: "b", score: rrf(2), chunk: 2, fullText: true},
			},
		},
		{
			name:  "no full-text hits: the vector order, each with its nearest chunk",
			near:  []VectorHit{{ChunkID: 9, DocumentID: "c"}, {ChunkID: 8, DocumentID: "a"}},
			depth: 50,
			want:  []shown{{doc: "c", score: rrf(0), chunk: 9}, {doc: "a", score: rrf(1), chunk: 8}},
		},
		{
			name:  "nothing found",
			depth: 50,
		},
		{
			name: "several chunks of one document count once, at the nearest, and do not push the others down",
			near: []VectorHit{
				{ChunkID: 1, DocumentID: "a"}, {ChunkID: 2, DocumentID: "a"}, {ChunkID: 3, DocumentID: "b"},
				{ChunkID: 4, DocumentID: "a"}, {ChunkID: 5, DocumentID: "c"}, {ChunkID: 6, DocumentID: "b"},
			},
			depth: 50,
			want:  []shown{{doc: "a", score: rrf(0), chunk: 1}, {doc: "b", score: rrf(1), chunk: 3}, {doc: "c", score: rrf(2), chunk: 5}},
		},
		{
			name:  "a document twice in the full-text list counts once, with its first hit",
			text:  []ftsHit{textHit("a", 1), textHit("a", 2), textHit("b", 3)},
			depth: 50,
			want:  []shown{{doc: "a", score: rrf(0), chunk: 1, fullText: true}, {doc: "b", score: rrf(1), chunk: 3, fullText: true}},
		},
		{
			name:  "a full-text hit is shown over a nearer chunk of the same document",
			text:  []ftsHit{textHit("a", 5)},
			near:  []VectorHit{{ChunkID: 7, DocumentID: "a"}},
			depth: 50,
			want:  []shown{{doc: "a", score: rrf(0, 0), chunk: 5, fullText: true}},
		},
		{
			name: "each list counts only its first depth documents, repeats not counted",
			text: []ftsHit{textHit("a", 1), textHit("b", 2), textHit("c", 3)},
			near: []VectorHit{
				{ChunkID: 10, DocumentID: "d"}, {ChunkID: 11, DocumentID: "d"}, {ChunkID: 20, DocumentID: "e"},
				{ChunkID: 30, DocumentID: "f"}, {ChunkID: 40, DocumentID: "c"},
			},
			depth: 2,
			want: []shown{
				{doc: "a", score: rrf(0), chunk: 1, fullText: true},
				{doc: "d", score: rrf(0), chunk: 10},
				{doc: "b", score: rrf(1), chunk: 2, fullText: true},
				{doc: "e", score: rrf(1), chunk: 20},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []shown
			for _, f := range fuse(c.text, c.near, c.depth) {
				s := shown{doc: f.doc, score: f.score, chunk: f.chunk}
				if f.hit != nil {
					if f.hit.documentID != f.doc {
						t.Fatalf("%s shows a hit of %s", f.doc, f.hit.documentID)
					}
					s.chunk, s.fullText = f.hit.chunkID, true
				}
				got = append(got, s)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("fused\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestFuseDoesNotDependOnWhichListIsLonger(t *testing.T) {
	// The same agreement found with the lists' roles swapped scores the same.
	a := fuse([]ftsHit{textHit("x", 1), textHit("y", 2)}, []VectorHit{{ChunkID: 3, DocumentID: "y"}}, 50)
	b := fuse([]ftsHit{textHit("y", 2)}, []VectorHit{{ChunkID: 1, DocumentID: "x"}, {ChunkID: 3, DocumentID: "y"}}, 50)
	if a[0].doc != "y" || b[0].doc != "y" || a[0].score != rrf(1, 0) || b[0].score != rrf(0, 1) {
		t.Fatalf("first places %+v and %+v", a[0], b[0])
	}
}

func TestVectorOnlyListsChunksToRead(t *testing.T) {
	ranking := fuse([]ftsHit{textHit("b", 2)}, []VectorHit{{ChunkID: 7, DocumentID: "a"}, {ChunkID: 8, DocumentID: "b"}, {ChunkID: 9, DocumentID: "c"}}, 50)
	if got := vectorOnly(ranking); !slices.Equal(got, []int64{7, 9}) {
		t.Fatalf("chunks to read %v, want [7 9] (b shows its full-text hit)", got)
	}
	if got := vectorOnly(nil); got != nil {
		t.Fatalf("nothing to read, got %v", got)
	}
}

func TestFusedResults(t *testing.T) {
	both := fuse([]ftsHit{textHit("a", 1), textHit("m", 2), textHit("x", 3)},
		[]VectorHit{{ChunkID: 10, DocumentID: "a"}, {ChunkID: 40, DocumentID: "g"}, {ChunkID: 50, DocumentID: "v"}}, 50)
	// The ranking: a (first in both), g and m (second in one list each,
	// equal, so by id), v and x (third in one list each). g's chunk is gone.
	chunks := map[int64]ftsHit{50: {chunkID: 50, documentID: "v", content: "chunk of v", metadata: Metadata{Title: "V"}}}
	docs := func(rs []Result) []string {
		var out []string
		for _, r := range rs {
			out = append(out, r.DocumentID)
		}
		return out
	}
	cases := []struct {
		name  string
		limit int
		want  []string
	}{
		{"the limit cuts the ranking", 1, []string{"a"}},
		{"a document whose chunk is gone drops out and the next takes its place", 2, []string{"a", "m"}},
		{"a document found by vector alone shows the chunk read for it", 3, []string{"a", "m", "v"}},
		{"a limit past the ranking returns all there is", 20, []string{"a", "m", "v", "x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := docs(fusedResults(both, chunks, c.limit)); !slices.Equal(got, c.want) {
				t.Fatalf("limit %d: %v, want %v", c.limit, got, c.want)
			}
		})
	}

	res := fusedResults(both, chunks, 20)
	if res[0].Similarity != 1 {
		t.Errorf("first in both lists has similarity %v, want 1", res[0].Similarity)
	}
	if want := rrf(1) / rrf(0, 0); res[1].Similarity != want {
		t.Errorf("second in one list: similarity %v, want %v", res[1].Similarity, want)
	}
	for i, r := range res {
		if r.Similarity <= 0 || r.Similarity > 1 || (i > 0 && r.Similarity > res[i-1].Similarity) {
			t.Errorf("similarity %v at %d is out of range or order", r.Similarity, i)
		}
	}
	if v := res[2]; v.Content != "chunk of v" || v.Metadata.Title != "V" {
		t.Errorf("vector-only result %+v, want its chunk's text and metadata", v)
	}
	if a := res[0]; a.Content != "text of a" || a.Metadata.Title != "a" {
		t.Errorf("result found by both %+v, want its full-text hit", a)
	}

	// No results still encode as a list, as the API documents.
	b, _ := json.Marshal(Results{Results: fusedResults(nil, nil, 5), Ranking: RankingHybrid})
	if string(b) != `{"results":[],"ranking":"hybrid"}` {
		t.Errorf("empty results encode as %s", b)
	}
}
