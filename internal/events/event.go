// Package events carries live-update notices (cohorts, sessions, a user's
// subscription) from the code that changes data to every open browser tab,
// across server instances when they share a PostgreSQL database.
package events

// Topics a browser can be told about. A notice says what changed, never the
// data itself: the browser refetches through the normal, access-checked API.
const (
	TopicCohorts      = "cohorts"
	TopicSessions     = "sessions"
	TopicSubscription = "subscription"
	TopicProfile      = "profile"
	// TopicTribe: the member count changed (someone gained or lost access).
	TopicTribe = "tribe"
	// TopicBooking: one booking changed (paid, confirmed, moved,
	// cancelled, refunded). Published to BookingStream(id), which only
	// that booking's page, opened with its manage token, subscribes as.
	TopicBooking = "booking"
	// TopicProgress: a member's attendance or awards changed, so their
	// level may have; sent to that member only.
	TopicProgress = "progress"
	// TopicProjects: the projects board changed (a project shared, edited,
	// hidden or deleted, a reaction, a comment); sent to everyone.
	TopicProjects = "projects"
	// TopicCommunity: the community's threads changed (a thread or reply
	// posted, edited, hidden or deleted, a reaction, an accepted answer);
	// sent to everyone, who refetch what they may see.
	TopicCommunity = "community"
	// TopicNotifications: a member's notification centre changed (a new
	// notification, some read); sent to that member only.
	TopicNotifications = "notifications"
)

// BookingStream is the subscriber name of a booking's page: a booking's
// notices go to it alone.
func BookingStream(bookingID string) string { return "booking:" + bookingID }

// TopicKB says the knowledge base changed (documents, their chunks or their
// vectors). Servers follow it among themselves (Hub.Watch) to keep their
// in-memory search index in step; it is never streamed to browsers.
const TopicKB = "kb"

// Event is one change notice. UserID, when set, limits delivery to that
// user's streams (a subscription change is nobody else's business).
type Event struct {
	Topic  string `json:"topic"`
	UserID string `json:"-"`
}
