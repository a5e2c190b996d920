package community

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"tribe/internal/access"
	"tribe/internal/csvx"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// JoinEarly is how long before its start a click on Join counts as
// attending: members open the meeting a little early.
const JoinEarly = 15 * time.Minute

// ErrSessionNotStarted refuses an attendance correction before the start:
// nobody can have attended yet.
var ErrSessionNotStarted = errs.New(errs.Conflict, "This session has not started yet: attendance can be corrected once it has.")

// Joined is the answer of Join: where to send the member, and whether the
// click was recorded as attendance.
type Joined struct {
	MeetingURL string
	Recorded   bool
}

// Join is a click on a session's Join button by v at now. Only those who
// may see paid content get the meeting link; their click is recorded as
// attendance when it comes between JoinEarly before the start and the end
// (the first such click is kept). A cancelled session, or one without an
// http(s) link, has nothing to join.
func Join(ctx context.Context, db *store.DB, v access.Viewer, id string, now time.Time) (Joined, error) {
	if !v.SeesPaidContent() {
		return Joined{}, ErrJoinForMembers
	}
	s, err := loadSession(ctx, db, id)
	if err != nil {
		return Joined{}, err
	}
	if s.Status == "cancelled" {
		return Joined{}, ErrSessionCancelled
	}
	link := s.JoinURL
	if link == "" {
		link = s.MeetingLink
	}
	if !validHTTPURL(link, 1000) {
		return Joined{}, ErrNoMeetingLink
	}
	if now.Before(s.StartsAt.Add(-JoinEarly)) || !now.Before(s.EndsAt) {
		return Joined{MeetingURL: link}, nil
	}
	_, err = db.Write.ExecContext(ctx,
		`INSERT INTO session_attendance (session_id, user_id, joined_at) VALUES ($1, $2, $3)
		 ON CONFLICT (session_id, user_id) DO UPDATE SET joined_at = COALESCE(session_attendance.joined_at, excluded.joined_at)`,
		id, v.UserID, store.At(now))
	if err != nil {
		return Joined{}, fmt.Errorf("record attendance at session %s: %w", id, err)
	}
	return Joined{MeetingURL: link, Recorded: true}, nil
}

// attendedSQL is the condition for a row of session_attendance a counting
// as attended: an admin said present, or the member joined and no admin
// said absent.
const attendedSQL = `(a.correction = 'present' OR (a.correction IS NULL AND a.joined_at IS NOT NULL))`

// AttendedCount is how many sessions the user attended, cancelled ones
// left out.
func AttendedCount(ctx context.Context, db *store.DB, userID string) (int, error) {
	var n int
	err := db.ReadRow(ctx, `SELECT COUNT(*) FROM session_attendance a JOIN live_sessions s ON s.id = a.session_id
		 WHERE a.user_id = $1 AND s.status <> 'cancelled' AND `+attendedSQL, userID).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count attendance of %s: %w", userID, err)
	}
	return n, nil
}

// Attendance is the attendance sheet of session id at now.
func Attendance(ctx context.Context, db *store.DB, id string, now time.Time) (*AttendanceSheet, error) {
	s, err := loadSession(ctx, db, id)
	if err != nil {
		return nil, err
	}
	return readSheet(ctx, db.Read, s, now)
}

