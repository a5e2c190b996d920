package kb

import (
	"strconv"
	"strings"
	"testing"

	"tribe/internal/errs"
	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// TestSearch is the search suite; storetest.Each runs it on both engines.
func TestSearch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newKB(t, db, Options{})
		ctx := t.Context()
		if _, err := s.Seed(ctx, siteDocs(t)); err != nil {
			t.Fatal(err)
		}
		mustCreate(t, s, "Café menu", "Crème brûlée and naïve espresso at the café. Größe matters. 東京 ramen.")
		long := mustCreate(t, s, "Long guide", strings.Repeat("Filler about gardening and soil. ", 80)+
			"\n\nThe orchestration of multi-agent swarms is covered here.\n\n"+strings.Repeat("More gardening notes on compost. ", 80))

		t.Run("ranks, dedupes and maps similarity", func(t *testing.T) {
			res, err := s.Search(ctx, "How much does the tribe cost per month?", 0)
			if err != nil {
				t.Fatal(err)
			}
			if res.Ranking != RankingFullText || len(res.Results) != DefaultResults {
				t.Fatalf("ranking %q, %d results", res.Ranking, len(res.Results))
			}
			if !strings.Contains(res.Results[0].Content, "$250") || res.Results[0].Metadata.Category != CategoryCommunity {
				t.Fatalf("best result: %+v", res.Results[0])
			}
			seen := map[string]bool{}
			for i, r := range res.Results {
				if r.Similarity <= 0 || r.Similarity > 1 || (i > 0 && r.Similarity > res.Results[i-1].Similarity) {
					t.Fatalf("similarity %v at %d is out of range or order", r.Similarity, i)
				}
				if seen[r.DocumentID] {
					t.Fatalf("document %s twice", r.DocumentID)
				}
				seen[r.DocumentID] = true
				if r.Metadata.Title == "" || r.Metadata.Source == "" || r.Metadata.Tags == nil {
					t.Fatalf("metadata missing: %+v", r.Metadata)
				}
			}
		})

		t.Run("word forms are stemmed", func(t *testing.T) {
			mustCreate(t, s, "Harbour notes", "The lighthouse keepers were painting the old lanterns while ships anchored.")
			for _, q := range []string{"lighthouse keeper paints lantern", "painted lanterns", "anchoring ship", "keepers"} {
				res, err := s.Search(ctx, q, 3)
				if err != nil || len(res.Results) == 0 || res.Results[0].Metadata.Title != "Harbour notes" {
					t.Errorf("%q: %+v %v", q, res.Results, err)
				}
			}
			// The shown chunk of a long document is the one that matches.
			res, err := s.Search(ctx, "orchestration multi-agent swarms", 5)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Results {
				if r.DocumentID == long.ID && !strings.Contains(r.Content, "orchestration") {
					t.Fatalf("the shown chunk is not the matching one: %q", r.Content)
				}
			}
		})

		t.Run("hostile and odd queries never fail", func(t *testing.T) {
			for _, q := range []string{
				`"`, `""`, `"unbalanced quote`, `*`, `agent*`, `NEAR(`, `NEAR(agents memory, 2)`, `-`, `-agents`,
				`title:agents`, `:`, `body : x`, `^agents`, `(agents OR`, `AND OR NOT`, `agents AND NOT memory`,
				`'; DROP TABLE documents; --`, `\x`, `{}[]()`, `+++`, `agents | memory & !tribe`, `<->`, `a:*`,
				"東京", "Größe", "naïve café", "🚀🤖", "agents\tmemory\nnewline", "\u200b\u200bzero width",
			} {
				res, err := s.Search(ctx, q, 5)
				if err != nil {
					t.Errorf("%q: %v", q, err)
					continue
				}
				if res.Results == nil || res.Ranking != RankingFullText {
					t.Errorf("%q: %+v", q, res)
				}
			}
			if res, _ := s.Search(ctx, "東京 ramen", 5); len(res.Results) == 0 || res.Results[0].Metadata.Title != "Café menu" {
				t.Errorf("unicode query: %+v", res.Results)
			}
			if res, _ := s.Search(ctx, "NEAR(agents memory, 2)", 5); len(res.Results) == 0 {
				t.Error("FTS syntax in a query is searched as words")
			}
		})

		t.Run("long queries", func(t *testing.T) {
			words := strings.Repeat("agents memory swarm tribe price session ", 30)[:MaxQueryLength]
			if res, err := s.Search(ctx, words, 5); err != nil || len(res.Results) == 0 {
				t.Fatalf("a %d-character query: %v", len(words), err)
			}
			distinct := make([]string, 0, 150)
			for i := range 150 {
				distinct = append(distinct, "w"+strings.Repeat("q", i%40)+string(rune('a'+i%26)))
			}
			if _, err := s.Search(ctx, strings.Join(distinct, " ")[:MaxQueryLength], 5); err != nil {
				t.Fatalf("many distinct words: %v", err)
			}
			if _, err := s.Search(ctx, strings.Repeat("x", 900), 5); err != nil {
				t.Fatalf("one 900-character word: %v", err)
			}
			_, err := s.Search(ctx, strings.Repeat("a", MaxQueryLength+1), 5)
			if !errs.Is(err, errs.Invalid) {
				t.Fatalf("too long: %v", err)
			}
		})

		t.Run("bad input", func(t *testing.T) {
			for _, q := range []string{"", "   ", "\n\t"} {
				if _, err := s.Search(ctx, q, 5); !errs.Is(err, errs.Invalid) || err.Error() != "Please enter a search query." {
					t.Errorf("%q: %v", q, err)
				}
			}
			for _, n := range []int{-1, MaxResults + 1} {
				if _, err := s.Search(ctx, "agents", n); !errs.Is(err, errs.Invalid) {
					t.Errorf("limit %d: %v", n, err)
				}
			}
			if res, err := s.Search(ctx, "agents", MaxResults); err != nil || len(res.Results) != MaxResults {
				t.Errorf("limit %d: %d results, %v", MaxResults, len(res.Results), err)
			}
			if res, err := s.Search(ctx, "zzqxj nothingmatches", 5); err != nil || len(res.Results) != 0 || res.Results == nil {
				t.Errorf("no match: %+v %v", res, err)
			}
		})
	})
}

