-- The schema and rows the SQLite migrations end in, for a fresh database. Made by
-- `go test ./internal/store -run TestFreshSchema -update`; used only while the hash below is theirs.
-- migrations: 94f95ce76d0100be13d9040ab106d98cbf943d8d53425930db001761da7f20c3
CREATE TABLE users (
    id                 TEXT PRIMARY KEY,
    email              TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    email_normalized   TEXT NOT NULL UNIQUE CHECK (email_normalized = lower(trim(email_normalized))),
    password_hash      TEXT NOT NULL,
    email_confirmed_at TEXT,
    created_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE user_roles (
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('admin')),
    granted_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (user_id, role)
);
CREATE TABLE profiles (
    id         TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    full_name  TEXT NOT NULL DEFAULT '' CHECK (length(full_name) <= 120),
    avatar_url TEXT,
    bio        TEXT NOT NULL DEFAULT '' CHECK (length(bio) <= 2000),
    phone      TEXT NOT NULL DEFAULT '' CHECK (length(phone) <= 40),
    location   TEXT NOT NULL DEFAULT '' CHECK (length(location) <= 120),
    company    TEXT NOT NULL DEFAULT '' CHECK (length(company) <= 120),
    job_title  TEXT NOT NULL DEFAULT '' CHECK (length(job_title) <= 120),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
, name_confirmed INTEGER NOT NULL DEFAULT 0 CHECK (name_confirmed IN (0, 1)), in_directory INTEGER NOT NULL DEFAULT 0 CHECK (in_directory IN (0, 1)));
CREATE TABLE auth_sessions (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    last_seen_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at   TEXT NOT NULL,
    user_agent   TEXT NOT NULL DEFAULT '',
    ip           TEXT NOT NULL DEFAULT ''
);
CREATE INDEX auth_sessions_user ON auth_sessions(user_id);
CREATE INDEX auth_sessions_expires ON auth_sessions(expires_at);
CREATE TABLE email_tokens (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('confirm', 'reset')),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    expires_at TEXT NOT NULL,
    used_at    TEXT
);
CREATE INDEX email_tokens_user ON email_tokens(user_id, purpose);
CREATE TABLE waitlist (
    id               TEXT PRIMARY KEY,
    full_name        TEXT NOT NULL CHECK (length(trim(full_name)) BETWEEN 1 AND 120),
    email            TEXT NOT NULL,
    email_normalized TEXT NOT NULL UNIQUE,
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE mail_outbox (
    id              TEXT PRIMARY KEY,
    to_addr         TEXT NOT NULL,
    subject         TEXT NOT NULL,
    text_body       TEXT NOT NULL,
    html_body       TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    locked_until    TEXT,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    sent_at         TEXT
, attachments TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(attachments)), idempotency_key TEXT CHECK (length(idempotency_key) BETWEEN 1 AND 200), list_unsubscribe TEXT NOT NULL DEFAULT '');
CREATE INDEX mail_outbox_due ON mail_outbox(status, next_attempt_at);
CREATE TABLE subscriptions (
    user_id                TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    status                 TEXT NOT NULL CHECK (status IN ('active', 'trialing', 'past_due', 'canceled', 'unpaid',
                               'incomplete', 'incomplete_expired', 'paused')),
    current_period_end     TEXT,
    stripe_customer_id     TEXT UNIQUE,
    stripe_subscription_id TEXT UNIQUE,
    cancel_at_period_end   INTEGER NOT NULL DEFAULT 0 CHECK (cancel_at_period_end IN (0, 1)),
    complimentary          INTEGER NOT NULL DEFAULT 0 CHECK (complimentary IN (0, 1)),
    created_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at             TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
, comp_until TEXT, stripe_synced_at INTEGER NOT NULL DEFAULT 0);
CREATE INDEX subscriptions_status ON subscriptions(status);
CREATE TABLE payment_events (
    id           TEXT PRIMARY KEY,
    type         TEXT NOT NULL,
    received_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    processed_at TEXT
, rejected TEXT);
CREATE TABLE cohorts (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL CHECK (length(trim(name)) BETWEEN 1 AND 80),
    description  TEXT NOT NULL DEFAULT '' CHECK (length(description) <= 1000),
    icon         TEXT NOT NULL DEFAULT 'users'
                 CHECK (icon IN ('users', 'sparkles', 'target', 'rocket', 'zap', 'heart', 'star')),
    github_url   TEXT CHECK (github_url IS NULL OR github_url LIKE 'http://%' OR github_url LIKE 'https://%'),
    homepage_url TEXT CHECK (homepage_url IS NULL OR homepage_url LIKE 'http://%' OR homepage_url LIKE 'https://%'),
    created_by   TEXT REFERENCES users(id) ON DELETE SET NULL,
    max_members  INTEGER NOT NULL DEFAULT 5 CHECK (max_members BETWEEN 1 AND 50),
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE cohort_members (
    id        TEXT PRIMARY KEY,
    cohort_id TEXT NOT NULL REFERENCES cohorts(id) ON DELETE CASCADE,
    user_id   TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
    joined_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX cohort_members_cohort ON cohort_members(cohort_id, joined_at);
CREATE TABLE live_sessions (
    id              TEXT PRIMARY KEY,
    title           TEXT NOT NULL CHECK (length(trim(title)) BETWEEN 1 AND 200),
    description     TEXT NOT NULL DEFAULT '',
    tags            TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
    session_date    TEXT NOT NULL CHECK (session_date GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
    session_time    TEXT NOT NULL CHECK (session_time GLOB '[0-9][0-9]:[0-9][0-9]'),
    duration        TEXT NOT NULL,
    timezone        TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'live', 'completed', 'cancelled')),
    max_attendees   INTEGER CHECK (max_attendees IS NULL OR max_attendees > 0),
    zoom_meeting_id TEXT NOT NULL DEFAULT '',
    zoom_password   TEXT NOT NULL DEFAULT '',
    zoom_join_url   TEXT NOT NULL DEFAULT '',
    meeting_link    TEXT NOT NULL DEFAULT '',
    created_by      TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX live_sessions_when ON live_sessions(session_date, session_time);
CREATE TABLE documents (
    id         TEXT PRIMARY KEY,
    content    TEXT NOT NULL CHECK (length(trim(content)) > 0),
    metadata   TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(metadata) AND json_type(metadata) = 'object'),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
, seed_key TEXT, origin TEXT);
CREATE INDEX documents_created ON documents(created_at);
CREATE TABLE calendar_feeds (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX cohorts_created ON cohorts(created_at);
CREATE TABLE billing_customers (
    user_id            TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    stripe_customer_id TEXT NOT NULL UNIQUE,
    created_at         TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE checkout_holds (
    user_id             TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    hold_id             TEXT NOT NULL UNIQUE,
    expires_at          TEXT NOT NULL,
    checkout_session_id TEXT UNIQUE,
    checkout_url        TEXT,
    created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
, plan TEXT NOT NULL DEFAULT 'monthly' CHECK (plan IN ('monthly', 'annual')));
CREATE INDEX checkout_holds_expires ON checkout_holds(expires_at);
CREATE UNIQUE INDEX documents_seed_key ON documents(seed_key) WHERE seed_key IS NOT NULL;
CREATE TABLE kb_chunks (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id     TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    ordinal         INTEGER NOT NULL CHECK (ordinal >= 0),
    content         TEXT NOT NULL CHECK (length(content) > 0),
    -- little-endian float32s from embedding_model; NULL until the worker has them
    embedding       BLOB CHECK (embedding IS NULL OR (length(embedding) > 0 AND length(embedding) % 4 = 0)),
    embedding_model TEXT,
    embed_attempts  INTEGER NOT NULL DEFAULT 0 CHECK (embed_attempts >= 0),
    -- the worker leaves the chunk alone until then: a claim's lease or a retry's back-off
    embed_after     TEXT,
    embed_error     TEXT,
    UNIQUE (document_id, ordinal),
    CHECK ((embedding IS NULL) = (embedding_model IS NULL))
);
CREATE INDEX kb_chunks_model ON kb_chunks(embedding_model);
CREATE VIRTUAL TABLE kb_fts USING fts5(
    title, tags, body,
    tokenize = 'porter unicode61 remove_diacritics 2'
);
CREATE TRIGGER kb_chunks_unindex AFTER DELETE ON kb_chunks BEGIN
    DELETE FROM kb_fts WHERE rowid = old.id;
END;
CREATE TABLE kb_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE table_versions (
    name    TEXT PRIMARY KEY,
    version INTEGER NOT NULL DEFAULT 0
);
CREATE TRIGGER live_sessions_inserted AFTER INSERT ON live_sessions
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'live_sessions'; END;
CREATE TRIGGER live_sessions_updated AFTER UPDATE ON live_sessions
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'live_sessions'; END;
CREATE TRIGGER live_sessions_deleted AFTER DELETE ON live_sessions
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'live_sessions'; END;
CREATE TABLE holds (
    id         TEXT PRIMARY KEY,
    kind       TEXT NOT NULL CHECK (kind IN ('seat', 'booking')),
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    released   INTEGER NOT NULL DEFAULT 0 CHECK (released IN (0, 1))
);
CREATE INDEX holds_client ON holds(kind, client, expires_at);
CREATE INDEX holds_user ON holds(kind, user_id, created_at);
CREATE INDEX holds_expires ON holds(expires_at);
CREATE TABLE booking_settings (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    settings   TEXT NOT NULL CHECK (json_valid(settings) AND json_type(settings) = 'object'),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE bookings (
    id                  TEXT PRIMARY KEY,
    type_id             TEXT NOT NULL CHECK (length(type_id) BETWEEN 1 AND 64 AND type_id NOT GLOB '*[^a-z0-9-]*'),
    status              TEXT NOT NULL CHECK (status IN
                            ('held', 'requested', 'confirmed', 'cancelled', 'expired', 'declined', 'completed', 'no_show')),
    start_at            TEXT NOT NULL,
    end_at              TEXT NOT NULL,
    blocked_from        TEXT NOT NULL,
    blocked_until       TEXT NOT NULL,
    expires_at          TEXT,
    name                TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    email               TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    email_normalized    TEXT NOT NULL CHECK (email_normalized = lower(email_normalized)),
    notes               TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 2000),
    time_zone           TEXT NOT NULL CHECK (length(time_zone) BETWEEN 1 AND 64),
    client_addr         TEXT NOT NULL DEFAULT '',
    user_id             TEXT REFERENCES users(id) ON DELETE SET NULL,
    amount              INTEGER NOT NULL CHECK (amount >= 0),
    currency            TEXT NOT NULL CHECK (length(currency) = 3 AND currency NOT GLOB '*[^A-Z]*'),
    checkout_session_id TEXT UNIQUE,
    checkout_url        TEXT,
    payment_intent_id   TEXT,
    paid_at             TEXT,
    meeting_link        TEXT NOT NULL DEFAULT '',
    token_hash          TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64 AND token_hash NOT GLOB '*[^0-9a-f]*'),
    reschedule_count    INTEGER NOT NULL DEFAULT 0 CHECK (reschedule_count BETWEEN 0 AND 2),
    ics_sequence        INTEGER NOT NULL DEFAULT 0 CHECK (ics_sequence >= 0),
    cancelled_by        TEXT CHECK (cancelled_by IN ('booker', 'owner')),
    created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')), event_id TEXT REFERENCES booking_events(id), hold_key_hash TEXT NOT NULL DEFAULT '', return_hash TEXT NOT NULL DEFAULT '', discount INTEGER NOT NULL DEFAULT 0 CHECK (discount >= 0),
    CHECK (end_at > start_at),
    CHECK (blocked_from <= start_at AND blocked_until >= end_at),
    CHECK (status <> 'held' OR expires_at IS NOT NULL)
);
CREATE INDEX bookings_start ON bookings (start_at);
CREATE INDEX bookings_blocked ON bookings (blocked_until, blocked_from);
CREATE INDEX bookings_held_expiry ON bookings (expires_at) WHERE status = 'held';
CREATE INDEX bookings_open_by_email ON bookings (email_normalized) WHERE status IN ('held', 'requested');
CREATE INDEX bookings_open_by_client ON bookings (client_addr) WHERE status IN ('held', 'requested');
CREATE TABLE booking_refunds (
    id               TEXT PRIMARY KEY,
    booking_id       TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
    stripe_refund_id TEXT NOT NULL UNIQUE,
    amount           INTEGER NOT NULL CHECK (amount > 0),
    currency         TEXT NOT NULL CHECK (length(currency) = 3 AND currency NOT GLOB '*[^A-Z]*'),
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX booking_refunds_booking ON booking_refunds (booking_id);
CREATE INDEX booking_refunds_created ON booking_refunds (created_at);
CREATE UNIQUE INDEX mail_outbox_idempotency ON mail_outbox (idempotency_key);
CREATE TABLE booking_tokens (
    token_hash TEXT PRIMARY KEY CHECK (length(token_hash) = 64 AND token_hash NOT GLOB '*[^0-9a-f]*'),
    booking_id TEXT NOT NULL REFERENCES bookings(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
, purpose TEXT NOT NULL DEFAULT '');
CREATE INDEX booking_tokens_booking ON booking_tokens (booking_id);
CREATE TABLE booking_feed (
    id         INTEGER PRIMARY KEY CHECK (id = 1),
    token_hash TEXT NOT NULL UNIQUE CHECK (length(token_hash) = 64 AND token_hash NOT GLOB '*[^0-9a-f]*'),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE session_rsvps (
    session_id TEXT NOT NULL REFERENCES live_sessions(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    going      INTEGER NOT NULL CHECK (going IN (0, 1)),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (session_id, user_id)
);
CREATE INDEX session_rsvps_user ON session_rsvps(user_id);
CREATE TRIGGER session_rsvps_inserted AFTER INSERT ON session_rsvps
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'session_rsvps'; END;
CREATE TRIGGER session_rsvps_updated AFTER UPDATE ON session_rsvps
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'session_rsvps'; END;
CREATE TRIGGER session_rsvps_deleted AFTER DELETE ON session_rsvps
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'session_rsvps'; END;
CREATE TABLE session_attendance (
    session_id   TEXT NOT NULL REFERENCES live_sessions(id) ON DELETE CASCADE,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    joined_at    TEXT,
    correction   TEXT CHECK (correction IN ('present', 'absent')),
    corrected_by TEXT REFERENCES users(id) ON DELETE SET NULL,
    corrected_at TEXT,
    PRIMARY KEY (session_id, user_id),
    CHECK (joined_at IS NOT NULL OR correction IS NOT NULL),
    CHECK ((correction IS NULL) = (corrected_at IS NULL))
);
CREATE INDEX session_attendance_user ON session_attendance(user_id);
CREATE TABLE awards (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind         TEXT NOT NULL CHECK (kind IN ('contribution', 'mentoring', 'workshop')),
    note         TEXT NOT NULL CHECK (length(note) BETWEEN 1 AND 500),
    status       TEXT NOT NULL CHECK (status IN ('suggested', 'accepted')),
    suggested    INTEGER NOT NULL CHECK (suggested IN (0, 1)),
    awarded_by   TEXT REFERENCES users(id) ON DELETE SET NULL,
    awarded_at   TEXT,
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((status = 'accepted') = (awarded_at IS NOT NULL))
);
CREATE INDEX awards_user ON awards(user_id, status);
CREATE INDEX awards_created ON awards(created_at);
CREATE TABLE level_notices (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    level   TEXT NOT NULL CHECK (level IN ('Apprentice', 'Contributor', 'Builder', 'Expert', 'Master')),
    seen_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE projects (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    title         TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 120),
    link          TEXT NOT NULL CHECK (length(link) BETWEEN 1 AND 500),
    description   TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 500),
    repo_url      TEXT CHECK (repo_url IS NULL OR length(repo_url) BETWEEN 1 AND 500),
    tags          TEXT NOT NULL DEFAULT '' CHECK (length(tags) <= 200),
    hidden_reason TEXT CHECK (hidden_reason IS NULL OR length(hidden_reason) BETWEEN 1 AND 500),
    hidden_by     TEXT REFERENCES users(id) ON DELETE SET NULL,
    hidden_at     TEXT,
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK ((hidden_at IS NULL) = (hidden_reason IS NULL))
);
CREATE INDEX projects_user ON projects(user_id);
CREATE INDEX projects_created ON projects(created_at);
CREATE TABLE project_reactions (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_reactions_user ON project_reactions(user_id);
CREATE TABLE project_comments (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    body       TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 2000),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX project_comments_project ON project_comments(project_id, created_at);
CREATE INDEX project_comments_user ON project_comments(user_id);
CREATE TABLE notification_settings (
    user_id           TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    session_reminders INTEGER NOT NULL DEFAULT 1 CHECK (session_reminders IN (0, 1)),
    weekly_digest     INTEGER NOT NULL DEFAULT 1 CHECK (weekly_digest IN (0, 1)),
    cohort_projects   INTEGER NOT NULL DEFAULT 1 CHECK (cohort_projects IN (0, 1)),
    level_reached     INTEGER NOT NULL DEFAULT 1 CHECK (level_reached IN (0, 1)),
    time_zone         TEXT NOT NULL DEFAULT '' CHECK (length(time_zone) <= 64),
    updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
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
CREATE TABLE notify_secret (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    key TEXT NOT NULL CHECK (length(key) = 64)
);
CREATE TABLE booking_calendars (
    id              TEXT PRIMARY KEY,
    url             TEXT NOT NULL UNIQUE CHECK (length(url) BETWEEN 9 AND 2000),
    position        INTEGER NOT NULL DEFAULT 0,
    etag            TEXT NOT NULL DEFAULT '',
    last_modified   TEXT NOT NULL DEFAULT '',
    last_success_at TEXT,
    last_error      TEXT NOT NULL DEFAULT '' CHECK (length(last_error) <= 500),
    last_error_at   TEXT,
    -- The end of the time the stored busy intervals were expanded over: a
    -- feed that has not changed is read again in full before the booking
    -- window outgrows it.
    expanded_until  TEXT,
    event_count     INTEGER NOT NULL DEFAULT 0,
    next_fetch_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    lease_token     TEXT,
    lease_until     TEXT,
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
, skipped_count INTEGER NOT NULL DEFAULT 0, read_notes TEXT NOT NULL DEFAULT '');
CREATE TABLE booking_busy (
    calendar_id TEXT NOT NULL REFERENCES booking_calendars(id) ON DELETE CASCADE,
    start_at    TEXT NOT NULL,
    end_at      TEXT NOT NULL,
    CHECK (end_at > start_at)
);
CREATE INDEX booking_busy_range ON booking_busy (end_at, start_at);
CREATE INDEX booking_busy_calendar ON booking_busy (calendar_id);
CREATE TABLE booking_events (
    id            TEXT PRIMARY KEY,
    type_id       TEXT NOT NULL CHECK (length(type_id) BETWEEN 1 AND 64 AND type_id NOT GLOB '*[^a-z0-9-]*'),
    status        TEXT NOT NULL CHECK (status IN ('scheduled', 'cancelled')),
    start_at      TEXT NOT NULL,
    end_at        TEXT NOT NULL,
    blocked_from  TEXT NOT NULL,
    blocked_until TEXT NOT NULL,
    seats         INTEGER NOT NULL CHECK (seats BETWEEN 1 AND 1000),
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    CHECK (end_at > start_at),
    CHECK (blocked_from <= start_at AND blocked_until >= end_at)
);
CREATE INDEX booking_events_start ON booking_events (start_at);
CREATE INDEX booking_events_blocked ON booking_events (blocked_until, blocked_from);
CREATE INDEX bookings_event ON bookings (event_id) WHERE event_id IS NOT NULL;
CREATE TRIGGER bookings_no_overlap_insert BEFORE INSERT ON bookings
WHEN NEW.status IN ('held', 'requested', 'confirmed') AND NEW.event_id IS NULL
BEGIN
    SELECT RAISE(ABORT, 'bookings_no_overlap')
     WHERE EXISTS (SELECT 1 FROM bookings
                    WHERE status IN ('held', 'requested', 'confirmed') AND event_id IS NULL
                      AND blocked_from < NEW.blocked_until AND NEW.blocked_from < blocked_until);
END;
CREATE TRIGGER bookings_no_overlap_update BEFORE UPDATE OF status, blocked_from, blocked_until ON bookings
WHEN NEW.status IN ('held', 'requested', 'confirmed') AND NEW.event_id IS NULL
BEGIN
    SELECT RAISE(ABORT, 'bookings_no_overlap')
     WHERE EXISTS (SELECT 1 FROM bookings
                    WHERE id <> NEW.id AND status IN ('held', 'requested', 'confirmed') AND event_id IS NULL
                      AND blocked_from < NEW.blocked_until AND NEW.blocked_from < blocked_until);
END;
CREATE TRIGGER bookings_seats_insert BEFORE INSERT ON bookings
WHEN NEW.event_id IS NOT NULL AND NEW.status IN ('held', 'requested', 'confirmed')
BEGIN
    SELECT RAISE(ABORT, 'booking_event_closed')
     WHERE NOT EXISTS (SELECT 1 FROM booking_events WHERE id = NEW.event_id AND status = 'scheduled');
    SELECT RAISE(ABORT, 'booking_event_sold_out')
     WHERE (SELECT COUNT(*) FROM bookings
             WHERE event_id = NEW.event_id AND status IN ('held', 'requested', 'confirmed'))
        >= (SELECT seats FROM booking_events WHERE id = NEW.event_id);
END;
CREATE TRIGGER bookings_seats_update BEFORE UPDATE OF status ON bookings
WHEN NEW.event_id IS NOT NULL AND NEW.status IN ('held', 'requested', 'confirmed')
     AND OLD.status NOT IN ('held', 'requested', 'confirmed')
BEGIN
    SELECT RAISE(ABORT, 'booking_event_closed')
     WHERE NOT EXISTS (SELECT 1 FROM booking_events WHERE id = NEW.event_id AND status = 'scheduled');
    SELECT RAISE(ABORT, 'booking_event_sold_out')
     WHERE (SELECT COUNT(*) FROM bookings
             WHERE id <> NEW.id AND event_id = NEW.event_id AND status IN ('held', 'requested', 'confirmed'))
        >= (SELECT seats FROM booking_events WHERE id = NEW.event_id);
END;
CREATE TABLE inquiries (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    email            TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    company          TEXT NOT NULL CHECK (length(company) BETWEEN 1 AND 200),
    team_size        INTEGER NOT NULL CHECK (team_size BETWEEN 1 AND 1000000),
    message          TEXT NOT NULL CHECK (length(message) BETWEEN 1 AND 5000),
    preferred_start  TEXT NOT NULL DEFAULT '' CHECK (preferred_start = '' OR length(preferred_start) = 10),
    client_addr      TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL DEFAULT 'new' CHECK (status IN ('new', 'replied', 'won', 'lost')),
    note             TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 5000),
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX inquiries_created ON inquiries (created_at);
CREATE INDEX inquiries_status ON inquiries (status, created_at);
CREATE TABLE membership_ledger (
    -- The change's own id: the Stripe event's id for a webhook, else one
    -- made for the grant, end, refresh, reconcile or backfill. Replaying
    -- takes each id once.
    id                   TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 200),
    -- No foreign key: the history of a membership outlives its account.
    user_id              TEXT NOT NULL,
    -- The order the member's changes were applied in (1, 2, ...): replay
    -- follows it for one member, whatever clocks the times came from.
    user_seq             INTEGER NOT NULL CHECK (user_seq > 0),
    -- When the change happened: the event's own time on Stripe's clock, or
    -- the site's clock for a grant or end made here.
    occurred_at          TEXT NOT NULL,
    recorded_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    source               TEXT NOT NULL CHECK (source IN ('webhook', 'refresh', 'reconcile', 'comp_grant', 'comp_end', 'backfill')),
    -- The membership's state after the change.
    status               TEXT NOT NULL CHECK (status IN ('active', 'trialing', 'past_due', 'canceled', 'unpaid',
                             'incomplete', 'incomplete_expired', 'paused')),
    subscription_id      TEXT NOT NULL DEFAULT '',
    complimentary        INTEGER NOT NULL DEFAULT 0 CHECK (complimentary IN (0, 1)),
    comp_until           TEXT,
    cancel_at_period_end INTEGER NOT NULL DEFAULT 0 CHECK (cancel_at_period_end IN (0, 1)),
    -- What one billing interval costs, in the currency's smallest unit
    -- (cents), every item of STRIPE_PRICE_ID times its quantity; 0 when
    -- unknown (a backfilled row) or free.
    amount               INTEGER NOT NULL DEFAULT 0 CHECK (amount >= 0),
    currency             TEXT NOT NULL DEFAULT '' CHECK (currency = '' OR (length(currency) = 3 AND currency = lower(currency))),
    billing_interval     TEXT NOT NULL DEFAULT '' CHECK (billing_interval IN ('', 'day', 'week', 'month', 'year')),
    interval_count       INTEGER NOT NULL DEFAULT 1 CHECK (interval_count > 0)
, discount INTEGER NOT NULL DEFAULT 0 CHECK (discount >= 0));
CREATE INDEX membership_ledger_time ON membership_ledger(occurred_at, id);
CREATE INDEX membership_ledger_recorded ON membership_ledger(recorded_at);
CREATE UNIQUE INDEX membership_ledger_user ON membership_ledger(user_id, user_seq);
CREATE TRIGGER membership_ledger_no_update BEFORE UPDATE ON membership_ledger
BEGIN SELECT RAISE(ABORT, 'membership_ledger is append-only'); END;
CREATE TRIGGER membership_ledger_no_delete BEFORE DELETE ON membership_ledger
BEGIN SELECT RAISE(ABORT, 'membership_ledger is append-only'); END;
CREATE TRIGGER membership_ledger_inserted AFTER INSERT ON membership_ledger
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'membership_ledger'; END;
CREATE TRIGGER users_created_inserted AFTER INSERT ON users
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'users_created'; END;
CREATE TRIGGER users_created_deleted AFTER DELETE ON users
BEGIN UPDATE table_versions SET version = version + 1 WHERE name = 'users_created'; END;
CREATE TABLE knowledge_gaps (
    id       TEXT PRIMARY KEY,
    question TEXT NOT NULL CHECK (length(question) BETWEEN 1 AND 1000),
    asked_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
, cluster_id TEXT);
CREATE INDEX knowledge_gaps_asked ON knowledge_gaps(asked_at);
CREATE TABLE knowledge_gap_clusters (
    id         TEXT PRIMARY KEY,
    question   TEXT NOT NULL,
    words      INTEGER NOT NULL CHECK (words >= 0),
    exact      TEXT NOT NULL DEFAULT '',
    asked      INTEGER NOT NULL CHECK (asked >= 0),
    last_asked TEXT NOT NULL
);
CREATE INDEX knowledge_gap_clusters_page ON knowledge_gap_clusters(asked DESC, last_asked DESC, id DESC);
CREATE INDEX knowledge_gap_clusters_exact ON knowledge_gap_clusters(exact) WHERE exact <> '';
CREATE TABLE knowledge_gap_words (
    word       TEXT NOT NULL,
    cluster_id TEXT NOT NULL REFERENCES knowledge_gap_clusters(id) ON DELETE CASCADE,
    PRIMARY KEY (word, cluster_id)
);
CREATE INDEX knowledge_gap_words_cluster ON knowledge_gap_words(cluster_id);
CREATE INDEX knowledge_gaps_cluster ON knowledge_gaps(cluster_id, asked_at);
CREATE INDEX bookings_by_email_created ON bookings (email_normalized, created_at);
CREATE INDEX bookings_by_client_created ON bookings (client_addr, created_at);
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
CREATE TABLE forum_mutes (
    thread_id TEXT NOT NULL REFERENCES forum_threads(id) ON DELETE CASCADE,
    user_id   TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (thread_id, user_id)
);
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
CREATE TABLE notification_channels (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind    TEXT NOT NULL CHECK (length(kind) <= 40),
    channel TEXT NOT NULL CHECK (channel IN ('app', 'push', 'mail')),
    PRIMARY KEY (user_id, kind)
);
CREATE TABLE push_keys (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    private_key TEXT NOT NULL,
    public_key  TEXT NOT NULL
);
CREATE TABLE push_subscriptions (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    endpoint   TEXT NOT NULL UNIQUE CHECK (length(endpoint) <= 1000),
    p256dh     TEXT NOT NULL CHECK (length(p256dh) <= 200),
    auth       TEXT NOT NULL CHECK (length(auth) <= 100),
    created_at TEXT NOT NULL
);
CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);
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
CREATE TABLE session_reminder_notices (
    session_id  TEXT NOT NULL REFERENCES live_sessions(id) ON DELETE CASCADE,
    reminder    TEXT NOT NULL CHECK (reminder IN ('24h', '1h')),
    starts_unix INTEGER NOT NULL,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    PRIMARY KEY (session_id, reminder, starts_unix, user_id)
);
CREATE INDEX session_reminder_notices_starts ON session_reminder_notices (starts_unix);
CREATE TABLE live_presence (
    instance     TEXT NOT NULL,
    user_id      TEXT NOT NULL, -- no foreign key: a deleted account's rows expire with its streams
    expires_unix INTEGER NOT NULL,
    PRIMARY KEY (user_id, instance)
);
CREATE INDEX live_presence_expires ON live_presence (expires_unix);
CREATE INDEX forum_replies_shown ON forum_replies(thread_id) WHERE hidden_at IS NULL;
CREATE TABLE library_items (
    id           TEXT PRIMARY KEY,
    kind         TEXT NOT NULL CHECK (kind IN ('recording', 'material', 'lesson', 'link')),
    title        TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 200),
    description  TEXT NOT NULL DEFAULT '',
    session_id   TEXT REFERENCES live_sessions(id) ON DELETE SET NULL,
    tags         TEXT NOT NULL DEFAULT '[]',
    duration_s   INTEGER NOT NULL DEFAULT 0 CHECK (duration_s >= 0),
    min_level    INTEGER NOT NULL DEFAULT 0 CHECK (min_level BETWEEN 0 AND 5),
    published_at TEXT,
    media_key    TEXT,
    media_type   TEXT,
    media_size   INTEGER,
    url          TEXT NOT NULL DEFAULT '',
    body         TEXT NOT NULL DEFAULT '',
    chapters     TEXT NOT NULL DEFAULT '[]',
    transcript   TEXT,
    -- when the members who RSVP'd the session and missed it were told the
    -- replay is up (once, by whichever instance claims it first)
    notified_at  TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    CHECK ((media_key IS NULL) = (media_type IS NULL) AND (media_key IS NULL) = (media_size IS NULL))
);
CREATE INDEX library_items_published ON library_items(published_at DESC);
CREATE INDEX library_items_session ON library_items(session_id);
CREATE TABLE library_progress (
    item_id    TEXT NOT NULL REFERENCES library_items(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    position_s INTEGER NOT NULL CHECK (position_s >= 0),
    completed  INTEGER NOT NULL DEFAULT 0 CHECK (completed IN (0, 1)),
    updated_at TEXT NOT NULL,
    PRIMARY KEY (user_id, item_id)
);
CREATE INDEX library_progress_item ON library_progress(item_id);
CREATE TABLE library_uploads (
    id           TEXT PRIMARY KEY,
    created_by   TEXT REFERENCES users(id) ON DELETE SET NULL,
    filename     TEXT NOT NULL,
    content_type TEXT NOT NULL DEFAULT '',
    size         INTEGER NOT NULL CHECK (size > 0),
    received     INTEGER NOT NULL DEFAULT 0 CHECK (received BETWEEN 0 AND size),
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX library_uploads_updated ON library_uploads(updated_at);
CREATE TABLE library_upload_parts (
    upload_id TEXT NOT NULL REFERENCES library_uploads(id) ON DELETE CASCADE,
    start     INTEGER NOT NULL CHECK (start >= 0),
    size      INTEGER NOT NULL CHECK (size > 0),
    object_key TEXT NOT NULL,
    PRIMARY KEY (upload_id, start)
);
CREATE INDEX documents_origin ON documents(origin) WHERE origin IS NOT NULL;
CREATE TABLE oauth_clients (
    id            TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 512),
    name          TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    redirect_uris TEXT NOT NULL CHECK (json_valid(redirect_uris) AND json_type(redirect_uris) = 'array'),
    kind          TEXT NOT NULL CHECK (kind IN ('registered', 'metadata')),
    created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE TABLE oauth_grants (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client_id    TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
    scopes       TEXT NOT NULL CHECK (length(scopes) BETWEEN 1 AND 200),
    resource     TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT
);
CREATE INDEX oauth_grants_user ON oauth_grants(user_id, client_id);
CREATE INDEX oauth_grants_client ON oauth_grants(client_id);
CREATE TABLE oauth_codes (
    hash           TEXT PRIMARY KEY,
    grant_id       TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    redirect_uri   TEXT NOT NULL,
    code_challenge TEXT NOT NULL CHECK (length(code_challenge) = 43),
    expires_at     TEXT NOT NULL,
    used_at        TEXT
);
CREATE INDEX oauth_codes_expires ON oauth_codes(expires_at);
CREATE TABLE oauth_tokens (
    hash       TEXT PRIMARY KEY,
    grant_id   TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    expires_at TEXT NOT NULL,
    used_at    TEXT
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id);
CREATE INDEX oauth_tokens_expires ON oauth_tokens(expires_at);
CREATE TABLE credit_purchases (
    id                  TEXT PRIMARY KEY,
    package_id          TEXT NOT NULL CHECK (length(package_id) BETWEEN 1 AND 64 AND package_id NOT GLOB '*[^a-z0-9-]*'),
    package_name        TEXT NOT NULL CHECK (length(package_name) BETWEEN 1 AND 200),
    type_id             TEXT NOT NULL CHECK (length(type_id) BETWEEN 1 AND 64 AND type_id NOT GLOB '*[^a-z0-9-]*'),
    credits             INTEGER NOT NULL CHECK (credits BETWEEN 1 AND 100),
    valid_days          INTEGER NOT NULL CHECK (valid_days BETWEEN 1 AND 1095),
    status              TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'expired', 'refunded')),
    name                TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    email               TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    email_normalized    TEXT NOT NULL CHECK (email_normalized = lower(email_normalized)),
    user_id             TEXT REFERENCES users(id) ON DELETE SET NULL,
    client_addr         TEXT NOT NULL DEFAULT '',
    price               INTEGER NOT NULL CHECK (price > 0),
    member_price        INTEGER NOT NULL DEFAULT 0 CHECK (member_price IN (0, 1)),
    currency            TEXT NOT NULL CHECK (length(currency) = 3 AND currency NOT GLOB '*[^A-Z]*'),
    amount_paid         INTEGER CHECK (amount_paid >= 0),
    checkout_session_id TEXT UNIQUE,
    payment_intent_id   TEXT,
    return_hash         TEXT NOT NULL DEFAULT '',
    paid_at             TEXT,
    expires_at          TEXT,
    -- Credits spent and not given back, kept with each spend and return
    -- (credit_uses holds which booking each paid for): the database refuses
    -- more than were bought, however the spends race.
    spent               INTEGER NOT NULL DEFAULT 0 CHECK (spent >= 0),
    revoked             INTEGER NOT NULL DEFAULT 0 CHECK (revoked >= 0),
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL,
    CHECK (spent <= credits),
    CHECK (status NOT IN ('paid', 'refunded') OR (paid_at IS NOT NULL AND expires_at IS NOT NULL AND amount_paid IS NOT NULL))
);
CREATE INDEX credit_purchases_email ON credit_purchases (email_normalized);
CREATE INDEX credit_purchases_user ON credit_purchases (user_id);
CREATE INDEX credit_purchases_payment ON credit_purchases (payment_intent_id);
CREATE INDEX credit_purchases_expiry ON credit_purchases (expires_at) WHERE status = 'paid';
CREATE TABLE credit_uses (
    booking_id  TEXT PRIMARY KEY REFERENCES bookings(id) ON DELETE CASCADE,
    purchase_id TEXT NOT NULL REFERENCES credit_purchases(id) ON DELETE CASCADE,
    spent_at    TEXT NOT NULL,
    returned_at TEXT
);
CREATE INDEX credit_uses_purchase ON credit_uses (purchase_id) WHERE returned_at IS NULL;
CREATE TABLE credit_tokens (
    token_hash       TEXT PRIMARY KEY CHECK (length(token_hash) = 64 AND token_hash NOT GLOB '*[^0-9a-f]*'),
    email_normalized TEXT NOT NULL,
    created_at       TEXT NOT NULL
);
CREATE INDEX credit_tokens_email ON credit_tokens (email_normalized);
CREATE TABLE booking_waitlist (
    id               TEXT PRIMARY KEY,
    event_id         TEXT NOT NULL REFERENCES booking_events(id) ON DELETE CASCADE,
    name             TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
    email            TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    email_normalized TEXT NOT NULL CHECK (email_normalized = lower(email_normalized)),
    client_addr      TEXT NOT NULL DEFAULT '',
    status           TEXT NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'offered', 'booked', 'lapsed', 'closed')),
    booking_id       TEXT REFERENCES bookings(id) ON DELETE SET NULL,
    offer_token_hash TEXT UNIQUE,
    offered_at       TEXT,
    offer_expires_at TEXT,
    created_at       TEXT NOT NULL, time_zone TEXT NOT NULL DEFAULT 'UTC',
    UNIQUE (event_id, email_normalized),
    CHECK (status <> 'offered' OR (booking_id IS NOT NULL AND offer_expires_at IS NOT NULL))
);
CREATE INDEX booking_waitlist_line ON booking_waitlist (event_id, status, created_at);
CREATE INDEX booking_waitlist_client ON booking_waitlist (client_addr, created_at);
CREATE TABLE library_plays (
    item_id  TEXT NOT NULL,
    user_id  TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day      TEXT NOT NULL, -- YYYY-MM-DD, UTC
    finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
    PRIMARY KEY (item_id, user_id, day)
);
CREATE INDEX library_plays_day ON library_plays(day);
INSERT INTO "table_versions" ("name", "version") VALUES ('live_sessions', 0);
INSERT INTO "table_versions" ("name", "version") VALUES ('membership_ledger', 0);
INSERT INTO "table_versions" ("name", "version") VALUES ('session_rsvps', 0);
INSERT INTO "table_versions" ("name", "version") VALUES ('users_created', 0);
