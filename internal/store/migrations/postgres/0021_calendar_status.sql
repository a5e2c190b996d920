-- What the last good read of each owner calendar left out, for the owner
-- (docs/booking.md, "Your own calendar"): how many components could not be
-- read or placed, and short sentences on each cause (an unknown time zone,
-- a rule that cannot be read, a cap reached), one per line. Keep the
-- SQLite twin of this file in step.
ALTER TABLE booking_calendars ADD COLUMN skipped_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE booking_calendars ADD COLUMN read_notes TEXT NOT NULL DEFAULT '';
