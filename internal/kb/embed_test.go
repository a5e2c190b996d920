package kb

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"tribe/internal/events"
	"tribe/internal/kb/kbtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

const testDims = 64

// withEmbeddings is a knowledge base whose embedder calls srv, with the
// worker's waits shortened for tests.
func withEmbeddings(t testing.TB, db *store.DB, srv *kbtest.Server, hub *events.Hub) *Service {
	t.Helper()
	s := newKB(t, db, Options{Embedder: NewOpenAIEmbedder(srv.URL, "test-key", "test-embed", nil), Hub: hub})
	s.retryFirst, s.pauseFirst, s.poll = 50*time.Millisecond, 20*time.Millisecond, time.Minute
	return s
}

// runWorker runs the embeddings worker until the test ends.
func runWorker(t testing.TB, s *Service) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { s.RunEmbeddings(ctx) })
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// eventually waits up to 10 s for cond.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func embedded(t testing.TB, db *store.DB) (with, all int) {
	t.Helper()
	if err := db.Read.QueryRowContext(context.Background(),
		`SELECT count(embedding), count(*) FROM kb_chunks`).Scan(&with, &all); err != nil {
		t.Fatal(err)
	}
	return with, all
}

func TestOpenAIEmbedderSpeaksTheWireFormat(t *testing.T) {
	srv := kbtest.NewServer(t, 8)
	e := NewOpenAIEmbedder(srv.URL+"/", "k", "m", nil)
	vecs, err := e.Embed(t.Context(), []string{"agents and memory", "price of the tribe"})
	if err != nil {
		t.Fatal(err)
	}
	// The server answers in reverse order; vectors are placed by index.
	if len(vecs) != 2 || dot(vecs[0], kbtest.Vector("agents and memory", 8)) < 0.999 || dot(vecs[1], kbtest.Vector("price of the tribe", 8)) < 0.999 {
		t.Fatalf("vectors out of order: %v", vecs)
	}
	srv.FailNext(1)
	if _, err := e.Embed(t.Context(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "overloaded") || !strings.Contains(err.Error(), "503") {
		t.Fatalf("a 503 reads %v", err)
	}
	bad := NewOpenAIEmbedder(srv.URL+"/nowhere", "k", "m", &http.Client{Timeout: time.Second})
	if _, err := bad.Embed(t.Context(), []string{"x"}); err == nil {
		t.Fatal("a 404 was accepted")
	}
}

func TestVectorEncodingAndNearest(t *testing.T) {
	v := []float32{1.5, -2, 0, 3.25}
	if got := decodeVector(encodeVector(v)); len(got) != 4 || got[1] != -2 || got[3] != 3.25 {
		t.Fatalf("round trip %v", got)
	}
	m := &memIndex{}
	var entries []memEntry
	for i := range 5000 {
		entries = append(entries, memEntry{chunkID: int64(i), documentID: "d", vec: normalize(kbtest.Vector("word"+strings.Repeat("x", i%50)+" other", 32))})
	}
	m.entries = entries
	q := kbtest.Vector("wordxxx other", 32)
	hits, err := m.Nearest(t.Context(), q, 10)
	if err != nil || len(hits) != 10 {
		t.Fatalf("%d hits, %v", len(hits), err)
	}
	for i := 1; i < len(hits); i++ {
		if hits[i].Cosine > hits[i-1].Cosine {
			t.Fatal("hits not ordered")
		}
	}
	var best float32 = -2
	for _, e := range entries {
		best = max(best, dot(normalize(append([]float32(nil), q...)), e.vec))
	}
	if hits[0].Cosine < best-1e-5 {
		t.Fatalf("best %v, brute force %v", hits[0].Cosine, best)
	}
}

func TestHybridSearch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := kbtest.NewServer(t, testDims)
		s := withEmbeddings(t, db, srv, nil)
		ctx := t.Context()
		if _, err := s.Seed(ctx, siteDocs(t)); err != nil {
			t.Fatal(err)
		}
		// Before any vector exists, search says it is full text.
		if res, err := s.Search(ctx, "tribe price", 3); err != nil || res.Ranking != RankingFullText {
			t.Fatalf("before vectors: %+v %v", res, err)
		}
		runWorker(t, s)
		eventually(t, "every chunk embedded", func() bool { w, a := embedded(t, db); return w == a && a > 0 })
		eventually(t, "the vector index loaded", func() bool { _, a := embedded(t, db); return s.vectors.Len() == a })

		res, err := s.Search(ctx, "How much does the tribe cost per month?", 5)
		if err != nil {
			t.Fatal(err)
		}
		if res.Ranking != RankingHybrid || len(res.Results) != 5 || !strings.Contains(res.Results[0].Content, "$250") {
			t.Fatalf("hybrid: %q, first %+v", res.Ranking, res.Results)
		}
		for i, r := range res.Results {
			if r.Similarity <= 0 || r.Similarity > 1 || (i > 0 && r.Similarity > res.Results[i-1].Similarity) {
				t.Fatalf("similarity %v at %d", r.Similarity, i)
			}
		}
		// A query whose words no document holds is still answered by vectors.
		mustCreate(t, s, "Lantern care", "Trim the wick of every lantern weekly.")
		eventually(t, "the new document embedded", func() bool { w, a := embedded(t, db); return w == a })
		eventually(t, "the index follows", func() bool { _, a := embedded(t, db); return s.vectors.Len() == a })
		if res, err := s.Search(ctx, "lanterns wicks", 3); err != nil || res.Ranking != RankingHybrid || res.Results[0].Metadata.Title != "Lantern care" {
			t.Fatalf("new document: %+v %v", res, err)
		}
		// Repeated queries are embedded once.
		before, _ := srv.Calls()
		for range 3 {
			if _, err := s.Search(ctx, "lanterns wicks", 3); err != nil {
				t.Fatal(err)
			}
		}
		if after, _ := srv.Calls(); after != before {
			t.Fatalf("a repeated query called the API %d more times", after-before)
		}
		// Relevance holds with vectors too.
		set := loadRelevance(t)
		keys := seedKeys(t, db)
		found := 0
		for _, q := range set.Questions {
			res, err := s.Search(ctx, q.Q, 3)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Results {
				if r.DocumentID == keys[q.Want] {
					found++
				}
			}
		}
		t.Logf("hybrid recall@3 with hashed bag-of-words vectors on %s: %.3f", db.Dialect, float64(found)/float64(len(set.Questions)))

		// When the API fails, search answers from full text and says so.
		srv.Close()
		if res, err := s.Search(ctx, "a query never seen before", 3); err != nil || res.Ranking != RankingFullText {
			t.Fatalf("API down: %+v %v", res, err)
		}
	})
}

