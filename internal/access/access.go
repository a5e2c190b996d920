// Package access holds Viewer: who is asking, with the rights the domain
// rules need. Domain functions that list or read anything paywalled take a
// Viewer and return what that viewer may see, so the web routes, the AI
// tools and the MCP server apply one rule and never compute it themselves.
package access

// Viewer is the person a domain call answers. The zero Viewer is anonymous.
type Viewer struct {
	UserID string
	Admin  bool
	// Member is true when the viewer has tribe access now (decided by
	// billing.HasAccess, the one function for it).
	Member bool
}

// Anonymous reports whether nobody is signed in.
func (v Viewer) Anonymous() bool { return v.UserID == "" }

// SeesPaidContent reports whether the viewer may read what the membership
// pays for (meeting ids, passwords and join links, the group-chat
// invitation): tribe members and admins.
func (v Viewer) SeesPaidContent() bool { return v.Admin || v.Member }
