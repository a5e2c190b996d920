package community

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"tribe/internal/access"
	"tribe/internal/content"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// SessionStatuses are the states a live session may be in.
var SessionStatuses = []string{"scheduled", "live", "completed", "cancelled"}

// SessionView is the JSON a member receives. The meeting fields are nil,
// and so absent, unless the viewer may join (a subscriber or an admin).
type SessionView struct {
	ID           string    `json:"id"`
	Title        string    `json:"title"`
	Description  string    `json:"description"`
	Tags         []string  `json:"tags"`
	Date         string    `json:"session_date"`
	Time         string    `json:"session_time"`
	Duration     string    `json:"duration"`
	Timezone     string    `json:"timezone"`
	Status       string    `json:"status"`
	State        string    `json:"state"`
	MaxAttendees *int      `json:"max_attendees" tstype:"number | null,required"`
	StartsAt     time.Time `json:"starts_at"`
	EndsAt       time.Time `json:"ends_at"`
	Upcoming     bool      `json:"upcoming"`
	Locked       bool      `json:"locked"`
	MeetingID    *string   `json:"zoom_meeting_id,omitempty"`
	Password     *string   `json:"zoom_password,omitempty"`
	JoinURL      *string   `json:"zoom_join_url,omitempty"`
	MeetingLink  *string   `json:"meeting_link,omitempty"`
	// Going is how many members said they are going.
	Going int `json:"going_count"`
	// MyRSVP is the viewer's own answer: going, not going, or null when
	// they have not answered.
	MyRSVP *bool `json:"my_rsvp" tstype:"boolean | null,required"`
	// ReplayID is the library item holding the replay of a session that is
	// over, once it is published (the card's "Watch the replay"); absent
	// otherwise. The web layer fills it from internal/library.
	ReplayID  string    `json:"replay_id,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// View is the session as v sees it at now: meeting details only for those
// who may see paid content.
func (s *Session) View(v access.Viewer, now time.Time) SessionView {
	canJoin := v.SeesPaidContent()
	view := SessionView{
		ID: s.ID, Title: s.Title, Description: s.Description, Tags: s.Tags, Date: s.Date, Time: s.Time,
		Duration: s.Duration, Timezone: s.Timezone, Status: s.Status, State: s.State(now), MaxAttendees: s.MaxAttendees,
		StartsAt: s.StartsAt, EndsAt: s.EndsAt, Upcoming: s.Upcoming(now), Locked: !canJoin,
		CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt,
	}
	if canJoin {
		view.MeetingID, view.Password, view.JoinURL, view.MeetingLink = &s.MeetingID, &s.Password, &s.JoinURL, &s.MeetingLink
	}
	return view
}

// FieldTypeMessage explains a JSON value of the wrong type for the fields
// whose rule says more than their type.
func (in *SessionInput) FieldTypeMessage(field string) string {
	switch field {
	case "max_attendees":
		return maxAttendeesMsg
	case "tags":
		return tagsMsg
	}
	return ""
}

const (
	maxAttendeesMsg = "Max attendees must be a whole number from 1 to 10000."
	tagsMsg         = "Tags must be a list of at most 20 words of up to 40 characters."
)

// SessionInput is what an admin sends to create or replace a session.
type SessionInput struct {
	Title        string   `json:"title"`
	Description  string   `json:"description"`
	Tags         []string `json:"tags"`
	Date         string   `json:"session_date"`
	Time         string   `json:"session_time"`
	Duration     string   `json:"duration"`
	Timezone     string   `json:"timezone"`
	Status       string   `json:"status"`
	MaxAttendees *int     `json:"max_attendees" tstype:"number | null"`
	MeetingID    string   `json:"zoom_meeting_id"`
	Password     string   `json:"zoom_password"`
	JoinURL      string   `json:"zoom_join_url"`
	MeetingLink  string   `json:"meeting_link"`
}

// validate trims the input, checks every field and returns the session to
// store, with its times computed.
func (in SessionInput) validate() (*Session, error) {
	s := &Session{
		Title:       strings.TrimSpace(in.Title),
		Description: strings.TrimSpace(in.Description),
		Date:        strings.TrimSpace(in.Date),
		Time:        strings.TrimSpace(in.Time),
		Duration:    strings.TrimSpace(in.Duration),
		Timezone:    strings.TrimSpace(in.Timezone),
		Status:      strings.TrimSpace(in.Status),
		MeetingID:   strings.TrimSpace(in.MeetingID),
		Password:    strings.TrimSpace(in.Password),
		JoinURL:     strings.TrimSpace(in.JoinURL),
		MeetingLink: strings.TrimSpace(in.MeetingLink),
		Tags:        []string{},
	}
	for _, f := range []struct{ field, value string }{
		{"title", s.Title}, {"description", s.Description}, {"zoom_meeting_id", s.MeetingID},
		{"zoom_password", s.Password}, {"zoom_join_url", s.JoinURL}, {"meeting_link", s.MeetingLink},
	} {
		if !utf8.ValidString(f.value) || strings.ContainsRune(f.value, 0) {
			return nil, errs.Field(f.field, "The "+strings.ReplaceAll(f.field, "_", " ")+" contains characters that cannot be stored.")
		}
	}
	switch {
	case s.Title == "":
		return nil, errs.Field("title", "Please enter a title")
	case utf8.RuneCountInString(s.Title) > 200:
		return nil, errs.Field("title", "Title must be at most 200 characters.")
	case utf8.RuneCountInString(s.Description) > 5000:
		return nil, errs.Field("description", "Description must be at most 5000 characters.")
	}
	for _, t := range in.Tags {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if !utf8.ValidString(t) || strings.ContainsRune(t, 0) || utf8.RuneCountInString(t) > 40 {
			return nil, errs.Field("tags", tagsMsg)
		}
		s.Tags = append(s.Tags, t)
	}
	if len(s.Tags) > 20 {
		return nil, errs.Field("tags", tagsMsg)
	}
	if d, err := time.Parse(time.DateOnly, s.Date); err != nil || len(s.Date) != 10 || d.Year() < 2000 || d.Year() > 2200 {
		return nil, errs.Field("session_date", "Date must be a real date written YYYY-MM-DD.")
	}
	if _, err := time.Parse("15:04", s.Time); err != nil || len(s.Time) != 5 {
		return nil, errs.Field("session_time", "Time must be written HH:MM (24-hour).")
	}
	if _, err := ParseDuration(s.Duration); err != nil {
		return nil, errs.Field("duration", err.Error())
	}
	if _, err := content.LoadZone(s.Timezone); err != nil {
		return nil, errs.Field("timezone", "Time zone must be an IANA name such as America/New_York.")
	}
	if s.Status == "" {
		s.Status = SessionStatuses[0]
	}
	if !validStatus(s.Status) {
		return nil, errs.Field("status", "Status must be scheduled, live, completed or cancelled.")
	}
	if in.MaxAttendees != nil {
		if *in.MaxAttendees < 1 || *in.MaxAttendees > 10000 {
			return nil, errs.Field("max_attendees", maxAttendeesMsg)
		}
		n := *in.MaxAttendees
		s.MaxAttendees = &n
	}
	switch {
	case utf8.RuneCountInString(s.MeetingID) > 100:
		return nil, errs.Field("zoom_meeting_id", "Meeting ID must be at most 100 characters.")
	case utf8.RuneCountInString(s.Password) > 100:
		return nil, errs.Field("zoom_password", "Meeting password must be at most 100 characters.")
	case s.JoinURL != "" && !validHTTPURL(s.JoinURL, 1000):
		return nil, errs.Field("zoom_join_url", "Invalid join URL format")
	case s.MeetingLink != "" && !validHTTPURL(s.MeetingLink, 1000):
		return nil, errs.Field("meeting_link", "Invalid meeting link format")
	}
	var err error
	if s.StartsAt, s.EndsAt, err = Span(s.Date, s.Time, s.Timezone, s.Duration); err != nil {
		return nil, errs.Field("duration", err.Error())
	}
	return s, nil
}

func validStatus(s string) bool {
	for _, v := range SessionStatuses {
		if v == s {
			return true
		}
	}
	return false
}

const sessionColumns = `id, title, description, tags, session_date, session_time, duration, timezone, status,
	max_attendees, zoom_meeting_id, zoom_password, zoom_join_url, meeting_link, created_at, updated_at`

func scanSession(row interface{ Scan(...any) error }) (*Session, error) {
	var (
		s        Session
		tags     []byte
		maxAtt   sql.NullInt64
		cre, upd store.Time
	)
	if err := row.Scan(&s.ID, &s.Title, &s.Description, &tags, &s.Date, &s.Time, &s.Duration, &s.Timezone,
		&s.Status, &maxAtt, &s.MeetingID, &s.Password, &s.JoinURL, &s.MeetingLink, &cre, &upd); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(tags, &s.Tags); err != nil || s.Tags == nil {
		s.Tags = []string{}
	}
	if maxAtt.Valid {
		n := int(maxAtt.Int64)
		s.MaxAttendees = &n
	}
	s.CreatedAt, s.UpdatedAt = cre.Time, upd.Time
	// Rows written before validation existed (or by hand) may not compute;
	// such a session starts and ends at midnight UTC of its date rather than
	// failing the whole list.
	if s.StartsAt, s.EndsAt, s.scheduleError = Span(s.Date, s.Time, s.Timezone, s.Duration); s.scheduleError != nil {
		d, _ := time.Parse(time.DateOnly, s.Date)
		s.StartsAt, s.EndsAt = d, d
	}
	return &s, nil
}

// ListSessions returns every session, ordered by date then time, as v sees it at now.
func ListSessions(ctx context.Context, db *store.DB, v access.Viewer, now time.Time) ([]SessionView, error) {
	all, err := loadSessions(ctx, db)
	if err != nil {
		return nil, err
	}
	views := make([]SessionView, len(all))
	for i, s := range all {
		views[i] = s.View(v, now)
	}
	if err := withRSVPs(ctx, db, v, views); err != nil {
		return nil, err
	}
	return views, nil
}

// GetSession returns one session as v sees it at now, not_found when there is none.
func GetSession(ctx context.Context, db *store.DB, v access.Viewer, id string, now time.Time) (SessionView, error) {
	s, err := loadSession(ctx, db, id)
	if err != nil {
		return SessionView{}, err
	}
	views := []SessionView{s.View(v, now)}
	if err := withRSVPs(ctx, db, v, views); err != nil {
		return SessionView{}, err
	}
	return views[0], nil
}

// SessionCalendar is one session's iCalendar file as v may see it, with a
// file name made from its title.
func SessionCalendar(ctx context.Context, db *store.DB, v access.Viewer, id, baseURL string) (fileName string, ics []byte, err error) {
	s, err := loadSession(ctx, db, id)
	if err != nil {
		return "", nil, err
	}
	return icsFileName(s.Title), Calendar{BaseURL: baseURL, WithMeeting: v.SeesPaidContent()}.ICS([]*Session{s}), nil
}

// loadSessions returns every session ordered by date then time. The list
// is read once per change of the table (store.ReadThrough): members read
// it on every visit, admins change it a few times a week. Callers share the
// sessions and must not modify them.
func loadSessions(ctx context.Context, db *store.DB) ([]*Session, error) {
	return store.ReadThrough(ctx, db, "live_sessions", func(ctx context.Context) ([]*Session, error) { return readSessions(ctx, db) })
}

// readSessions reads every session ordered by date then time.
func readSessions(ctx context.Context, db *store.DB) ([]*Session, error) {
	rows, err := db.ReadRows(ctx, `SELECT `+sessionColumns+` FROM live_sessions ORDER BY session_date, session_time, created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer func() { _ = rows.Close() }()
	out := []*Session{}
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, s)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	return out, nil
}

