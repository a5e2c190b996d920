-- The show-up loop (SQLite): RSVPs, attendance, awards and the level a
-- member was last congratulated for. Keep the PostgreSQL twin in step.
-- Levels themselves are never stored: internal/levels derives them from
-- these rows on every read.

-- A member's answer to a session: going or not. Changeable until the start.
CREATE TABLE session_rsvps (
    session_id TEXT NOT NULL REFERENCES live_sessions(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    going      INTEGER NOT NULL CHECK (going IN (0, 1)),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (session_id, user_id)
);
CREATE INDEX session_rsvps_user ON session_rsvps(user_id);

-- The going counts are kept in memory until an RSVP changes (store.ReadThrough).
INSERT INTO table_versions (name) VALUES ('session_rsvps');
CREATE TRIGGER session_rsvps_inserted AFTER INSERT ON session_rsvps
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'session_rsvps'; END;
CREATE TRIGGER session_rsvps_updated AFTER UPDATE ON session_rsvps
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'session_rsvps'; END;
CREATE TRIGGER session_rsvps_deleted AFTER DELETE ON session_rsvps
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'session_rsvps'; END;

-- Attendance: the first click on Join inside the session's window, and an
-- admin's correction (present or absent), with who made it and when. A row
-- exists only when one of the two does.
CREATE TABLE session_attendance (
    session_id   TEXT NOT NULL REFERENCES live_sessions(id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    joined_at    TEXT,
    correction   TEXT CHECK (correction IN ('present', 'absent')),
    corrected_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    corrected_at TEXT,
    PRIMARY KEY (session_id, user_id),
    CHECK (joined_at IS NOT NULL OR correction IS NOT NULL),
    CHECK ((correction IS NULL) = (corrected_at IS NULL))
);
CREATE INDEX session_attendance_user ON session_attendance(user_id);

-- Contributions, mentoring and workshops: given by an admin with a note, or
-- suggested by the member and accepted by an admin. Only accepted awards count.
CREATE TABLE awards (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('contribution', 'mentoring', 'workshop')),
    note         TEXT NOT NULL CHECK (length(note) BETWEEN 1 AND 500),
    status       TEXT NOT NULL CHECK (status IN ('suggested', 'accepted')),
    suggested    INTEGER NOT NULL CHECK (suggested IN (0, 1)),
    awarded_by   TEXT REFERENCES users(id) ON DELETE SET NULL,
    awarded_at   TEXT,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((status = 'accepted') = (awarded_at IS NOT NULL))
);
CREATE INDEX awards_user ON awards(user_id, status);
CREATE INDEX awards_created ON awards(created_at);

-- The highest level a member has been congratulated for, so the
-- congratulation is shown once. Not the level: that is always computed.
CREATE TABLE level_notices (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    level   TEXT NOT NULL CHECK (level IN ('Apprentice', 'Contributor', 'Builder', 'Expert', 'Master')),
    seen_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
