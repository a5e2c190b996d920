package gaps

import (
	"slices"
	"strings"
	"unicode"
)

// Similar is the least overlap (Jaccard: shared words over all words of
// the two) at which two questions count as one: "How much does the tribe
// cost?" and "what does tribe membership cost" share tribe and cost of
// three words, 0.67. At 1/2, sharing s of a and b words is similar exactly
// when 3s >= a+b, which the store can test in whole numbers.
const Similar = 0.5

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

// exactKey groups the questions that have no topic word ("what is it?"):
// their lower-case words, punctuation aside, or the question itself
// lower-cased when it has no word at all.
func exactKey(q string) string {
	if k := strings.Join(tokens(q), " "); k != "" {
		return k
	}
	return strings.ToLower(q)
}

// sortedWords is a word set in a fixed order, for stable SQL arguments.
func sortedWords(words map[string]bool) []string {
	out := make([]string, 0, len(words))
	for w := range words {
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}
