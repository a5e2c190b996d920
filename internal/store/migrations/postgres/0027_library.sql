-- The library: recordings, materials, lessons and links, each member's
-- progress through them, and the admins' resumable uploads
-- (internal/library owns every table here). Keep the SQLite twin in step.

-- An item. tags, chapters and transcript are JSON written by the package
-- (checked there; a column check would only repeat it). An item with no
-- published_at, or one in the future, is seen by admins only. media_key is
-- the stored object of an uploaded recording or material (internal/storage),
-- with the type sniffed from its bytes and its size; url is a link's
-- address (a YouTube or Vimeo video is embedded through its
-- privacy-enhanced player). min_level is the Tribe Level's rank a member
-- needs (0: none).
CREATE TABLE library_items (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('recording', 'material', 'lesson', 'link')),
    title        TEXT NOT NULL CHECK (char_length(title) BETWEEN 1 AND 200),
    description  TEXT NOT NULL DEFAULT '',
    session_id   TEXT REFERENCES live_sessions(id) ON DELETE SET NULL,
    tags         TEXT NOT NULL DEFAULT '[]',
    duration_s   INTEGER NOT NULL DEFAULT 0 CHECK (duration_s >= 0),
    min_level    INTEGER NOT NULL DEFAULT 0 CHECK (min_level BETWEEN 0 AND 5),
    published_at TIMESTAMPTZ,
    media_key    TEXT,
    media_type   TEXT,
    media_size   BIGINT,
    url          TEXT NOT NULL DEFAULT '',
    body         TEXT NOT NULL DEFAULT '',
    chapters     TEXT NOT NULL DEFAULT '[]',
    transcript   TEXT,
    -- when the members who RSVP'd the session and missed it were told the
    -- replay is up (once, by whichever instance claims it first)
    notified_at  TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL,
    CHECK ((media_key IS NULL) = (media_type IS NULL) AND (media_key IS NULL) = (media_size IS NULL))
);
CREATE INDEX library_items_published ON library_items(published_at DESC);
CREATE INDEX library_items_session ON library_items(session_id);

-- Where a member is in an item; completed once they reach 90 % or mark it.
CREATE TABLE library_progress (
    item_id    TEXT NOT NULL REFERENCES library_items(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    position_s INTEGER NOT NULL CHECK (position_s >= 0),
    completed  BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (user_id, item_id)
);
CREATE INDEX library_progress_item ON library_progress(item_id);

-- A resumable upload: received bytes are stored as parts under
-- uploads/{id}/ until the upload is attached to an item; the sweeper
-- removes uploads (and their parts) untouched for a day.
CREATE TABLE library_uploads (
    id           TEXT PRIMARY KEY,
    created_by   TEXT REFERENCES users(id) ON DELETE SET NULL,
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL DEFAULT '',
    size         BIGINT NOT NULL CHECK (size > 0),
    received     BIGINT NOT NULL DEFAULT 0 CHECK (received BETWEEN 0 AND size),
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX library_uploads_updated ON library_uploads(updated_at);

-- The parts an upload received, in order: part start begins at byte start
-- and is stored under object_key. Recorded in the transaction that moves
-- received on, so a part that lost a race for its offset is never one of
-- them (its object is removed, or swept with the upload's folder).
CREATE TABLE library_upload_parts (
    upload_id TEXT NOT NULL REFERENCES library_uploads(id) ON DELETE CASCADE,
    start     BIGINT NOT NULL CHECK (start >= 0),
    size      BIGINT NOT NULL CHECK (size > 0),
    object_key TEXT NOT NULL,
    PRIMARY KEY (upload_id, start)
);
