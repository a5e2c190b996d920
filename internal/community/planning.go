package community

import (
	"context"
	"database/sql"

	"tribe/internal/store"
)

// Sessions is every live session, ordered by date then time, for code that
// plans mail around them (reminders, digests). The slice is shared: callers
// must not modify it.
func Sessions(ctx context.Context, db *store.DB) ([]*Session, error) {
	return loadSessions(ctx, db)
}

// LockSession reads session id inside tx and, on PostgreSQL, keeps its row
// locked until tx ends, so a mail planned under it cannot race a cancel or a
// move (SQLite's write transaction already serialises them).
func LockSession(ctx context.Context, db *store.DB, tx *sql.Tx, id string) (*Session, error) {
	return lockSession(ctx, db, tx, id)
}

// AttendedSQL is the condition under which a row of session_attendance
// aliased a counts as attended: the one rule, for queries across members.
const AttendedSQL = attendedSQL

// ICSFileName is the file name, without ".ics", of a session's calendar
// file: the letters and digits of its title.
func ICSFileName(title string) string { return icsFileName(title) }