// loadSession reads one session, not_found when there is none.
func loadSession(ctx context.Context, db *store.DB, id string) (*Session, error) {
	s, err := scanSession(db.Read.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM live_sessions WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Session")
	}
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", id, err)
	}
	return s, nil
}

// CreateSession validates and stores a new session.
func CreateSession(ctx context.Context, db *store.DB, adminID string, in SessionInput) (*Session, error) {
	s, err := in.validate()
	if err != nil {
		return nil, err
	}
	tags, err := json.Marshal(s.Tags)
	if err != nil {
		return nil, fmt.Errorf("encode tags: %w", err)
	}
	id := store.NewID()
	now := store.Now()
	var createdBy *string // NULL when made by an operator tool rather than a signed-in admin
	if adminID != "" {
		createdBy = &adminID
	}
	_, err = db.Write.ExecContext(ctx,
		`INSERT INTO live_sessions (id, title, description, tags, session_date, session_time, duration, timezone, status,
		    max_attendees, zoom_meeting_id, zoom_password, zoom_join_url, meeting_link, created_by, created_at, updated_at)
		 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16)`,
		id, s.Title, s.Description, string(tags), s.Date, s.Time, s.Duration, s.Timezone, s.Status,
		s.MaxAttendees, s.MeetingID, s.Password, s.JoinURL, s.MeetingLink, createdBy, now)
	if err != nil {
		return nil, fmt.Errorf("create session: %w", err)
	}
	return loadSession(ctx, db, id)
}

