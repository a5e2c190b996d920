package kb

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of a query's terms: enough for any question a person types, and a
// cap on the work a hostile query can cause.
const (
	maxTerms   = 32
	maxTermLen = 64 // runes; longer "words" are not words
)

// query is a search text reduced to terms that are safe to hand to either
// engine: runs of letters and digits, lower-cased, without repeats.
type query struct {
	terms []string // for both engines
	extra []string // PostgreSQL only: whole words its parser keeps as one token (node.js, ruv@ruv.io)
}

// parseQuery extracts the terms of a search text. Common English words are
// dropped (they match nearly every chunk and cost time without telling
// documents apart) unless nothing else is left.
func parseQuery(text string) query {
	var all, kept []string
	seen := map[string]bool{}
	add := func(t string) {
		if t == "" || seen[t] || utf8.RuneCountInString(t) > maxTermLen || len(all) >= 4*maxTerms {
			return
		}
		seen[t] = true
		all = append(all, t)
		if !stopwords[t] {
			kept = append(kept, t)
		}
	}
	var q query
	for word := range strings.FieldsSeq(strings.ToLower(text)) {
		parts := strings.FieldsFunc(word, func(r rune) bool { return !isWordRune(r) })
		for _, p := range parts {
			add(p)
		}
		// "node.js" or an e-mail address is one token to PostgreSQL's
		// parser, which the parts alone would not match.
		if w := strings.Trim(word, ".,;:!?()[]{}'\"`"); len(parts) > 1 && compound(w) && len(q.extra) < maxTerms && !seen[w] {
			seen[w] = true
			q.extra = append(q.extra, w)
		}
	}
	if len(kept) == 0 {
		kept = all
	}
	if len(kept) > maxTerms {
		kept = kept[:maxTerms]
	}
	q.terms = kept
	return q
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}

// compound reports whether w is letters and digits joined by the characters
// PostgreSQL's parser keeps inside one token (hosts, files, e-mail).
func compound(w string) bool {
	first, _ := utf8.DecodeRuneInString(w)
	last, _ := utf8.DecodeLastRuneInString(w)
	if w == "" || !isWordRune(first) || !isWordRune(last) {
		return false
	}
	for _, r := range w {
		if !isWordRune(r) && !strings.ContainsRune(".@_", r) {
			return false
		}
	}
	return true
}

// fts5 is the query as an FTS5 expression: every term a quoted string, all
// joined with OR so a document matching some of the words is still found
// (bm25 ranks those matching more, and rarer, words first). Terms hold only
// letters and digits, so no FTS5 syntax (quotes, *, NEAR, column filters,
// -) can reach the engine from the user.
func (q query) fts5() string {
	parts := make([]string, len(q.terms))
	for i, t := range q.terms {
		parts[i] = `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
	}
	return strings.Join(parts, " OR ")
}

// postgres is the query as websearch_to_tsquery text: the terms joined with
// "or". websearch_to_tsquery never fails on its input; the word "or" itself
// is left out so it cannot act as an operator.
func (q query) postgres() string { return strings.Join(q.postgresTerms(), " or ") }

// postgresTerms are the terms one by one, for the per-term weights of
// postgresSearchSQL.
func (q query) postgresTerms() []string {
	var out []string
	for _, t := range append(append([]string(nil), q.terms...), q.extra...) {
		if t != "or" {
			out = append(out, t)
		}
	}
	return out
}

// stopwords are PostgreSQL's 'english' stop words, so both engines ignore
// the same words.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for w := range strings.FieldsSeq(`i me my myself we our ours ourselves you your yours yourself yourselves he him
	his himself she her hers herself it its itself they them their theirs themselves what which who whom this that
	these those am is are was were be been being have has had having do does did doing a an the and but if or
	because as until while of at by for with about against between into through during before after above below
	to from up down in out on off over under again further then once here there when where why how all any both
	each few more most other some such no nor not only own same so than too very s t can will just don should now`) {
		m[w] = true
	}
	return m
}()
