package kb

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"tribe/internal/kb/kbtest"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// fakeEmbedder embeds in process with kbtest.Vector, so a benchmark measures
// the knowledge base and not a network.
type fakeEmbedder struct{ dims int }

func (f fakeEmbedder) Model() string { return fmt.Sprintf("fake-%d", f.dims) }

func (f fakeEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = kbtest.Vector(t, f.dims)
	}
	return out, nil
}

// TestSearchLatency is the search benchmark of bench/kb-search.sh: 10,000
// chunks with 1,536-dimension vectors, the relevance questions as queries,
// p50/p95 for full text and hybrid on each engine. It runs only with
// KB_BENCH=1 (it takes minutes).
func TestSearchLatency(t *testing.T) {
	if os.Getenv("KB_BENCH") == "" {
		t.Skip("set KB_BENCH=1 to run the search benchmark (bench/kb-search.sh)")
	}
	const (
		dims   = 1536
		rounds = 10 // passes over the questions
	)
	targetChunks := 10_000
	if n, err := strconv.Atoi(os.Getenv("KB_BENCH_CHUNKS")); err == nil && n > 0 {
		targetChunks = n // a quicker run while working on it
	}
	questions := loadRelevance(t).Questions
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		start := time.Now()
		docs := syntheticDocs(targetChunks)
		docs = append(docs, siteDocs(t)...)
		plain := newKB(t, db, Options{})
		if _, err := plain.Seed(ctx, docs); err != nil {
			t.Fatal(err)
		}
		chunks := rows(t, db, "kb_chunks")
		t.Logf("setup: %d documents, %d chunks written in %v", len(docs), chunks, time.Since(start).Round(time.Millisecond))

		start = time.Now()
		emb := fakeEmbedder{dims}
		storeVectors(t, db, emb)
		hybrid := newKB(t, db, Options{Embedder: emb})
		if err := hybrid.ensureVectors(ctx); err != nil {
			t.Fatal(err)
		}
		t.Logf("setup: %d vectors of %d dimensions stored and loaded in %v", hybrid.vectors.Len(), dims, time.Since(start).Round(time.Millisecond))

		// The vector side alone: one exact pass over every vector.
		var vec []time.Duration
		cpu0 := cpuTime()
		for range rounds {
			for _, q := range questions {
				qv := kbtest.Vector(q.Q, dims)
				t0 := time.Now()
				if _, err := hybrid.vectors.Nearest(ctx, qv, 4*fuseDepth); err != nil {
					t.Fatal(err)
				}
				vec = append(vec, time.Since(t0))
			}
		}
		cpu := (cpuTime() - cpu0) / time.Duration(len(vec))
		slices.Sort(vec)
		t.Logf("latency: %-8s %-9s chunks=%d queries=%d p50=%.2fms p95=%.2fms cpu/query=%.2fms (vector ranking alone, in Go)",
			db.Dialect, "vectors", chunks, len(vec), ms(vec[len(vec)/2]), ms(vec[int(0.95*float64(len(vec)-1))]), ms(cpu))

		for _, mode := range []struct {
			name string
			s    *Service
		}{{RankingFullText, plain}, {RankingHybrid, hybrid}} {
			for _, q := range questions[:5] { // warm caches and connections
				if _, err := mode.s.Search(ctx, q.Q, 5); err != nil {
					t.Fatal(err)
				}
			}
			var took []time.Duration
			perQuery := map[string]time.Duration{} // the slowest run of each question
			cpu0 := cpuTime()
			for range rounds {
				for _, q := range questions {
					// Measure the search itself, not the results of a
					// repeated query kept for a moment (cache.go).
					mode.s.results.reset()
					t0 := time.Now()
					res, err := mode.s.Search(ctx, q.Q, 5)
					d := time.Since(t0)
					took = append(took, d)
					perQuery[q.Q] = max(perQuery[q.Q], d)
					if err != nil || res.Ranking != mode.name {
						t.Fatalf("%s: %+v %v", q.Q, res.Ranking, err)
					}
				}
			}
			if os.Getenv("KB_BENCH_SLOWEST") != "" {
				var qs []string
				for q := range perQuery {
					qs = append(qs, q)
				}
				slices.SortFunc(qs, func(a, b string) int { return int(perQuery[b] - perQuery[a]) })
				for _, q := range qs[:8] {
					t.Logf("slowest: %s %s %.2fms %q", db.Dialect, mode.name, ms(perQuery[q]), q)
				}
			}
			cpu := (cpuTime() - cpu0) / time.Duration(len(took))
			slices.Sort(took)
			pct := func(p float64) time.Duration { return took[int(p*float64(len(took)-1))] }
			t.Logf("latency: %-8s %-9s chunks=%d queries=%d p50=%.2fms p95=%.2fms p99=%.2fms max=%.2fms cpu/query=%.2fms",
				db.Dialect, mode.name, chunks, len(took), ms(pct(0.5)), ms(pct(0.95)), ms(pct(0.99)), ms(took[len(took)-1]), ms(cpu))
		}
	})
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// cpuTime is the processor time this process has used (user and system),
// a measure of a search's cost that other work on the machine does not
// inflate. PostgreSQL's own work runs in its server and is not in it.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// syntheticDocs makes documents that split into about n chunks: English-like
// text with a Zipf word frequency (function words first, then the site's own
// words and made-up ones in random order), in paragraphs under Markdown
// headings.
func syntheticDocs(n int) []SeedDoc {
	r := rand.New(rand.NewPCG(1, 2))
	// As in English text, function words are the most frequent; the site's
	// words and made-up ones share the rest of the distribution at random.
	vocab := strings.Fields(`the of and to a in is that for it as with was on be by at this are from or an
	have not but which they their we you can all will has one more been its also into than other these when`)
	seen := map[string]bool{}
	var words []string
	for _, w := range strings.Fields(strings.ToLower(siteWords)) {
		w = strings.Trim(w, ".,:;()")
		if len(w) > 2 && !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	syll := []string{"ka", "lo", "mi", "ren", "tor", "vas", "quin", "bel", "dro", "sul", "an", "est", "or"}
	for len(words) < 6000 {
		w := syll[r.IntN(len(syll))] + syll[r.IntN(len(syll))] + syll[r.IntN(len(syll))] + syll[r.IntN(len(syll))]
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	r.Shuffle(len(words), func(i, j int) { words[i], words[j] = words[j], words[i] })
	vocab = append(vocab, words...)
	zipf := rand.NewZipf(r, 1.1, 2, uint64(len(vocab)-1))
	sentence := func() string {
		k := 8 + r.IntN(14)
		words := make([]string, k)
		for i := range words {
			words[i] = vocab[zipf.Uint64()]
		}
		s := strings.Join(words, " ")
		return strings.ToUpper(s[:1]) + s[1:] + "."
	}
	var docs []SeedDoc
	for i := 0; len(docs)*8 < n; i++ {
		var b strings.Builder
		for sec := range 4 {
			fmt.Fprintf(&b, "## Section %d: %s %s\n\n", sec+1, vocab[zipf.Uint64()], vocab[zipf.Uint64()])
			for range 2 {
				for range 5 {
					b.WriteString(sentence() + " ")
				}
				b.WriteString("\n\n")
			}
		}
		docs = append(docs, SeedDoc{
			Key:     fmt.Sprintf("bench/%05d", i),
			Content: b.String(),
			Metadata: Metadata{Title: strings.TrimSuffix(sentence(), "."), Category: "bench", Type: "note", Source: "bench",
				Tags: []string{vocab[zipf.Uint64()], vocab[zipf.Uint64()]}},
		})
	}
	return docs
}

// siteWords seed the synthetic vocabulary with the kind of words questions
// about the site use, so queries hit the synthetic chunks too.
const siteWords = `agent agents agentic memory swarm orchestration tribe cohort session sessions price pricing cost month
members capacity booking book schedule consultation strategy training trading neural trader enterprise teams
architecture design review code debugging prompts tools mcp server vector database search retrieval rust wasm
typescript python models providers claude gemini openai embeddings workflow pipeline production security prompt
injection jailbreak defence verification theorem proof payments mandates signatures consensus github repositories
contact email linkedin profile biography clients expertise philosophy reliability autonomy collaboration levels`

// storeVectors writes a vector for every chunk, as the worker would.
func storeVectors(t testing.TB, db *store.DB, emb fakeEmbedder) {
	t.Helper()
	ctx := context.Background()
	rs, err := db.Read.QueryContext(ctx, `SELECT id, content FROM kb_chunks`)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		id   int64
		text string
	}
	var all []row
	for rs.Next() {
		var r row
		if err := rs.Scan(&r.id, &r.text); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	_ = rs.Close()
	err = db.Tx(ctx, func(tx *sql.Tx) error {
		for _, r := range all {
			if _, err := tx.ExecContext(ctx, `UPDATE kb_chunks SET embedding = $1, embedding_model = $2 WHERE id = $3`,
				encodeVector(kbtest.Vector(r.text, emb.dims)), emb.Model(), r.id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
