package community

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"tribe/internal/access"
	"tribe/internal/errs"
	"tribe/internal/store"
)

// Refusals of RSVPs and joins, as a member reads them.
var (
	ErrRSVPForMembers   = errs.New(errs.Forbidden, "RSVPs are for tribe members: subscribe to join the live sessions.")
	ErrJoinForMembers   = errs.New(errs.Forbidden, "Live sessions are for tribe members: subscribe to get the meeting link.")
	ErrSessionStarted   = errs.New(errs.Conflict, "This session has already started: RSVPs are closed.")
	ErrSessionCancelled = errs.New(errs.Conflict, "This session was cancelled.")
	ErrSessionFull      = errs.New(errs.Conflict, "This session is full: every place is taken.")
	ErrNoMeetingLink    = errs.New(errs.Conflict, "This session has no meeting link yet. It will be here before the session starts.")
)

// started reports whether the session is under way or over at now, by its
// clock or by an admin having marked it live or completed.
func (s *Session) started(now time.Time) bool {
	return !now.Before(s.StartsAt) || s.Status == "live" || s.Status == "completed"
}

// SetRSVP records whether v is going to session id, as of now. Only
// those who may join (subscribers and admins) answer; the answer can change
// until the session starts. A session with max_attendees takes no more
// "going" answers than that. Nothing is written when it refuses.
func SetRSVP(ctx context.Context, db *store.DB, v access.Viewer, id string, in RSVPInput, now time.Time) error {
	if !v.SeesPaidContent() {
		return ErrRSVPForMembers
	}
	if in.Going == nil {
		return errs.Field("going", "Say whether you are going: true or false.")
	}
	going := *in.Going
	return db.Tx(ctx, func(tx *sql.Tx) error {
		s, err := lockSession(ctx, db, tx, id)
		if err != nil {
			return err
		}
		switch {
		case s.Status == "cancelled":
			return ErrSessionCancelled
		case s.started(now):
			return ErrSessionStarted
		}
		if going && s.MaxAttendees != nil {
			var others int
			if err := tx.QueryRowContext(ctx,
				`SELECT COUNT(*) FROM session_rsvps WHERE session_id = $1 AND going AND user_id <> $2`,
				id, v.UserID).Scan(&others); err != nil {
				return fmt.Errorf("count rsvps of session %s: %w", id, err)
			}
			if others >= *s.MaxAttendees {
				return ErrSessionFull
			}
		}
		_, err = tx.ExecContext(ctx,
			`INSERT INTO session_rsvps (session_id, user_id, going, updated_at) VALUES ($1, $2, $3, $4)
			 ON CONFLICT (session_id, user_id) DO UPDATE SET going = excluded.going, updated_at = excluded.updated_at`,
			id, v.UserID, going, store.At(now))
		if err != nil {
			return fmt.Errorf("rsvp to session %s: %w", id, err)
		}
		return nil
	})
}

// lockSession reads a session inside tx. On PostgreSQL the row stays locked
// until tx ends, so RSVPs to one session are counted one at a time; SQLite
// transactions here already hold the database's single write lock.
func lockSession(ctx context.Context, db *store.DB, tx *sql.Tx, id string) (*Session, error) {
	q := `SELECT ` + sessionColumns + ` FROM live_sessions WHERE id = $1`
	if db.Dialect == store.Postgres {
		q += ` FOR UPDATE`
	}
	s, err := scanSession(tx.QueryRowContext(ctx, q, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Session")
	}
	if err != nil {
		return nil, fmt.Errorf("read session %s: %w", id, err)
	}
	return s, nil
}

// goingCounts is how many members are going to each session, by session
// id. It is read once per change of session_rsvps (store.ReadThrough), so
// a session list costs one lookup for the counts; callers must not modify it.
func goingCounts(ctx context.Context, db *store.DB) (map[string]int, error) {
	return store.ReadThrough(ctx, db, "session_rsvps", func(ctx context.Context) (map[string]int, error) {
		return countsBy(ctx, db, "count rsvps", `SELECT session_id, COUNT(*) FROM session_rsvps WHERE going GROUP BY session_id`)
	})
}

// rsvpsOf is the user's own answers, by session id.
func rsvpsOf(ctx context.Context, db *store.DB, userID string) (map[string]bool, error) {
	out := map[string]bool{}
	if userID == "" {
		return out, nil
	}
	rows, err := db.ReadRows(ctx, `SELECT session_id, going FROM session_rsvps WHERE user_id = $1`, userID)
	if err != nil {
		return nil, fmt.Errorf("read rsvps of %s: %w", userID, err)
	}
	defer func() { _ = rows.Close() }()
	for rows.Next() {
		var id string
		var going bool
		if err := rows.Scan(&id, &going); err != nil {
			return nil, fmt.Errorf("read rsvps of %s: %w", userID, err)
		}
		out[id] = going
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read rsvps of %s: %w", userID, err)
	}
	return out, nil
}

// withRSVPs adds the going counts and the viewer's own answers to views.
func withRSVPs(ctx context.Context, db *store.DB, v access.Viewer, views []SessionView) error {
	counts, err := goingCounts(ctx, db)
	if err != nil {
		return err
	}
	mine, err := rsvpsOf(ctx, db, v.UserID)
	if err != nil {
		return err
	}
	for i := range views {
		views[i].Going = counts[views[i].ID]
		if going, ok := mine[views[i].ID]; ok {
			views[i].MyRSVP = &going
		}
	}
	return nil
}
