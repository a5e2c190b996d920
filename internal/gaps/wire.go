package gaps

import "time"

// Group is questions of similar wording: the wording asked most recently,
// how often any of them was asked, when last, and up to three other
// wordings.
type Group struct {
	Question  string    `json:"question"`
	Count     int       `json:"count"`
	LastAsked time.Time `json:"last_asked"`
	Others    []string  `json:"others"`
}

// Groups is the answer of GET /api/admin/knowledge-gaps.
type Groups struct {
	Groups []Group `json:"groups"`
	// Since is the start of the window the groups cover (Retention ago).
	Since time.Time `json:"since"`
}