// CorrectAttendance records an admin's word on whether a member attended
// session id, with who said it and when, and returns the sheet. Refused
// for a cancelled session and before the start; nothing is written then.
func CorrectAttendance(ctx context.Context, db *store.DB, adminID, id string, in AttendanceInput, now time.Time) (*AttendanceSheet, error) {
	userID := strings.TrimSpace(in.UserID)
	if userID == "" {
		return nil, errs.Field("user_id", "Choose the member to mark.")
	}
	if in.Present == nil {
		return nil, errs.Field("present", "Say whether the member was present: true or false.")
	}
	correction := "absent"
	if *in.Present {
		correction = "present"
	}
	var sheet *AttendanceSheet
	err := db.Tx(ctx, func(tx *sql.Tx) error {
		s, err := lockSession(ctx, db, tx, id)
		if err != nil {
			return err
		}
		switch {
		case s.Status == "cancelled":
			return ErrSessionCancelled
		case !s.started(now):
			return ErrSessionNotStarted
		}
		var one int
		err = tx.QueryRowContext(ctx, `SELECT 1 FROM users WHERE id = $1`, userID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return notFound("Member")
		}
		if err != nil {
			return fmt.Errorf("read member %s: %w", userID, err)
		}
		var by *string
		if adminID != "" {
			by = &adminID
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO session_attendance (session_id, user_id, correction, corrected_by, corrected_at) VALUES ($1, $2, $3, $4, $5)
			 ON CONFLICT (session_id, user_id) DO UPDATE SET correction = excluded.correction,
			     corrected_by = excluded.corrected_by, corrected_at = excluded.corrected_at`,
			id, userID, correction, by, store.At(now))
		if err != nil {
			return fmt.Errorf("correct attendance at session %s: %w", id, err)
		}
		sheet, err = readSheet(ctx, tx, s, now)
		return err
	})
	if err != nil {
		return nil, err
	}
	return sheet, nil
}

// querier is what a sheet is read through: the read pool or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

func readSheet(ctx context.Context, q querier, s *Session, now time.Time) (*AttendanceSheet, error) {
	sheet := &AttendanceSheet{SessionID: s.ID, Title: s.Title, Status: s.Status, StartsAt: s.StartsAt, EndsAt: s.EndsAt,
		Started: s.started(now), Rows: []AttendanceRow{}}
	rows, err := q.QueryContext(ctx, `
		WITH people AS (
		    SELECT user_id FROM session_rsvps WHERE session_id = $1
		    UNION SELECT user_id FROM session_attendance WHERE session_id = $1
		)
		SELECT u.id, COALESCE(p.full_name, ''), u.email, r.going, a.joined_at, a.correction, cp.full_name, a.corrected_at
		  FROM people
		  JOIN users u ON u.id = people.user_id
		  LEFT JOIN profiles p ON p.id = u.id
		  LEFT JOIN session_rsvps r ON r.session_id = $1 AND r.user_id = u.id
		  LEFT JOIN session_attendance a ON a.session_id = $1 AND a.user_id = u.id
		  LEFT JOIN profiles cp ON cp.id = a.corrected_by
		 ORDER BY lower(COALESCE(p.full_name, '')), u.email`, s.ID)
	if err != nil {
		return nil, fmt.Errorf("read attendance of session %s: %w", s.ID, err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var (
			row             AttendanceRow
			going           sql.NullBool
			joined, fixedAt store.NullTime
			correction, by  sql.NullString
		)
		if err := rows.Scan(&row.UserID, &row.FullName, &row.Email, &going, &joined, &correction, &by, &fixedAt); err != nil {
			return nil, fmt.Errorf("read attendance of session %s: %w", s.ID, err)
		}
		if going.Valid {
			g := going.Bool
			row.RSVP = &g
			if g {
				sheet.Going++
			}
		}
		if joined.Valid {
			t := joined.Time.Time
			row.JoinedAt = &t
		}
		if correction.Valid {
			c := correction.String
			row.Correction = &c
			if by.Valid {
				name := by.String
				row.CorrectedBy = &name
			}
			if fixedAt.Valid {
				t := fixedAt.Time.Time
				row.CorrectedAt = &t
			}
		}
		row.Present = correction.String == "present" || (!correction.Valid && joined.Valid)
		if row.Present {
			sheet.Present++
		}
		sheet.Rows = append(sheet.Rows, row)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read attendance of session %s: %w", s.ID, err)
	}
	return sheet, nil
}

// FileName is the name the sheet is downloaded under, without extension.
func (sh *AttendanceSheet) FileName() string {
	return "attendance-" + sh.StartsAt.UTC().Format(time.DateOnly) + "-" + icsFileName(sh.Title)
}

// WriteCSV writes the sheet as CSV (csvx: RFC 4180, CRLF, every cell
// neutralised against spreadsheet formulas) with a header row.
func (sh *AttendanceSheet) WriteCSV(w *csvx.Writer) error {
	if err := w.Write(AttendanceHeader...); err != nil {
		return err
	}
	for _, r := range sh.Rows {
		if err := w.Write(sh.Record(r)...); err != nil {
			return err
		}
	}
	return w.Flush()
}

// AttendanceHeader names the columns of Record.
var AttendanceHeader = []string{"full_name", "email", "rsvp", "joined_at", "correction", "corrected_by", "corrected_at", "present"}

// Record is one row of the sheet as CSV cells (AttendanceHeader).
func (sh *AttendanceSheet) Record(r AttendanceRow) []string {
	stamp := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.UTC().Format("2006-01-02T15:04:05Z")
	}
	text := func(s *string) string {
		if s == nil {
			return ""
		}
		return *s
	}
	rsvp := ""
	if r.RSVP != nil {
		rsvp = map[bool]string{true: "going", false: "not going"}[*r.RSVP]
	}
	return []string{r.FullName, r.Email, rsvp, stamp(r.JoinedAt), text(r.Correction), text(r.CorrectedBy),
		stamp(r.CorrectedAt), map[bool]string{true: "yes", false: "no"}[r.Present]}
}

// EachAttendanceSheet calls fn with the attendance sheet of every session,
// oldest first, as the admins' attendance export reads them.
func EachAttendanceSheet(ctx context.Context, db *store.DB, now time.Time, fn func(*AttendanceSheet) error) error {
	rows, err := db.Read.QueryContext(ctx, `SELECT id FROM live_sessions ORDER BY session_date, session_time, id`)
	if err != nil {
		return fmt.Errorf("list sessions: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			_ = rows.Close()
			return fmt.Errorf("list sessions: %w", err)
		}
		ids = append(ids, id)
	}
	_ = rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("list sessions: %w", err)
	}
	for _, id := range ids {
		sheet, err := Attendance(ctx, db, id, now)
		if errs.Is(err, errs.NotFound) {
			continue // deleted since the list was read
		}
		if err != nil {
			return err
		}
		if err := fn(sheet); err != nil {
			return err
		}
	}
	return nil
}

// AttendedCounts is AttendedCount of every member who attended at least one
// session, read in one query.
func AttendedCounts(ctx context.Context, db *store.DB) (map[string]int, error) {
	return countsBy(ctx, db, "count attendance", `SELECT a.user_id, COUNT(*) FROM session_attendance a JOIN live_sessions s ON s.id = a.session_id
		 WHERE s.status <> 'cancelled' AND `+attendedSQL+` GROUP BY a.user_id`)
}
