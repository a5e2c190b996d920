-- The tribe's discussion space (internal/forum owns every table here).
-- Keep the SQLite twin in step.

-- A thread. An announcement is an admin's; pinned_until bounds a pin (an
-- announcement's 7 days), NULL with pinned is pinned until unpinned. A
-- hidden thread has the admin's reason, who hid it and when; the three go
-- together. accepted_reply_id is the asker's chosen answer (its foreign key
-- is added below, once forum_replies exists). search is the thread's full
-- text: the title weighs A, the body C, stemmed with 'english' as the
-- knowledge base's chunks.
CREATE TABLE forum_threads (
    id                TEXT PRIMARY KEY,
    user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    category          TEXT NOT NULL CHECK (category IN ('question', 'win', 'resource', 'general', 'announcement')),
    title             TEXT NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
    body              TEXT NOT NULL CHECK (char_length(body) BETWEEN 1 AND 20000),
    pinned            BOOLEAN NOT NULL DEFAULT FALSE,
    pinned_until      TIMESTAMPTZ,
    accepted_reply_id TEXT,
    hidden_reason     TEXT CHECK (hidden_reason IS NULL OR char_length(hidden_reason) BETWEEN 1 AND 500),
    hidden_by         TEXT REFERENCES users(id) ON DELETE SET NULL,
    hidden_at         TIMESTAMPTZ,
    edited_at         TIMESTAMPTZ,
    created_at        TIMESTAMPTZ NOT NULL,
    last_activity_at  TIMESTAMPTZ NOT NULL,
    search            tsvector GENERATED ALWAYS AS (
                          setweight(to_tsvector('english', title), 'A') ||
                          setweight(to_tsvector('english', body), 'C')) STORED,
    CHECK ((hidden_at IS NULL) = (hidden_reason IS NULL))
);
CREATE INDEX forum_threads_activity ON forum_threads(last_activity_at DESC, id DESC);
CREATE INDEX forum_threads_category ON forum_threads(category, last_activity_at DESC, id DESC);
CREATE INDEX forum_threads_user ON forum_threads(user_id);
-- The few pinned threads that head the list's first page.
CREATE INDEX forum_threads_pinned ON forum_threads(last_activity_at) WHERE pinned;
CREATE INDEX forum_threads_search ON forum_threads USING GIN (search);

CREATE TABLE forum_replies (
    id            TEXT PRIMARY KEY,
    thread_id     TEXT NOT NULL REFERENCES forum_threads(id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    body          TEXT NOT NULL CHECK (char_length(body) BETWEEN 1 AND 10000),
    hidden_reason TEXT CHECK (hidden_reason IS NULL OR char_length(hidden_reason) BETWEEN 1 AND 500),
    hidden_by     TEXT REFERENCES users(id) ON DELETE SET NULL,
    hidden_at     TIMESTAMPTZ,
    edited_at     TIMESTAMPTZ,
    created_at    TIMESTAMPTZ NOT NULL,
    search        tsvector GENERATED ALWAYS AS (setweight(to_tsvector('english', body), 'C')) STORED,
    CHECK ((hidden_at IS NULL) = (hidden_reason IS NULL))
);
CREATE INDEX forum_replies_thread ON forum_replies(thread_id, created_at, id);
CREATE INDEX forum_replies_user ON forum_replies(user_id);
CREATE INDEX forum_replies_search ON forum_replies USING GIN (search);

ALTER TABLE forum_threads ADD CONSTRAINT forum_threads_accepted
    FOREIGN KEY (accepted_reply_id) REFERENCES forum_replies(id) ON DELETE SET NULL;

-- One "🔥" per member on a thread or a reply.
CREATE TABLE forum_thread_reactions (
    thread_id  TEXT NOT NULL REFERENCES forum_threads(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (thread_id, user_id)
);
CREATE TABLE forum_reply_reactions (
    reply_id   TEXT NOT NULL REFERENCES forum_replies(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL,
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
    reason      TEXT NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 500),
    created_at  TIMESTAMPTZ NOT NULL,
    resolved_at TIMESTAMPTZ,
    resolved_by TEXT REFERENCES users(id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX forum_reports_open ON forum_reports(user_id, thread_id, COALESCE(reply_id, '')) WHERE resolved_at IS NULL;
CREATE INDEX forum_reports_unresolved ON forum_reports(created_at) WHERE resolved_at IS NULL;
