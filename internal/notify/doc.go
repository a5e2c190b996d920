// Package notify is the mail the tribe sends members about their own
// participation, and what it needs to know to send it well: each member's
// choices and time zone (notification_settings), when they were last seen
// and what they were last told (member_activity), and the key that signs
// one-click unsubscribe links (notify_secret). It plans session reminders,
// weekly digests for members who have been away and level congratulations
// into the outbox (internal/mail), each once across instances, and lists
// the members at risk of drifting away for admins.
package notify
