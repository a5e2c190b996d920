-- The owner's own calendars as busy time (PostgreSQL). Keep the SQLite twin
-- of this file in step.

-- One row per iCalendar address the owner gave. The fetch state lives here:
-- the validators for conditional requests, the last success and error, when
-- the next fetch is due, and a lease so that of several instances on one
-- database one fetches a feed at a time.
CREATE TABLE booking_calendars (
    id              TEXT PRIMARY KEY,
    url             TEXT NOT NULL UNIQUE CHECK (char_length(url) BETWEEN 9 AND 2000),
    position        INTEGER NOT NULL DEFAULT 0,
    etag            TEXT NOT NULL DEFAULT '',
    last_modified   TEXT NOT NULL DEFAULT '',
    last_success_at TIMESTAMPTZ,
    last_error      TEXT NOT NULL DEFAULT '' CHECK (char_length(last_error) <= 500),
    last_error_at   TIMESTAMPTZ,
    -- The end of the time the stored busy intervals were expanded over: a
    -- feed that has not changed is read again in full before the booking
    -- window outgrows it.
    expanded_until  TIMESTAMPTZ,
    event_count     INTEGER NOT NULL DEFAULT 0,
    next_fetch_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    lease_token     TEXT,
    lease_until     TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The busy intervals of the last good fetch of each calendar, recurring
-- events expanded: every instance reads the same rows, so two instances
-- never disagree for longer than one refresh.
CREATE TABLE booking_busy (
    calendar_id TEXT NOT NULL REFERENCES booking_calendars(id) ON DELETE CASCADE,
    start_at    TIMESTAMPTZ NOT NULL,
    end_at      TIMESTAMPTZ NOT NULL,
    CHECK (end_at > start_at)
);
CREATE INDEX booking_busy_range ON booking_busy (end_at, start_at);
CREATE INDEX booking_busy_calendar ON booking_busy (calendar_id);
