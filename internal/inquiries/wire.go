package inquiries

import "time"

// The inquiry form's and the owner's JSON bodies (tygo.yaml generates
// their TypeScript).

// The statuses an inquiry moves through, as the owner sets them.
const (
	StatusNew     = "new"
	StatusReplied = "replied"
	StatusWon     = "won"
	StatusLost    = "lost"
)

// The form's limits, in characters (team size in people).
const (
	MaxName     = 120
	MaxCompany  = 200
	MaxMessage  = 5000
	MaxNote     = 5000
	MaxTeamSize = 1000000
)

// Input is the form a visitor sends.
type Input struct {
	Name           string `json:"name"`
	Email          string `json:"email"` // a work address
	Company        string `json:"company"`
	TeamSize       int    `json:"team_size"`
	Message        string `json:"message"`         // what they want
	PreferredStart string `json:"preferred_start"` // YYYY-MM-DD, or empty
}

// Inquiry is one stored inquiry.
type Inquiry struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Email          string    `json:"email"`
	Company        string    `json:"company"`
	TeamSize       int       `json:"team_size"`
	Message        string    `json:"message"`
	PreferredStart string    `json:"preferred_start"`
	Status         string    `json:"status"`
	Note           string    `json:"note"`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`
}

// Patch is the owner's change to an inquiry: a nil field is left as it is.
type Patch struct {
	ID     string  `json:"id"`
	Status *string `json:"status,omitempty"`
	Note   *string `json:"note,omitempty"`
}
