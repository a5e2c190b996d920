-- Booking on the site (PostgreSQL). Keep the SQLite twin of this file in step.

-- The owner's booking settings: one row, a JSON object checked by the
-- booking package (zone, weekly hours, overrides, step, buffers, notice,
-- window, daily cap, cut-off, owner, meeting room).
CREATE TABLE booking_settings (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    settings   JSONB NOT NULL CHECK (jsonb_typeof(settings) = 'object'),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- One row per booking attempt. [blocked_from, blocked_until) is the time the
-- booking takes from the owner's calendar: the call with the buffers before
-- and after it, as they were when it was booked.
CREATE TABLE bookings (
    id                  TEXT PRIMARY KEY,
    type_id             TEXT NOT NULL CHECK (type_id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    status              TEXT NOT NULL CHECK (status IN
                            ('held', 'requested', 'confirmed', 'cancelled', 'expired', 'declined', 'completed', 'no_show')),
    start_at            TIMESTAMPTZ NOT NULL,
    end_at              TIMESTAMPTZ NOT NULL,
    blocked_from        TIMESTAMPTZ NOT NULL,
    blocked_until       TIMESTAMPTZ NOT NULL,
    expires_at          TIMESTAMPTZ,
    name                TEXT NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
    email               TEXT NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
    email_normalized    TEXT NOT NULL CHECK (email_normalized = lower(email_normalized)),
    notes               TEXT NOT NULL DEFAULT '' CHECK (char_length(notes) <= 2000),
    time_zone           TEXT NOT NULL CHECK (char_length(time_zone) BETWEEN 1 AND 64),
    client_addr         TEXT NOT NULL DEFAULT '',
    user_id             TEXT REFERENCES users(id) ON DELETE SET NULL,
    amount              BIGINT NOT NULL CHECK (amount >= 0),
    currency            TEXT NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    checkout_session_id TEXT UNIQUE,
    checkout_url        TEXT,
    payment_intent_id   TEXT,
    paid_at             TIMESTAMPTZ,
    meeting_link        TEXT NOT NULL DEFAULT '',
    token_hash          TEXT NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    reschedule_count    INTEGER NOT NULL DEFAULT 0 CHECK (reschedule_count BETWEEN 0 AND 2),
    ics_sequence        INTEGER NOT NULL DEFAULT 0 CHECK (ics_sequence >= 0),
    cancelled_by        TEXT CHECK (cancelled_by IN ('booker', 'owner')),
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at          TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (end_at > start_at),
    CHECK (blocked_from <= start_at AND blocked_until >= end_at),
    CHECK (status <> 'held' OR expires_at IS NOT NULL),
    -- The no-double-booking rule. Held, requested and confirmed bookings
    -- never overlap, buffers included, whatever their lengths: the database
    -- refuses the second row however it is written. A hold past its expiry
    -- still says 'held' until something marks it 'expired'; every write path
    -- of the booking package does that first, in the same transaction.
    -- (A range's GiST operator class is built in; btree_gist would only be
    -- needed to add an equality column, e.g. several hosts.)
    CONSTRAINT bookings_no_overlap EXCLUDE USING gist (tstzrange(blocked_from, blocked_until, '[)') WITH &&)
        WHERE (status IN ('held', 'requested', 'confirmed'))
);
CREATE INDEX bookings_start ON bookings (start_at);
CREATE INDEX bookings_blocked ON bookings (blocked_until, blocked_from);
CREATE INDEX bookings_held_expiry ON bookings (expires_at) WHERE status = 'held';
CREATE INDEX bookings_open_by_email ON bookings (email_normalized) WHERE status IN ('held', 'requested');
CREATE INDEX bookings_open_by_client ON bookings (client_addr) WHERE status IN ('held', 'requested');

-- Money returned for a booking, one row per Stripe refund.
CREATE TABLE booking_refunds (
    id               TEXT PRIMARY KEY,
    booking_id       TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
    stripe_refund_id TEXT NOT NULL UNIQUE,
    amount           BIGINT NOT NULL CHECK (amount > 0),
    currency         TEXT NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX booking_refunds_booking ON booking_refunds (booking_id);
CREATE INDEX booking_refunds_created ON booking_refunds (created_at);
