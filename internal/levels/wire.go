package levels

import "time"

// The JSON objects of progress and awards (docs/api.md, "Show-up"), read by
// tygo.yaml: only JSON types here.

// Step is one requirement of the next level with how far the member is.
type Step struct {
	Key   string `json:"key"`
	Label string `json:"label"`
	Have  int    `json:"have"`
	Need  int    `json:"need"`
	Done  bool   `json:"done"`
}

// Milestone is the next level and how far the member is towards it.
type Milestone struct {
	Level        string `json:"level"`
	Requirements []Step `json:"requirements"`
	// Fraction is the mean of the requirements' fractions, each capped at
	// one: the level dialog's bar.
	Fraction float64 `json:"fraction"`
}

// Progress is a member's counts, level and next milestone: the answer of
// GET /api/members/me/progress.
type Progress struct {
	Level string `json:"level"`
	// Rank is the level's place, 1 (Apprentice) to 5 (Master).
	Rank          int `json:"rank"`
	Attended      int `json:"attended"`
	Projects      int `json:"projects"`
	Contributions int `json:"contributions"`
	Mentored      int `json:"mentored"`
	Workshops     int `json:"workshops"`
	// Next is the next level and each of its requirements, null at Master.
	Next *Milestone `json:"next" tstype:"Milestone | null,required"`
	// Reached names a level the member has reached and not yet been
	// congratulated for (PUT /api/members/me/progress/seen records that
	// they were); absent otherwise.
	Reached string `json:"reached,omitempty"`
}

// SeenInput is what PUT /api/members/me/progress/seen takes.
type SeenInput struct {
	Level string `json:"level"`
}

// Award is a contribution, mentoring or workshop given to a member, or
// suggested by them.
type Award struct {
	ID         string `json:"id"`
	UserID     string `json:"user_id"`
	MemberName string `json:"member_name"`
	Kind       string `json:"kind"`
	Note       string `json:"note"`
	Status     string `json:"status"`
	// Suggested says the member asked for it themselves.
	Suggested bool `json:"suggested"`
	// AwardedBy is the name of the admin who gave or accepted it; null
	// while suggested, or when that admin's account is gone.
	AwardedBy *string    `json:"awarded_by" tstype:"string | null,required"`
	AwardedAt *time.Time `json:"awarded_at" tstype:"string | null,required"`
	CreatedAt time.Time  `json:"created_at"`
}

// AwardInput is what an admin sends to give an award.
type AwardInput struct {
	UserID string `json:"user_id"`
	Kind   string `json:"kind"`
	Note   string `json:"note"`
}

// SuggestionInput is what a member sends to suggest an award for
// themselves.
type SuggestionInput struct {
	Kind string `json:"kind"`
	Note string `json:"note"`
}
