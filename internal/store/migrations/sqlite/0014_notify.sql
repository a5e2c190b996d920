-- Notifications (SQLite): what mail each member wants, their time zone,
-- when they were last seen, and the secret that signs unsubscribe links.
-- Keep the PostgreSQL twin in step.

-- A member's choices. No row means the defaults: every mail on, and the
-- zone of the sessions themselves until the member's browser gives one.
CREATE TABLE notification_settings (
    user_id           TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    session_reminders INTEGER NOT NULL DEFAULT 1 CHECK (session_reminders IN (0, 1)),
    weekly_digest     INTEGER NOT NULL DEFAULT 1 CHECK (weekly_digest IN (0, 1)),
    cohort_projects   INTEGER NOT NULL DEFAULT 1 CHECK (cohort_projects IN (0, 1)),
    level_reached     INTEGER NOT NULL DEFAULT 1 CHECK (level_reached IN (0, 1)),
    time_zone         TEXT NOT NULL DEFAULT '' CHECK (length(time_zone) <= 64),
    updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- When a member was last seen (a signed-in request, written at most once an
-- hour), when their last weekly digest was queued, and the highest level
-- they were told about by mail (not the level: that is always computed).
CREATE TABLE member_activity (
    user_id         TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    last_seen_at    TEXT,
    digest_at       TEXT,
    level_announced TEXT CHECK (level_announced IN ('Apprentice', 'Contributor', 'Builder', 'Expert', 'Master')),
    -- The level a member had before level mail existed is recorded without a
    -- mail the first time it is computed: only rises after that are news.
    level_baseline  INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX member_activity_seen ON member_activity(last_seen_at);
INSERT INTO member_activity (user_id, level_baseline) SELECT id, 1 FROM users;

-- The key that signs unsubscribe links (HMAC-SHA256): made once, on first use.
CREATE TABLE notify_secret (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    key TEXT NOT NULL CHECK (length(key) = 64)
);

-- A mail a member may opt out of carries its one-click unsubscribe URL
-- (List-Unsubscribe, RFC 8058); '' for the others.
ALTER TABLE mail_outbox ADD COLUMN list_unsubscribe TEXT NOT NULL DEFAULT '';
