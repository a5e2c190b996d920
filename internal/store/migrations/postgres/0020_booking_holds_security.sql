-- Booking holds made safe against strangers: hold_key_hash is the hash of
-- the secret of the browser that made a hold (its hold cookie), so only
-- that browser gets the hold back on a repeated press; return_hash is the
-- hash of the one-time id that Stripe's success and cancel URLs carry
-- instead of a manage token (cleared once used). Keep the twin in step.
ALTER TABLE bookings ADD COLUMN hold_key_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE bookings ADD COLUMN return_hash TEXT NOT NULL DEFAULT '';
-- The daily limit on unpaid holds started per address counts by these.
CREATE INDEX bookings_by_email_created ON bookings (email_normalized, created_at);
CREATE INDEX bookings_by_client_created ON bookings (client_addr, created_at);
