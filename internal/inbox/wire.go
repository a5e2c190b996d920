package inbox

import (
	"time"

	"tribe/internal/notify"
)

// The JSON objects of the notification centre (docs/api.md,
// "Notifications"), read by tygo.yaml: only JSON types here.

// Notification is one entry of a member's notification centre.
type Notification struct {
	ID string `json:"id"`
	// Kind is one of mention, reply, accepted, reaction, announcement,
	// level, reminder, replay.
	Kind  string `json:"kind"`
	Title string `json:"title"`
	Body  string `json:"body"`
	// Link is a path on the site ("/members/community/…"), or "".
	Link string `json:"link"`
	// Count is how many notices this entry stands for (reactions to one
	// thread fold into one entry while it is unread).
	Count     int        `json:"count"`
	CreatedAt time.Time  `json:"created_at"`
	ReadAt    *time.Time `json:"read_at" tstype:"string | null,required"`
}

// List is GET /api/notifications.
type List struct {
	Notifications []Notification `json:"notifications"`
	// Unread is how many of the member's notifications are unread (all of
	// them, not only this page).
	Unread int `json:"unread"`
	// NextCursor fetches the next (older) page; "" at the end.
	NextCursor string `json:"next_cursor"`
}

// ReadInput is POST /api/notifications/read: some ids, or all.
type ReadInput struct {
	IDs []string `json:"ids"`
	All bool     `json:"all"`
}

// ReadResult is the answer to ReadInput.
type ReadResult struct {
	// Marked is how many were unread and are now read.
	Marked int `json:"marked"`
	Unread int `json:"unread"`
}

// Channels is a member's channel per kind: "app" (the notification centre
// only), "push" (and their devices), "mail" (and by mail). Level and
// reminder take "app" or "push": their mail is the notification settings'
// level_reached and session_reminders.
type Channels map[string]string

// PushKey is GET /api/push/key.
type PushKey struct {
	// PublicKey is the VAPID public key, base64url, uncompressed P-256.
	PublicKey string `json:"public_key"`
}

// Preferences is GET|PUT /api/members/me/notifications: the mail settings
// and, beside them, the channel of each kind of notification.
type Preferences struct {
	notify.Settings `tstype:",extends"`
	Channels        Channels `json:"channels"`
}

// PreferencesInput changes some settings and some channels; what it leaves
// out keeps its value.
type PreferencesInput struct {
	notify.SettingsInput `tstype:",extends"`
	Channels             Channels `json:"channels,omitempty"`
}
