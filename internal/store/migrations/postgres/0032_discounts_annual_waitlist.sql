-- Promotion codes, the annual plan and the wait list of full group dates
-- (PostgreSQL). Keep the SQLite twin of this file in step.

-- What a promotion code took off a booking's price at Checkout, in the
-- smallest unit: the booking paid amount - discount.
ALTER TABLE bookings ADD COLUMN discount BIGINT NOT NULL DEFAULT 0 CHECK (discount >= 0);

-- What a membership's discounts take off one billing interval, in the
-- smallest unit (0 without a discount): MRR counts amount - discount.
ALTER TABLE membership_ledger ADD COLUMN discount BIGINT NOT NULL DEFAULT 0 CHECK (discount >= 0);

-- The wait list of a sold-out group training date: people in line for a
-- seat given back. An offer holds a seat for them as a held booking
-- (booking_id) until offer_expires_at; offer_token_hash is the hash of the
-- link's secret, which opens Checkout for that hold.
CREATE TABLE booking_waitlist (
    id               TEXT PRIMARY KEY,
    event_id         TEXT NOT NULL REFERENCES booking_events(id) ON DELETE CASCADE,
    name             TEXT NOT NULL CHECK (char_length(name) BETWEEN 1 AND 120),
    email            TEXT NOT NULL CHECK (char_length(email) BETWEEN 3 AND 254),
    email_normalized TEXT NOT NULL CHECK (email_normalized = lower(email_normalized)),
    client_addr      TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'offered', 'booked', 'lapsed', 'closed')),
    booking_id       TEXT REFERENCES bookings(id) ON DELETE SET NULL,
    offer_token_hash TEXT UNIQUE,
    offered_at       TIMESTAMPTZ,
    offer_expires_at TIMESTAMPTZ,
    created_at       TIMESTAMPTZ NOT NULL,
    UNIQUE (event_id, email_normalized),
    CHECK (status <> 'offered' OR (booking_id IS NOT NULL AND offer_expires_at IS NOT NULL))
);
CREATE INDEX booking_waitlist_line ON booking_waitlist (event_id, status, created_at);
CREATE INDEX booking_waitlist_client ON booking_waitlist (client_addr, created_at);

-- The plan a held seat's Checkout Session sells: the monthly price or the
-- annual one (STRIPE_PRICE_ID_ANNUAL).
ALTER TABLE checkout_holds ADD COLUMN plan TEXT NOT NULL DEFAULT 'monthly' CHECK (plan IN ('monthly', 'annual'));
