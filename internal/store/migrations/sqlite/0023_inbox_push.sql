-- The notification centre and Web Push (SQLite). Keep the PostgreSQL twin
-- in step.

-- One notification for one member. Notifications that share a group key
-- (reactions to one thread: "reaction:{threadID}") fold into the member's
-- unread one of that key, which counts them; once read, the next starts a
-- new one. Link is a path on this site ("/members/...").
CREATE TABLE notifications (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind        TEXT NOT NULL CHECK (kind IN ('mention', 'reply', 'accepted', 'reaction', 'announcement', 'level', 'reminder', 'replay')),
    title       TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    body        TEXT NOT NULL DEFAULT '' CHECK (length(body) <= 500),
    link        TEXT NOT NULL DEFAULT '' CHECK (length(link) <= 500),
    group_key   TEXT NOT NULL DEFAULT '' CHECK (length(group_key) <= 200),
    group_count INTEGER NOT NULL DEFAULT 1,
    created_at  TEXT NOT NULL,
    read_at     TEXT
);
CREATE INDEX notifications_user ON notifications(user_id, created_at, id);
CREATE INDEX notifications_unread ON notifications(user_id) WHERE read_at IS NULL;
CREATE UNIQUE INDEX notifications_group ON notifications(user_id, group_key) WHERE group_key <> '' AND read_at IS NULL;

-- A member's channel per kind: 'app' (in the notification centre only),
-- 'push' (and to their devices), 'mail' (and by mail). No row: the kind's
-- default.
CREATE TABLE notification_channels (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind    TEXT NOT NULL CHECK (length(kind) <= 40),
    channel TEXT NOT NULL CHECK (channel IN ('app', 'push', 'mail')),
    PRIMARY KEY (user_id, kind)
);

-- The site's VAPID key pair (RFC 8292): made once, on first use, by
-- whichever instance comes first. Base64url: the private scalar and the
-- uncompressed public point.
CREATE TABLE push_keys (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    private_key TEXT NOT NULL,
    public_key  TEXT NOT NULL
);

-- A browser's push subscription (at most 10 per member, enforced by the
-- code that adds them). The endpoint is the push service's URL for that
-- browser; p256dh and auth are its keys (RFC 8291), base64url.
CREATE TABLE push_subscriptions (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint   TEXT NOT NULL UNIQUE CHECK (length(endpoint) <= 1000),
    p256dh     TEXT NOT NULL CHECK (length(p256dh) <= 200),
    auth       TEXT NOT NULL CHECK (length(auth) <= 100),
    created_at TEXT NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);

-- Pushes owed: one row per notification to push. A worker on any instance
-- claims a due row under a lease, sends it to the member's devices and
-- deletes it, so each is pushed once between instances.
CREATE TABLE push_outbox (
    id              TEXT PRIMARY KEY,
    notification_id TEXT NOT NULL REFERENCES notifications(id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at      TEXT NOT NULL,
    next_attempt_at TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    lease_token     TEXT,
    lease_until     TEXT
);
CREATE INDEX push_outbox_due ON push_outbox(next_attempt_at);
