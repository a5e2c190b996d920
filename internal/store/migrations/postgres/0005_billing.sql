-- Online billing (PostgreSQL). Keep the SQLite twin of this file in step.

-- Complimentary membership may end on a date (NULL: no end).
ALTER TABLE subscriptions ADD COLUMN comp_until TIMESTAMPTZ;
-- The Stripe clock (Unix seconds) up to which this row reflects Stripe: the
-- `created` of the newest event applied, or the time of the latest read from
-- the API. An event older than this is never applied over newer state.
ALTER TABLE subscriptions ADD COLUMN stripe_synced_at BIGINT NOT NULL DEFAULT 0;

-- One Stripe customer per member, created once and reused.
CREATE TABLE billing_customers (
    user_id            TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    stripe_customer_id TEXT NOT NULL UNIQUE,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- A seat held for a member while their Checkout Session is open, so the tribe
-- never sells more seats than it has. One hold per member.
CREATE TABLE checkout_holds (
    user_id             TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    hold_id             TEXT NOT NULL UNIQUE,
    expires_at          TIMESTAMPTZ NOT NULL,
    checkout_session_id TEXT UNIQUE,
    checkout_url        TEXT,
    created_at          TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX checkout_holds_expires ON checkout_holds(expires_at);
