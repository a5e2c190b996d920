package notify

import "time"

// The JSON objects of notifications and the at-risk list (docs/api.md,
// "Notifications"), read by tygo.yaml: only JSON types here.

// Settings is which mail a member gets, and the zone their mail states
// times in.
type Settings struct {
	// SessionReminders: a mail 24 hours and 1 hour before each live session.
	SessionReminders bool `json:"session_reminders"`
	// WeeklyDigest: what they missed, once a week, only after 7 days away.
	WeeklyDigest bool `json:"weekly_digest"`
	// CohortProjects: new projects shared in their cohort.
	CohortProjects bool `json:"cohort_projects"`
	// LevelReached: a congratulation when they reach a new level.
	LevelReached bool `json:"level_reached"`
	// TimeZone is an IANA zone ("Europe/Paris"); empty until set, when the
	// web app offers the browser's.
	TimeZone string `json:"time_zone"`
}

// SettingsInput changes some settings; a null or absent field keeps its
// value.
type SettingsInput struct {
	SessionReminders *bool   `json:"session_reminders" tstype:"boolean | null"`
	WeeklyDigest     *bool   `json:"weekly_digest" tstype:"boolean | null"`
	CohortProjects   *bool   `json:"cohort_projects" tstype:"boolean | null"`
	LevelReached     *bool   `json:"level_reached" tstype:"boolean | null"`
	TimeZone         *string `json:"time_zone" tstype:"string | null"`
}

// Unsubscribed is the answer of a one-click unsubscribe: which mail stopped.
type Unsubscribed struct {
	// Kind is the setting turned off ("session_reminders", ...).
	Kind string `json:"kind"`
	// Label names it for people ("session reminders").
	Label string `json:"label"`
}

// AtRiskMember is a member who may be drifting away, for admins.
type AtRiskMember struct {
	UserID   string `json:"user_id"`
	FullName string `json:"full_name"`
	Email    string `json:"email"`
	// Reasons: "missed_sessions" (absent from the last two sessions),
	// "not_seen" (14 days or more), "payment_failed".
	Reasons []string `json:"reasons"`
	// LastSeenAt is the last signed-in visit; null when never recorded.
	LastSeenAt *time.Time `json:"last_seen_at" tstype:"string | null,required"`
	// LastActivityAt is the latest of the last visit, RSVP and join; null
	// when there is none.
	LastActivityAt *time.Time `json:"last_activity_at" tstype:"string | null,required"`
	Level          string     `json:"level"`
	// Cohort is the name of their cohort; null when in none.
	Cohort *string `json:"cohort" tstype:"string | null,required"`
	// SubscriptionStatus is Stripe's status of their membership.
	SubscriptionStatus string `json:"subscription_status"`
}

// AtRiskList is GET /api/admin/at-risk.
type AtRiskList struct {
	Members []AtRiskMember `json:"members"`
	// NotSeenDays and MissedSessions are the thresholds used.
	NotSeenDays    int `json:"not_seen_days"`
	MissedSessions int `json:"missed_sessions"`
}