// UpdateSession replaces every field of a session.
func UpdateSession(ctx context.Context, db *store.DB, id string, in SessionInput) (*Session, error) {
	s, err := in.validate()
	if err != nil {
		return nil, err
	}
	tags, err := json.Marshal(s.Tags)
	if err != nil {
		return nil, fmt.Errorf("encode tags: %w", err)
	}
	res, err := db.Write.ExecContext(ctx,
		`UPDATE live_sessions SET title = $1, description = $2, tags = $3, session_date = $4, session_time = $5,
		    duration = $6, timezone = $7, status = $8, max_attendees = $9, zoom_meeting_id = $10, zoom_password = $11,
		    zoom_join_url = $12, meeting_link = $13, updated_at = $14
		  WHERE id = $15`,
		s.Title, s.Description, string(tags), s.Date, s.Time, s.Duration, s.Timezone, s.Status, s.MaxAttendees,
		s.MeetingID, s.Password, s.JoinURL, s.MeetingLink, store.Now(), id)
	if err := oneRow(res, err, "update session "+id); err != nil {
		return nil, err
	}
	return loadSession(ctx, db, id)
}

// ErrSessionOver: a status change that makes no sense once a session has
// ended (cancelling it, scheduling it again, marking it live).
var ErrSessionOver = errs.Field("status", "This session is over: it can only be marked completed.")

