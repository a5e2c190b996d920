package kb

import (
	"testing"
	"time"

	"tribe/internal/store/storetest"
)

func TestResultCache(t *testing.T) {
	c := newResultCache()
	k := resultKey{query: "price", limit: 5}
	now := time.Now()
	_, gen, ok := c.get(k, now)
	if ok {
		t.Fatal("an empty cache found something")
	}
	c.put(k, gen, Results{Results: []Result{{Content: "a"}}, Ranking: RankingFullText}, now)

	got, _, ok := c.get(k, now.Add(resultTTL-time.Millisecond))
	if !ok || len(got.Results) != 1 || got.Results[0].Content != "a" {
		t.Fatalf("fresh entry: %+v %v", got, ok)
	}
	got.Results[0].Content = "edited by a caller"
	if again, _, _ := c.get(k, now); again.Results[0].Content != "a" {
		t.Fatal("a caller's edit reached the cached results")
	}
	if _, _, ok := c.get(k, now.Add(resultTTL)); ok {
		t.Fatal("an entry outlived its time")
	}
	if _, _, ok := c.get(resultKey{query: "price", limit: 3}, now); ok {
		t.Fatal("another limit shared the entry")
	}

	// A search that began before a change must not store what it found.
	_, before, _ := c.get(resultKey{query: "other", limit: 5}, now)
	c.reset()
	if _, _, ok := c.get(k, now); ok {
		t.Fatal("reset kept an entry")
	}
	c.put(resultKey{query: "other", limit: 5}, before, Results{Ranking: RankingFullText}, now)
	if _, _, ok := c.get(resultKey{query: "other", limit: 5}, now); ok {
		t.Fatal("results from before a change were stored")
	}

	// A full cache makes room.
	_, gen, _ = c.get(k, now)
	for i := range resultEntries + 10 {
		c.put(resultKey{query: "q", limit: i + 1}, gen, Results{}, now)
	}
	if n := len(c.entries); n > resultEntries {
		t.Fatalf("cache grew to %d entries", n)
	}
}

// TestRepeatedSearchSeesEveryChange checks that a cached search never hides
// a change made through this knowledge base, on both engines.
func TestRepeatedSearchSeesEveryChange(t *testing.T) {
	for _, e := range storetest.Engines() {
		t.Run(e.Name, func(t *testing.T) {
			url, dir := e.New(t)
			s := newKB(t, storetest.Open(t, url, dir), Options{})
			ctx := t.Context()
			search := func() int {
				t.Helper()
				res, err := s.Search(ctx, "zeppelin hangar", 5)
				if err != nil {
					t.Fatal(err)
				}
				return len(res.Results)
			}
			if n := search(); n != 0 {
				t.Fatalf("found %d before any document", n)
			}
			d := mustCreate(t, s, "Airships", "A zeppelin rests in its hangar between flights.")
			if n := search(); n != 1 {
				t.Fatalf("found %d right after the document was added, want 1", n)
			}
			if err := s.Delete(ctx, d.ID); err != nil {
				t.Fatal(err)
			}
			if n := search(); n != 0 {
				t.Fatalf("found %d right after the document was deleted, want 0", n)
			}
		})
	}
}
