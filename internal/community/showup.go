package community

import "time"

// The JSON objects of RSVPs and attendance (docs/api.md, "Show-up"), read
// by tygo.yaml: only JSON types here.

// RSVPInput is what PUT /api/sessions/{id}/rsvp takes. Going is a pointer
// so that a body without it is refused rather than read as "not going".
type RSVPInput struct {
	Going *bool `json:"going" tstype:"boolean | null"`
}

// AttendanceInput is an admin's correction: the member, and whether they
// were present.
type AttendanceInput struct {
	UserID  string `json:"user_id"`
	Present *bool  `json:"present" tstype:"boolean | null"`
}

// AttendanceRow is one member on a session's attendance sheet: everyone
// who answered the RSVP, joined, or was marked by an admin.
type AttendanceRow struct {
	UserID   string `json:"user_id"`
	FullName string `json:"full_name"`
	Email    string `json:"email"`
	// RSVP is the member's answer: going, not going, or null.
	RSVP     *bool      `json:"rsvp" tstype:"boolean | null,required"`
	JoinedAt *time.Time `json:"joined_at" tstype:"string | null,required"`
	// Correction is an admin's word, "present" or "absent", or null.
	Correction *string `json:"correction" tstype:"\"present\" | \"absent\" | null,required"`
	// CorrectedBy is the name of the admin who corrected; null when there
	// is no correction or that admin's account is gone.
	CorrectedBy *string    `json:"corrected_by" tstype:"string | null,required"`
	CorrectedAt *time.Time `json:"corrected_at" tstype:"string | null,required"`
	// Present is what counts towards the member's level.
	Present bool `json:"present"`
}

// AttendanceSheet is a session's attendance, for admins.
type AttendanceSheet struct {
	SessionID string    `json:"session_id"`
	Title     string    `json:"title"`
	Status    string    `json:"status"`
	StartsAt  time.Time `json:"starts_at"`
	EndsAt    time.Time `json:"ends_at"`
	// Started says corrections are accepted.
	Started bool            `json:"started"`
	Going   int             `json:"going"`
	Present int             `json:"present"`
	Rows    []AttendanceRow `json:"rows"`
}