// SetSessionStatus changes only the status, e.g. to cancel a session. A
// session that has ended may only be marked completed (or keep the status
// it has): "cancelled" would tell members that a session they attended
// never took place. now is the caller's clock, which decides "ended".
func SetSessionStatus(ctx context.Context, db *store.DB, id, status string, now time.Time) (*Session, error) {
	status = strings.TrimSpace(status)
	if !validStatus(status) {
		return nil, errs.Field("status", "Status must be scheduled, live, completed or cancelled.")
	}
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		s, err := scanSession(tx.QueryRowContext(ctx, `SELECT `+sessionColumns+` FROM live_sessions WHERE id = $1`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("Session")
		}
		if err != nil {
			return fmt.Errorf("read session %s: %w", id, err)
		}
		if !s.Upcoming(now) && status != "completed" && status != s.Status {
			return ErrSessionOver
		}
		res, err := tx.ExecContext(ctx, `UPDATE live_sessions SET status = $1, updated_at = $2 WHERE id = $3`,
			status, store.Now(), id)
		return oneRow(res, err, "set status of session "+id)
	})
	if err != nil {
		return nil, err
	}
	return loadSession(ctx, db, id)
}

// DeleteSession removes a session.
func DeleteSession(ctx context.Context, db *store.DB, id string) error {
	res, err := db.Write.ExecContext(ctx, `DELETE FROM live_sessions WHERE id = $1`, id)
	return oneRow(res, err, "delete session "+id)
}

// oneRow turns an exec result into not_found when no row matched.
func oneRow(res sql.Result, err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	if n == 0 {
		return notFound("Session")
	}
	return nil
}
