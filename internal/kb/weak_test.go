package kb

import "testing"

// TestWeakWhenFewerThanHalfTheWordsAreInTheBestPassage: a passage about one
// word of a four-word question does not answer it, however high that word
// scores; stemmed forms count as found.
func TestWeakWhenFewerThanHalfTheWordsAreInTheBestPassage(t *testing.T) {
	hits := []ftsHit{{content: "Workshops run every month; the price is set per session.", metadata: Metadata{Title: "Workshops"}}}
	for q, weak := range map[string]bool{
		"quantum basket weaving workshops": true,
		"workshop pricing":                 false,
		"How much are the sessions?":       false,
		"Zanzibar ferry":                   true,
	} {
		r := Results{Coverage: coverage(parseQuery(q), hits)}
		if r.Weak() != weak {
			t.Errorf("%q: weak %v (coverage %.2f), want %v", q, r.Weak(), r.Coverage, weak)
		}
	}
	if !(Results{Coverage: coverage(parseQuery("anything"), nil)}).Weak() {
		t.Error("no passage at all must be weak")
	}
}
