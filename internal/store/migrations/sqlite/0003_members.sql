-- Members area (SQLite). Keep the PostgreSQL twin of this file in step.

-- One private calendar-feed URL per member. Only the SHA-256 (lowercase hex)
-- of the token in the URL is kept, so a database leak does not leak feeds.
CREATE TABLE calendar_feeds (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Cohorts are listed oldest first.
CREATE INDEX cohorts_created ON cohorts(created_at);
