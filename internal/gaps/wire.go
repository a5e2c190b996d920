package gaps

import "time"

// Group is questions of similar wording: the wording asked most recently,
// how often any of them was asked, when last, and up to three other
// wordings.
type Group struct {
	// ID names the group within one listing (a cursor ends at one).
	ID        string    `json:"id"`
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
	// Total is how many groups the window holds, over every page.
	Total int `json:"total"`
	// Next, when set, is the cursor of the following page
	// (GET /api/admin/knowledge-gaps?cursor=…).
	Next string `json:"next,omitempty"`
}
