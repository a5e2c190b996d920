-- Group trainings sold by the seat, and enterprise inquiries (SQLite). Keep
-- the PostgreSQL twin of this file in step.

-- An occurrence of a seated type (the group training) the owner scheduled.
-- [blocked_from, blocked_until) is the time it takes from the owner's
-- one-to-one calendar: the session with the buffers in force when it was
-- scheduled. Times are store.Time text (fixed-width UTC).
CREATE TABLE booking_events (
    id            TEXT PRIMARY KEY,
    type_id       TEXT NOT NULL CHECK (length(type_id) BETWEEN 1 AND 64 AND type_id NOT GLOB '*[^a-z0-9-]*'),
    status        TEXT NOT NULL CHECK (status IN ('scheduled', 'cancelled')),
    start_at      TEXT NOT NULL,
    end_at        TEXT NOT NULL,
    blocked_from  TEXT NOT NULL,
    blocked_until TEXT NOT NULL,
    seats         INTEGER NOT NULL CHECK (seats BETWEEN 1 AND 1000),
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (end_at > start_at),
    CHECK (blocked_from <= start_at AND blocked_until >= end_at)
);
CREATE INDEX booking_events_start ON booking_events (start_at);
CREATE INDEX booking_events_blocked ON booking_events (blocked_until, blocked_from);

-- A seat is a booking of an occurrence: one row per attendee, with its own
-- hold, payment, invitation and manage links.
ALTER TABLE bookings ADD COLUMN event_id TEXT REFERENCES booking_events(id);
CREATE INDEX bookings_event ON bookings (event_id) WHERE event_id IS NOT NULL;

-- The no-double-booking rule now weighs one-to-one bookings only: the seats
-- of one occurrence share its time by design, and the occurrence itself is
-- busy time for the one-to-one calendar.
DROP TRIGGER bookings_no_overlap_insert;
DROP TRIGGER bookings_no_overlap_update;
CREATE TRIGGER bookings_no_overlap_insert BEFORE INSERT ON bookings
WHEN NEW.status IN ('held', 'requested', 'confirmed') AND NEW.event_id IS NULL
BEGIN
    SELECT RAISE(ABORT, 'bookings_no_overlap')
     WHERE EXISTS (SELECT 1 FROM bookings
                    WHERE status IN ('held', 'requested', 'confirmed') AND event_id IS NULL
                      AND blocked_from < NEW.blocked_until AND NEW.blocked_from < blocked_until);
END;
CREATE TRIGGER bookings_no_overlap_update BEFORE UPDATE OF status, blocked_from, blocked_until ON bookings
WHEN NEW.status IN ('held', 'requested', 'confirmed') AND NEW.event_id IS NULL
BEGIN
    SELECT RAISE(ABORT, 'bookings_no_overlap')
     WHERE EXISTS (SELECT 1 FROM bookings
                    WHERE id <> NEW.id AND status IN ('held', 'requested', 'confirmed') AND event_id IS NULL
                      AND blocked_from < NEW.blocked_until AND NEW.blocked_from < blocked_until);
END;

-- The seat rule: an occurrence never has more held, requested and confirmed
-- seats than it has seats, and a cancelled occurrence takes none. A seat
-- that starts to count (a new one, or a lapsed hold paid late) is refused
-- when the occurrence is full. SQLite runs one writer at a time, so the
-- count inside the writing statement cannot race another writer.
CREATE TRIGGER bookings_seats_insert BEFORE INSERT ON bookings
WHEN NEW.event_id IS NOT NULL AND NEW.status IN ('held', 'requested', 'confirmed')
BEGIN
    SELECT RAISE(ABORT, 'booking_event_closed')
     WHERE NOT EXISTS (SELECT 1 FROM booking_events WHERE id = NEW.event_id AND status = 'scheduled');
    SELECT RAISE(ABORT, 'booking_event_sold_out')
     WHERE (SELECT COUNT(*) FROM bookings
             WHERE event_id = NEW.event_id AND status IN ('held', 'requested', 'confirmed'))
        >= (SELECT seats FROM booking_events WHERE id = NEW.event_id);
END;
CREATE TRIGGER bookings_seats_update BEFORE UPDATE OF status ON bookings
WHEN NEW.event_id IS NOT NULL AND NEW.status IN ('held', 'requested', 'confirmed')
     AND OLD.status NOT IN ('held', 'requested', 'confirmed')
BEGIN
    SELECT RAISE(ABORT, 'booking_event_closed')
     WHERE NOT EXISTS (SELECT 1 FROM booking_events WHERE id = NEW.event_id AND status = 'scheduled');
    SELECT RAISE(ABORT, 'booking_event_sold_out')
     WHERE (SELECT COUNT(*) FROM bookings
             WHERE id <> NEW.id AND event_id = NEW.event_id AND status IN ('held', 'requested', 'confirmed'))
        >= (SELECT seats FROM booking_events WHERE id = NEW.event_id);
END;

-- Enterprise inquiries: a team's request for the enterprise package, and
-- where the owner is with it.
CREATE TABLE inquiries (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    email            TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    company          TEXT NOT NULL CHECK (length(company) BETWEEN 1 AND 200),
    team_size        INTEGER NOT NULL CHECK (team_size BETWEEN 1 AND 1000000),
    message          TEXT NOT NULL CHECK (length(message) BETWEEN 1 AND 5000),
    preferred_start  TEXT NOT NULL DEFAULT '' CHECK (preferred_start = '' OR length(preferred_start) = 10),
    client_addr      TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'replied', 'won', 'lost')),
    note             TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 5000),
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX inquiries_created ON inquiries (created_at);
CREATE INDEX inquiries_status ON inquiries (status, created_at);
