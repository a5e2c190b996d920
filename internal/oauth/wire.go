package oauth

// The JSON of the connected-assistant routes (docs/api.md, "Assistants"),
// which the web app's types are generated from (tygo.yaml).

import "time"

// Assistant is one client a member has connected, as their profile lists
// it: its live grants taken together.
type Assistant struct {
	ClientID string   `json:"client_id"`
	Name     string   `json:"name"`
	Scopes   []string `json:"scopes"`
	// CreatedAt is when the member first allowed it.
	CreatedAt time.Time `json:"created_at"`
	// LastUsedAt is when it last used a token (to the minute), or null.
	LastUsedAt *time.Time `json:"last_used_at" tstype:"string | null,required"`
}

// ClientCount is one client in the admins' list: how many members have it
// connected now.
type ClientCount struct {
	ClientID   string     `json:"client_id"`
	Name       string     `json:"name"`
	Members    int        `json:"members"`
	LastUsedAt *time.Time `json:"last_used_at" tstype:"string | null,required"`
}

// AssistantList answers GET /api/members/me/assistants.
type AssistantList struct {
	Assistants []Assistant `json:"assistants"`
}

// AssistantCounts answers GET /api/admin/assistants.
type AssistantCounts struct {
	Clients []ClientCount `json:"clients"`
}
