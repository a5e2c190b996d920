-- Booking on the site (SQLite). Keep the PostgreSQL twin of this file in step.

-- The owner's booking settings: one row, a JSON object checked by the
-- booking package (zone, weekly hours, overrides, step, buffers, notice,
-- window, daily cap, cut-off, owner, meeting room).
CREATE TABLE booking_settings (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    settings   TEXT NOT NULL CHECK (json_valid(settings) AND json_type(settings) = 'object'),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- One row per booking attempt. [blocked_from, blocked_until) is the time the
-- booking takes from the owner's calendar: the call with the buffers before
-- and after it, as they were when it was booked. Times are store.Time text
-- (fixed-width UTC), so text order is time order.
CREATE TABLE bookings (
    id                  TEXT PRIMARY KEY,
    type_id             TEXT NOT NULL CHECK (length(type_id) BETWEEN 1 AND 64 AND type_id NOT GLOB '*[^a-z0-9-]*'),
    status              TEXT NOT NULL CHECK (status IN
                            ('held', 'requested', 'confirmed', 'cancelled', 'expired', 'declined', 'completed', 'no_show')),
    start_at            TEXT NOT NULL,
    end_at              TEXT NOT NULL,
    blocked_from        TEXT NOT NULL,
    blocked_until       TEXT NOT NULL,
    expires_at          TEXT,
    name                TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    email               TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    email_normalized    TEXT NOT NULL CHECK (email_normalized = lower(email_normalized)),
    notes               TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 2000),
    time_zone           TEXT NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
    client_addr         TEXT NOT NULL DEFAULT '',
    user_id             TEXT REFERENCES users(id) ON DELETE SET NULL,
    amount              INTEGER NOT NULL CHECK (amount >= 0),
    currency            TEXT NOT NULL CHECK (length(currency) = 3 AND currency NOT GLOB '*[^A-Z]*'),
    checkout_session_id TEXT UNIQUE,
    checkout_url        TEXT,
    payment_intent_id   TEXT,
    paid_at             TEXT,
    meeting_link        TEXT NOT NULL DEFAULT '',
    token_hash          TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64 AND token_hash NOT GLOB '*[^0-9a-f]*'),
    reschedule_count    INTEGER NOT NULL DEFAULT 0 CHECK (reschedule_count BETWEEN 0 AND 2),
    ics_sequence        INTEGER NOT NULL DEFAULT 0 CHECK (ics_sequence >= 0),
    cancelled_by        TEXT CHECK (cancelled_by IN ('booker', 'owner')),
    created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (end_at > start_at),
    CHECK (blocked_from <= start_at AND blocked_until >= end_at),
    CHECK (status <> 'held' OR expires_at IS NOT NULL)
);
CREATE INDEX bookings_start ON bookings (start_at);
CREATE INDEX bookings_blocked ON bookings (blocked_until, blocked_from);
CREATE INDEX bookings_held_expiry ON bookings (expires_at) WHERE status = 'held';
CREATE INDEX bookings_open_by_email ON bookings (email_normalized) WHERE status IN ('held', 'requested');
CREATE INDEX bookings_open_by_client ON bookings (client_addr) WHERE status IN ('held', 'requested');

-- The no-double-booking rule. Held, requested and confirmed bookings never
-- overlap, buffers included, whatever their lengths: the database refuses
-- the second row however it is written. SQLite runs one writer at a time, so
-- the check inside the writing statement cannot race another writer. A hold
-- past its expiry still says 'held' until something marks it 'expired'; every
-- write path of the booking package does that first, in the same transaction.
CREATE TRIGGER bookings_no_overlap_insert BEFORE INSERT ON bookings
WHEN NEW.status IN ('held', 'requested', 'confirmed')
BEGIN
    SELECT RAISE(ABORT, 'bookings_no_overlap')
     WHERE EXISTS (SELECT 1 FROM bookings
                    WHERE status IN ('held', 'requested', 'confirmed')
                      AND blocked_from < NEW.blocked_until AND NEW.blocked_from < blocked_until);
END;
CREATE TRIGGER bookings_no_overlap_update BEFORE UPDATE OF status, blocked_from, blocked_until ON bookings
WHEN NEW.status IN ('held', 'requested', 'confirmed')
BEGIN
    SELECT RAISE(ABORT, 'bookings_no_overlap')
     WHERE EXISTS (SELECT 1 FROM bookings
                    WHERE id <> NEW.id AND status IN ('held', 'requested', 'confirmed')
                      AND blocked_from < NEW.blocked_until AND NEW.blocked_from < blocked_until);
END;

-- Money returned for a booking, one row per Stripe refund.
CREATE TABLE booking_refunds (
    id               TEXT PRIMARY KEY,
    booking_id       TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
    stripe_refund_id TEXT NOT NULL UNIQUE,
    amount           INTEGER NOT NULL CHECK (amount > 0),
    currency         TEXT NOT NULL CHECK (length(currency) = 3 AND currency NOT GLOB '*[^A-Z]*'),
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX booking_refunds_booking ON booking_refunds (booking_id);
CREATE INDEX booking_refunds_created ON booking_refunds (created_at);
