-- Group trainings sold by the seat, and enterprise inquiries (PostgreSQL).
-- Keep the SQLite twin of this file in step.

-- An occurrence of a seated type (the group training) the owner scheduled.
-- [blocked_from, blocked_until) is the time it takes from the owner's
-- one-to-one calendar: the session with the buffers in force when it was
-- scheduled.
CREATE TABLE booking_events (
    id            TEXT PRIMARY KEY,
    type_id       TEXT NOT NULL CHECK (type_id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    status        TEXT NOT NULL CHECK (status IN ('scheduled', 'cancelled')),
    start_at      TIMESTAMPTZ NOT NULL,
    end_at        TIMESTAMPTZ NOT NULL,
    blocked_from  TIMESTAMPTZ NOT NULL,
    blocked_until TIMESTAMPTZ NOT NULL,
    seats         INTEGER NOT NULL CHECK (seats BETWEEN 1 AND 1000),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
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
ALTER TABLE bookings DROP CONSTRAINT bookings_no_overlap;
ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap
    EXCLUDE USING gist (tstzrange(blocked_from, blocked_until, '[)') WITH &&)
    WHERE (status IN ('held', 'requested', 'confirmed') AND event_id IS NULL);

-- The seat rule: an occurrence never has more held, requested and confirmed
-- seats than it has seats, and a cancelled occurrence takes none. A seat
-- that starts to count (a new one, or a lapsed hold paid late) locks its
-- occurrence's row, so takers of one occurrence count one after another
-- whatever else serialises them, and is refused when the occurrence is full.
CREATE FUNCTION booking_seat_check() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    cap   INTEGER;
    taken INTEGER;
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.status IN ('held', 'requested', 'confirmed') THEN
        RETURN NEW; -- already counted
    END IF;
    SELECT seats INTO cap FROM booking_events WHERE id = NEW.event_id AND status = 'scheduled' FOR UPDATE;
    IF cap IS NULL THEN
        RAISE EXCEPTION 'booking_event_closed' USING ERRCODE = 'P0001';
    END IF;
    SELECT COUNT(*) INTO taken FROM bookings
     WHERE event_id = NEW.event_id AND id <> NEW.id AND status IN ('held', 'requested', 'confirmed');
    IF taken >= cap THEN
        RAISE EXCEPTION 'booking_event_sold_out' USING ERRCODE = 'P0001';
    END IF;
    RETURN NEW;
END
$$;
CREATE TRIGGER bookings_seats BEFORE INSERT OR UPDATE OF status ON bookings
FOR EACH ROW WHEN (NEW.event_id IS NOT NULL AND NEW.status IN ('held', 'requested', 'confirmed'))
EXECUTE FUNCTION booking_seat_check();

-- Enterprise inquiries: a team's request for the enterprise package, and
-- where the owner is with it.
CREATE TABLE inquiries (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
    email            TEXT NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
    company          TEXT NOT NULL CHECK (char_length(company) BETWEEN 1 AND 200),
    team_size        INTEGER NOT NULL CHECK (team_size BETWEEN 1 AND 1000000),
    message          TEXT NOT NULL CHECK (char_length(message) BETWEEN 1 AND 5000),
    preferred_start  TEXT NOT NULL DEFAULT '' CHECK (preferred_start = '' OR preferred_start ~ '^\d{4}-\d{2}-\d{2}$'),
    client_addr      TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'replied', 'won', 'lost')),
    note             TEXT NOT NULL DEFAULT '' CHECK (char_length(note) <= 5000),
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX inquiries_created ON inquiries (created_at);
CREATE INDEX inquiries_status ON inquiries (status, created_at);
