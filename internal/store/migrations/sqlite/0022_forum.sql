-- The tribe's discussion space (internal/forum owns every table here).
-- Keep the PostgreSQL twin in step.

-- A thread. An announcement is an admin's; pinned_until bounds a pin (an
-- announcement's 7 days), NULL with pinned = 1 is pinned until unpinned. A
-- hidden thread has the admin's reason, who hid it and when; the three go
-- together. accepted_reply_id is the asker's chosen answer.
CREATE TABLE forum_threads (
    id                TEXT PRIMARY KEY,
    user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    category          TEXT NOT NULL CHECK (category IN ('question', 'win', 'resource', 'general', 'announcement')),
    title             TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    body              TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 20000),
    pinned            INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
    pinned_until      TEXT,
    accepted_reply_id TEXT REFERENCES forum_replies(id) ON DELETE SET NULL,
    hidden_reason     TEXT CHECK (hidden_reason IS NULL OR length(hidden_reason) BETWEEN 1 AND 500),
    hidden_by         TEXT REFERENCES users(id) ON DELETE SET NULL,
    hidden_at         TEXT,
    edited_at         TEXT,
    created_at        TEXT NOT NULL,
    last_activity_at  TEXT NOT NULL,
    CHECK ((hidden_at IS NULL) = (hidden_reason IS NULL))
);
CREATE INDEX forum_threads_activity ON forum_threads(last_activity_at DESC, id DESC);
CREATE INDEX forum_threads_category ON forum_threads(category, last_activity_at DESC, id DESC);
CREATE INDEX forum_threads_user ON forum_threads(user_id);
-- The few pinned threads that head the list's first page.
CREATE INDEX forum_threads_pinned ON forum_threads(last_activity_at) WHERE pinned;

CREATE TABLE forum_replies (
    id            TEXT PRIMARY KEY,
    thread_id     TEXT NOT NULL REFERENCES forum_threads(id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    body          TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 10000),
    hidden_reason TEXT CHECK (hidden_reason IS NULL OR length(hidden_reason) BETWEEN 1 AND 500),
    hidden_by     TEXT REFERENCES users(id) ON DELETE SET NULL,
    hidden_at     TEXT,
    edited_at     TEXT,
    created_at    TEXT NOT NULL,
    CHECK ((hidden_at IS NULL) = (hidden_reason IS NULL))
);
CREATE INDEX forum_replies_thread ON forum_replies(thread_id, created_at, id);
CREATE INDEX forum_replies_user ON forum_replies(user_id);

-- One "🔥" per member on a thread or a reply.
CREATE TABLE forum_thread_reactions (
    thread_id  TEXT NOT NULL REFERENCES forum_threads(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (thread_id, user_id)
);
CREATE TABLE forum_reply_reactions (
    reply_id   TEXT NOT NULL REFERENCES forum_replies(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL,
    PRIMARY KEY (reply_id, user_id)
);

-- A member who muted a thread is told nothing more about it.
CREATE TABLE forum_mutes (
    thread_id TEXT NOT NULL REFERENCES forum_threads(id) ON DELETE CASCADE,
    user_id   TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (thread_id, user_id)
);

-- A member's report of a thread or a reply, open until an admin resolves
-- it. One open report per member and post.
CREATE TABLE forum_reports (
    id          TEXT PRIMARY KEY,
    thread_id   TEXT NOT NULL REFERENCES forum_threads(id) ON DELETE CASCADE,
    reply_id    TEXT REFERENCES forum_replies(id) ON DELETE CASCADE,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    reason      TEXT NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    created_at  TEXT NOT NULL,
    resolved_at TEXT,
    resolved_by TEXT REFERENCES users(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX forum_reports_open ON forum_reports(user_id, thread_id, COALESCE(reply_id, '')) WHERE resolved_at IS NULL;
CREATE INDEX forum_reports_unresolved ON forum_reports(created_at) WHERE resolved_at IS NULL;

-- Full text of threads (title and body) and replies (body), kept by the
-- triggers below, with Porter stemming over unicode61 as the knowledge
-- base's kb_fts. forum_fts_keys gives each post an integer key, the rowid of
-- its forum_fts row, so a post leaves the index by rowid rather than by a
-- scan of the whole index.
CREATE TABLE forum_fts_keys (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('t', 'r')),
    ref  TEXT NOT NULL UNIQUE
);
CREATE VIRTUAL TABLE forum_fts USING fts5(
    title, body,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER forum_threads_index AFTER INSERT ON forum_threads BEGIN
    INSERT INTO forum_fts_keys (kind, ref) VALUES ('t', new.id);
    INSERT INTO forum_fts (rowid, title, body)
        SELECT id, new.title, new.body FROM forum_fts_keys WHERE ref = new.id;
END;
CREATE TRIGGER forum_threads_reindex AFTER UPDATE OF title, body ON forum_threads BEGIN
    DELETE FROM forum_fts WHERE rowid = (SELECT id FROM forum_fts_keys WHERE ref = old.id);
    INSERT INTO forum_fts (rowid, title, body)
        SELECT id, new.title, new.body FROM forum_fts_keys WHERE ref = new.id;
END;
CREATE TRIGGER forum_threads_unindex AFTER DELETE ON forum_threads BEGIN
    DELETE FROM forum_fts WHERE rowid = (SELECT id FROM forum_fts_keys WHERE ref = old.id);
    DELETE FROM forum_fts_keys WHERE ref = old.id;
END;
CREATE TRIGGER forum_replies_index AFTER INSERT ON forum_replies BEGIN
    INSERT INTO forum_fts_keys (kind, ref) VALUES ('r', new.id);
    INSERT INTO forum_fts (rowid, title, body)
        SELECT id, '', new.body FROM forum_fts_keys WHERE ref = new.id;
END;
CREATE TRIGGER forum_replies_reindex AFTER UPDATE OF body ON forum_replies BEGIN
    DELETE FROM forum_fts WHERE rowid = (SELECT id FROM forum_fts_keys WHERE ref = old.id);
    INSERT INTO forum_fts (rowid, title, body)
        SELECT id, '', new.body FROM forum_fts_keys WHERE ref = new.id;
END;
CREATE TRIGGER forum_replies_unindex AFTER DELETE ON forum_replies BEGIN
    DELETE FROM forum_fts WHERE rowid = (SELECT id FROM forum_fts_keys WHERE ref = old.id);
    DELETE FROM forum_fts_keys WHERE ref = old.id;
END;