func TestEmbeddingFailuresAreRetried(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := kbtest.NewServer(t, testDims)
		srv.FailNext(3)
		s := withEmbeddings(t, db, srv, nil)
		mustCreate(t, s, "Retry", strings.Repeat("Some text to embed. ", 100))
		runWorker(t, s)
		eventually(t, "chunks embedded after failures", func() bool { w, a := embedded(t, db); return w == a })
		if calls, _ := srv.Calls(); calls < 4 {
			t.Fatalf("%d calls; the failures were not retried", calls)
		}
		var attempts int
		var lastErr *string
		if err := db.Read.QueryRowContext(t.Context(), `SELECT max(embed_attempts), max(embed_error) FROM kb_chunks`).Scan(&attempts, &lastErr); err != nil {
			t.Fatal(err)
		}
		if attempts != 0 || lastErr != nil {
			t.Fatalf("a success left attempts %d and error %v", attempts, lastErr)
		}
	})
}

// TestInstancesFollowEachOther runs two servers' knowledge bases on one
// PostgreSQL database: each keeps its in-memory vectors in step with the
// other's writes through the live-update notices, well before any poll.
func TestInstancesFollowEachOther(t *testing.T) {
	url := storetest.NewPostgresSchema(t)
	dbA, dbB := storetest.Open(t, url, t.TempDir()), storetest.Open(t, url, t.TempDir())
	hubA, hubB := events.New(dbA, quietLogger()), events.New(dbB, quietLogger())
	t.Cleanup(hubA.Close)
	t.Cleanup(hubB.Close)
	srv := kbtest.NewServer(t, testDims)
	a, b := withEmbeddings(t, dbA, srv, hubA), withEmbeddings(t, dbB, srv, hubB)
	runWorker(t, a)
	runWorker(t, b)
	time.Sleep(200 * time.Millisecond) // both watches in place

	d := mustCreate(t, a, "Shared", strings.Repeat("Text about lighthouses and lanterns. ", 60))
	_, all := embedded(t, dbA)
	eventually(t, "both indexes hold every vector", func() bool {
		w, _ := embedded(t, dbA)
		return w == all && a.vectors.Len() == all && b.vectors.Len() == all
	})
	res, err := b.Search(t.Context(), "lighthouse lantern", 3)
	if err != nil || res.Ranking != RankingHybrid || len(res.Results) != 1 {
		t.Fatalf("search on the other instance: %+v %v", res, err)
	}
	if err := a.Delete(t.Context(), d.ID); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the other instance drops the vectors", func() bool { return b.vectors.Len() == 0 })
	if res, err := b.Search(t.Context(), "lighthouse lantern", 3); err != nil || len(res.Results) != 0 {
		t.Fatalf("deleted document found on the other instance: %+v %v", res, err)
	}
}
