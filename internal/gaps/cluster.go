package gaps

import (
	"slices"
	"strings"
	"time"
	"unicode"
)

// Asked is one question as it was asked.
type Asked struct {
	Question string
	At       time.Time
}

// Similar is the least overlap (Jaccard: shared words over all words of
// the two) at which two questions count as one: "How much does the tribe
// cost?" and "what does tribe membership cost" share tribe and cost of
// three words, 0.67.
const Similar = 0.5

// Cluster groups questions of similar wording. Each question becomes a set
// of words (Words: lower case, stop words out, plural and -ing/-ed endings
// cut), and joins the first group, taken most recent first, whose first
// question's words overlap its own by at least Similar; otherwise it starts
// a group. Questions with no word left are grouped by their exact lower-case
// words, punctuation aside. asked must be newest first; the groups come most asked first.
func Cluster(asked []Asked) []Group {
	type cluster struct {
		key   map[string]bool
		exact string
		group Group
	}
	var cs []*cluster
	for _, a := range asked {
		words := Words(a.Question)
		exact := ""
		if len(words) == 0 {
			exact = strings.Join(tokens(a.Question), " ")
		}
		var into *cluster
		for _, c := range cs {
			if (exact != "" && c.exact == exact) || (exact == "" && c.exact == "" && jaccard(c.key, words) >= Similar) {
				into = c
				break
			}
		}
		if into == nil {
			into = &cluster{key: words, exact: exact, group: Group{Question: a.Question, LastAsked: a.At.UTC(), Others: []string{}}}
			cs = append(cs, into)
		} else if a.Question != into.group.Question && len(into.group.Others) < 3 && !slices.Contains(into.group.Others, a.Question) {
			into.group.Others = append(into.group.Others, a.Question)
		}
		into.group.Count++
	}
	out := make([]Group, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.group)
	}
	slices.SortStableFunc(out, func(a, b Group) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		return b.LastAsked.Compare(a.LastAsked)
	})
	return out
}

// stopWords are the English words that say nothing of a question's topic.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be but by can could do does did for from how i if in into is it
		its me my of on or our so than that the their them then there these they this to was we were what when where which
		who whom why will with would you your yours about any anyone there's what's is there much many please tell know`) {
		stopWords[w] = true
	}
}

// Words is the set of a question's topic words: lower case, split at
// anything not a letter or digit, stop words out, and a light stem (a
// trailing s, es, ing or ed cut from words longer than four letters) so
// "sessions" and "session" are one word.
func Words(q string) map[string]bool {
	out := map[string]bool{}
	for _, w := range tokens(q) {
		if stopWords[w] {
			continue
		}
		out[stem(w)] = true
	}
	return out
}

// tokens are q's words in lower case, split at anything not a letter or digit.
func tokens(q string) []string {
	return strings.FieldsFunc(strings.ToLower(q), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

func stem(w string) string {
	if len([]rune(w)) <= 4 {
		return w
	}
	for _, suffix := range []string{"ing", "ies", "ed", "s"} {
		if strings.HasSuffix(w, suffix) && !strings.HasSuffix(w, "ss") {
			base := strings.TrimSuffix(w, suffix)
			if suffix == "ies" {
				base += "y"
			}
			return base
		}
	}
	return w
}

// jaccard is |a ∩ b| / |a ∪ b|.
func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	both := 0
	for w := range a {
		if b[w] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}
