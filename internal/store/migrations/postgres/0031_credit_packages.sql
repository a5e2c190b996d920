-- Session packages paid ahead, their credits and the credits links
-- (PostgreSQL). Keep the SQLite twin of this file in step.

-- One row per package bought (or being bought): what it gives is copied from
-- the content at checkout (type, count, validity), so editing services.json
-- never changes a package already sold. status: 'pending' while Checkout is
-- open, 'paid' once the payment's webhook granted the credits (the only
-- change that grants them, made once), 'expired' when Checkout closed
-- unpaid, 'refunded' when the payment was refunded (unspent credits gone).
CREATE TABLE credit_purchases (
    id                  TEXT PRIMARY KEY,
    package_id          TEXT NOT NULL CHECK (package_id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    package_name        TEXT NOT NULL CHECK (char_length(package_name) BETWEEN 1 AND 200),
    type_id             TEXT NOT NULL CHECK (type_id ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
    credits             INTEGER NOT NULL CHECK (credits BETWEEN 1 AND 100),
    valid_days          INTEGER NOT NULL CHECK (valid_days BETWEEN 1 AND 1095),
    status              TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'expired', 'refunded')),
    name                TEXT NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
    email               TEXT NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
    email_normalized    TEXT NOT NULL CHECK (email_normalized = lower(email_normalized)),
    user_id             TEXT REFERENCES users(id) ON DELETE SET NULL,
    client_addr         TEXT NOT NULL DEFAULT '',
    price               BIGINT NOT NULL CHECK (price > 0),
    member_price        INTEGER NOT NULL DEFAULT 0 CHECK (member_price IN (0, 1)),
    currency            TEXT NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    amount_paid         BIGINT CHECK (amount_paid >= 0),
    checkout_session_id TEXT UNIQUE,
    payment_intent_id   TEXT,
    return_hash         TEXT NOT NULL DEFAULT '',
    paid_at             TIMESTAMPTZ,
    expires_at          TIMESTAMPTZ,
    -- Credits spent and not given back, kept with each spend and return
    -- (credit_uses holds which booking each paid for): the database refuses
    -- more than were bought, however the spends race.
    spent               INTEGER NOT NULL DEFAULT 0 CHECK (spent >= 0),
    revoked             INTEGER NOT NULL DEFAULT 0 CHECK (revoked >= 0),
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL,
    CHECK (spent <= credits),
    CHECK (status NOT IN ('paid', 'refunded') OR (paid_at IS NOT NULL AND expires_at IS NOT NULL AND amount_paid IS NOT NULL))
);
CREATE INDEX credit_purchases_email ON credit_purchases (email_normalized);
CREATE INDEX credit_purchases_user ON credit_purchases (user_id);
CREATE INDEX credit_purchases_payment ON credit_purchases (payment_intent_id);
CREATE INDEX credit_purchases_expiry ON credit_purchases (expires_at) WHERE status = 'paid';

-- A credit spent: the booking it paid for. returned_at is set when the
-- booking is cancelled in time, which gives the credit back.
CREATE TABLE credit_uses (
    booking_id  TEXT PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
    purchase_id TEXT NOT NULL REFERENCES credit_purchases(id) ON DELETE CASCADE,
    spent_at    TIMESTAMPTZ NOT NULL,
    returned_at TIMESTAMPTZ
);
CREATE INDEX credit_uses_purchase ON credit_uses (purchase_id) WHERE returned_at IS NULL;

-- The credits page's links, mailed with each grant: only the SHA-256 of a
-- token is kept; a token opens the credits of one address.
CREATE TABLE credit_tokens (
    token_hash       TEXT PRIMARY KEY CHECK (token_hash ~ '^[0-9a-f]{64}$'),
    email_normalized TEXT NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX credit_tokens_email ON credit_tokens (email_normalized);
