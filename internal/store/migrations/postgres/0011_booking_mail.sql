-- Booking mail, manage links and the owner's feed (PostgreSQL). Keep the
-- SQLite twin of this file in step.

-- Calendar invitations travel as attachments: a JSON list of
-- {"filename", "content_type", "data" (base64)}; '[]' for none.
ALTER TABLE mail_outbox ADD COLUMN attachments TEXT NOT NULL DEFAULT '[]';
-- A message planned by a rule (a booking's reminder) carries a key naming
-- what it is for, so that planning it again, from any instance, adds nothing.
ALTER TABLE mail_outbox ADD COLUMN idempotency_key TEXT CHECK (char_length(idempotency_key) BETWEEN 1 AND 200);
CREATE UNIQUE INDEX mail_outbox_idempotency ON mail_outbox (idempotency_key);

-- Manage links mailed after the booking was made (confirmation, changes).
-- The token given when booking stays in bookings.token_hash; each of these
-- opens the same booking. Only SHA-256 hashes are stored.
CREATE TABLE booking_tokens (
    token_hash TEXT PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    booking_id TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX booking_tokens_booking ON booking_tokens (booking_id);

-- The owner's private calendar feed of all bookings: one secret URL at a
-- time, stored as the SHA-256 of its token.
CREATE TABLE booking_feed (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    token_hash TEXT NOT NULL UNIQUE CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
