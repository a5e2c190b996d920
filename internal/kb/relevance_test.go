package kb

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"tribe/internal/store"
	"tribe/internal/store/storetest"
)

// relevanceSet is testdata/relevance.json: questions about the site's own
// content, each with the seed key of the document that answers it.
type relevanceSet struct {
	Questions []struct {
		Q    string `json:"q"`
		Want string `json:"want"`
	} `json:"questions"`
}

func loadRelevance(t testing.TB) relevanceSet {
	t.Helper()
	b, err := os.ReadFile("testdata/relevance.json")
	if err != nil {
		t.Fatal(err)
	}
	var set relevanceSet
	if err := json.Unmarshal(b, &set); err != nil {
		t.Fatal(err)
	}
	if len(set.Questions) < 30 {
		t.Fatalf("the relevance set has %d questions; keep at least 30", len(set.Questions))
	}
	return set
}

// TestRelevance measures full-text recall@3 on the labelled questions: the
// answering document must be among the first three results for at least 90%.
func TestRelevance(t *testing.T) {
	set := loadRelevance(t)
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newKB(t, db, Options{})
		if _, err := s.Seed(t.Context(), siteDocs(t)); err != nil {
			t.Fatal(err)
		}
		keys := seedKeys(t, db)
		var found int
		for _, q := range set.Questions {
			if _, ok := keys[q.Want]; !ok {
				t.Fatalf("%q expects %q, which is not a seeded document", q.Q, q.Want)
			}
			res, err := s.Search(t.Context(), q.Q, 3)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range res.Results {
				got = append(got, keyOf(keys, r.DocumentID))
			}
			if slices.Contains(got, q.Want) {
				found++
			} else {
				t.Logf("miss: %q wants %s, got %v", q.Q, q.Want, got)
			}
		}
		recall := float64(found) / float64(len(set.Questions))
		t.Logf("full-text recall@3 on %s: %.3f (%d of %d)", db.Dialect, recall, found, len(set.Questions))
		if recall < 0.9 {
			t.Errorf("recall@3 %.3f is below 0.9", recall)
		}
	})
}

// seedKeys maps seed keys to document ids.
func seedKeys(t testing.TB, db *store.DB) map[string]string {
	t.Helper()
	rows, err := db.Read.QueryContext(t.Context(), `SELECT seed_key, id FROM documents WHERE seed_key IS NOT NULL`)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	out := map[string]string{}
	for rows.Next() {
		var k, id string
		if err := rows.Scan(&k, &id); err != nil {
			t.Fatal(err)
		}
		out[k] = id
	}
	return out
}

func keyOf(keys map[string]string, id string) string {
	for k, v := range keys {
		if v == id {
			return k
		}
	}
	return id
}
