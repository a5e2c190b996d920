-- Holds and rejected webhook events (SQLite). Keep the PostgreSQL twin of this file in step.

-- Every hold someone starts on something scarce (a tribe seat while its
-- Checkout is open; booking slots later), kept for the rule that limits
-- them (internal/holds): how many are live from one client address, and
-- how many one account started lately. A hold ends when it expires or is
-- released (paid, expired by Stripe, given up).
CREATE TABLE holds (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('seat', 'booking')),
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    released   INTEGER NOT NULL DEFAULT 0 CHECK (released IN (0, 1))
);
CREATE INDEX holds_client ON holds(kind, client, expires_at);
CREATE INDEX holds_user ON holds(kind, user_id, created_at);
CREATE INDEX holds_expires ON holds(expires_at);

-- A verified webhook event that was not applied, and why (for example a
-- subscription that names another member's customer). NULL: applied.
ALTER TABLE payment_events ADD COLUMN rejected TEXT;
