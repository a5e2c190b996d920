-- The time zone the page gave when a visitor joined a sold-out date's wait
-- list, so the mail offering them a freed seat and the seat's booking give
-- times on their clock (UTC for rows from before, as those mails did).
-- Keep the other engine's twin in step.
ALTER TABLE booking_waitlist ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
