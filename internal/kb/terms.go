package kb

// Terms is a search text reduced by the knowledge base's rules (runs of
// letters and digits, lower-cased, English stop words dropped unless
// nothing else is left, at most 32 terms, each term OR'd), for the other
// full-text indexes of the site (the community's threads) to search and
// rank the way the knowledge base does.
type Terms struct{ q query }

// ParseTerms reduces a search text to its terms.
func ParseTerms(text string) Terms { return Terms{parseQuery(text)} }

// Empty reports whether the text held no term at all.
func (t Terms) Empty() bool { return len(t.q.terms) == 0 && len(t.q.extra) == 0 }

// FTS5 is the terms as an SQLite FTS5 expression, every term quoted and
// OR'd: no FTS5 syntax from the user reaches the engine.
func (t Terms) FTS5() string { return t.q.fts5() }

// Postgres is the terms as websearch_to_tsquery('english', …) text, OR'd.
func (t Terms) Postgres() string { return t.q.postgres() }

// PostgresTerms is the terms one by one, for a per-term (BM25-like)
// weighting on PostgreSQL.
func (t Terms) PostgresTerms() []string { return t.q.postgresTerms() }
