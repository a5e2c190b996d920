-- A member's assistant lists their bookings with a link to manage each
-- (my_bookings). Manage tokens are kept only as hashes, so the e-mailed one
-- cannot be shown again: the assistant's list mints a token of its own,
-- marked 'assistant', and replaces the one it minted before, so each
-- booking has at most one such token however often the list is read. The
-- booker's own tokens (purpose '') are never touched.
ALTER TABLE booking_tokens ADD COLUMN purpose TEXT NOT NULL DEFAULT '';