func TestParseQuery(t *testing.T) {
	q := parseQuery(`What's the PRICE of "agents"? -x NEAR( ruv@ruv.io node.js`)
	if got := strings.Join(q.terms, " "); got != "price agents x near ruv io node js" {
		t.Fatalf("terms %q", got)
	}
	if got := q.fts5(); got != `"price" OR "agents" OR "x" OR "near" OR "ruv" OR "io" OR "node" OR "js"` {
		t.Fatalf("fts5 %q", got)
	}
	if got := strings.Join(q.extra, " "); got != "ruv@ruv.io node.js" {
		t.Fatalf("extra %q", got)
	}
	if got := parseQuery("the who").terms; strings.Join(got, " ") != "the who" {
		t.Fatalf("only stop words: %q", got)
	}
	if got := parseQuery("or OR or").postgres(); got != "" {
		t.Fatalf("or as a word: %q", got)
	}
}

func TestCommonWordsArePrunedOnALargeKnowledgeBase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newKB(t, db, Options{})
		s.pruneMin = 20
		ctx := t.Context()
		for i := range 30 {
			mustCreate(t, s, "Note "+strconv.Itoa(i), "A common usual remark, number "+strconv.Itoa(i)+".")
		}
		rare := mustCreate(t, s, "Rare", "A common remark about a zeppelin.")
		q, err := s.prune(ctx, parseQuery("common zeppelin remarks"))
		if err != nil || strings.Join(q.terms, " ") != "zeppelin" {
			t.Fatalf("pruned to %q, %v", q.terms, err)
		}
		res, err := s.Search(ctx, "common zeppelin remarks", 5)
		if err != nil || len(res.Results) != 1 || res.Results[0].DocumentID != rare.ID {
			t.Fatalf("search: %+v %v", res.Results, err)
		}
		// Only common words: the rarest two are kept, and found.
		if q, _ := s.prune(ctx, parseQuery("common usual remark number")); len(q.terms) != pruneKeep {
			t.Fatalf("all common: kept %q", q.terms)
		}
		if res, _ := s.Search(ctx, "common usual remark", 5); len(res.Results) != 5 {
			t.Fatalf("all common: %d results", len(res.Results))
		}
		// A change clears the counts.
		for range 40 {
			mustCreate(t, s, "Zeppelins", "Another zeppelin.")
		}
		if q, _ := s.prune(ctx, parseQuery("common zeppelin remarks")); len(q.terms) != pruneKeep {
			t.Fatalf("after zeppelins became common: %q", q.terms)
		}
	})
}
