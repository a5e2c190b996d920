-- Initial schema (PostgreSQL). Keep the SQLite twin of this file in step.

CREATE TABLE users (
    id                 TEXT PRIMARY KEY,
    email              TEXT NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
    email_normalized   TEXT NOT NULL UNIQUE CHECK (email_normalized = lower(btrim(email_normalized))),
    password_hash      TEXT NOT NULL,
    email_confirmed_at TIMESTAMPTZ,
    created_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Roles granted by operators (tribe admin grant). Configuration can make
-- further users admins; either way a confirmed e-mail address is required.
CREATE TABLE user_roles (
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role       TEXT NOT NULL CHECK (role IN ('admin')),
    granted_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, role)
);

CREATE TABLE profiles (
    id         TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    email      TEXT NOT NULL,
    full_name  TEXT NOT NULL DEFAULT '' CHECK (char_length(full_name) <= 120),
    avatar_url TEXT,
    bio        TEXT NOT NULL DEFAULT '' CHECK (char_length(bio) <= 2000),
    phone      TEXT NOT NULL DEFAULT '' CHECK (char_length(phone) <= 40),
    location   TEXT NOT NULL DEFAULT '' CHECK (char_length(location) <= 120),
    company    TEXT NOT NULL DEFAULT '' CHECK (char_length(company) <= 120),
    job_title  TEXT NOT NULL DEFAULT '' CHECK (char_length(job_title) <= 120),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Browser sessions: only the SHA-256 of the cookie token is stored.
CREATE TABLE auth_sessions (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash   TEXT NOT NULL UNIQUE,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at   TIMESTAMPTZ NOT NULL,
    user_agent   TEXT NOT NULL DEFAULT '',
    ip           TEXT NOT NULL DEFAULT ''
);
CREATE INDEX auth_sessions_user ON auth_sessions(user_id);
CREATE INDEX auth_sessions_expires ON auth_sessions(expires_at);

-- Single-use links sent by e-mail (address confirmation, password reset).
CREATE TABLE email_tokens (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    purpose    TEXT NOT NULL CHECK (purpose IN ('confirm', 'reset')),
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    expires_at TIMESTAMPTZ NOT NULL,
    used_at    TIMESTAMPTZ
);
CREATE INDEX email_tokens_user ON email_tokens(user_id, purpose);

CREATE TABLE waitlist (
    id               TEXT PRIMARY KEY,
    full_name        TEXT NOT NULL CHECK (char_length(btrim(full_name)) BETWEEN 1 AND 120),
    email            TEXT NOT NULL,
    email_normalized TEXT NOT NULL UNIQUE,
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Every outgoing e-mail is written here first and delivered by a worker.
CREATE TABLE mail_outbox (
    id              TEXT PRIMARY KEY,
    to_addr         TEXT NOT NULL,
    subject         TEXT NOT NULL,
    text_body       TEXT NOT NULL,
    html_body       TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    locked_until    TIMESTAMPTZ,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    sent_at         TIMESTAMPTZ
);
CREATE INDEX mail_outbox_due ON mail_outbox(status, next_attempt_at);

CREATE TABLE subscriptions (
    user_id                TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    status                 TEXT NOT NULL CHECK (status IN ('active', 'trialing', 'past_due', 'canceled', 'unpaid',
                               'incomplete', 'incomplete_expired', 'paused')),
    current_period_end     TIMESTAMPTZ,
    stripe_customer_id     TEXT UNIQUE,
    stripe_subscription_id TEXT UNIQUE,
    cancel_at_period_end   BOOLEAN NOT NULL DEFAULT FALSE,
    complimentary          BOOLEAN NOT NULL DEFAULT FALSE,
    created_at             TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at             TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_status ON subscriptions(status);

-- Payment-provider webhook events already handled, so a redelivery is a no-op.
CREATE TABLE payment_events (
    id           TEXT PRIMARY KEY,
    type         TEXT NOT NULL,
    received_at  TIMESTAMPTZ NOT NULL DEFAULT now(),
    processed_at TIMESTAMPTZ
);

CREATE TABLE cohorts (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL CHECK (char_length(btrim(name)) BETWEEN 1 AND 80),
    description  TEXT NOT NULL DEFAULT '' CHECK (char_length(description) <= 1000),
    icon         TEXT NOT NULL DEFAULT 'users'
                 CHECK (icon IN ('users', 'sparkles', 'target', 'rocket', 'zap', 'heart', 'star')),
    github_url   TEXT CHECK (github_url IS NULL OR github_url LIKE 'http://%' OR github_url LIKE 'https://%'),
    homepage_url TEXT CHECK (homepage_url IS NULL OR homepage_url LIKE 'http://%' OR homepage_url LIKE 'https://%'),
    created_by   TEXT REFERENCES users(id) ON DELETE SET NULL,
    max_members  INTEGER NOT NULL DEFAULT 5 CHECK (max_members BETWEEN 1 AND 50),
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- UNIQUE(user_id): a user belongs to at most one cohort.
CREATE TABLE cohort_members (
    id        TEXT PRIMARY KEY,
    cohort_id TEXT NOT NULL REFERENCES cohorts(id) ON DELETE CASCADE,
    user_id   TEXT NOT NULL UNIQUE REFERENCES users(id) ON DELETE CASCADE,
    joined_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX cohort_members_cohort ON cohort_members(cohort_id, joined_at);

-- Live group sessions (the spec's "sessions" table).
CREATE TABLE live_sessions (
    id              TEXT PRIMARY KEY,
    title           TEXT NOT NULL CHECK (char_length(btrim(title)) BETWEEN 1 AND 200),
    description     TEXT NOT NULL DEFAULT '',
    tags            JSONB NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(tags) = 'array'),
    session_date    TEXT NOT NULL CHECK (session_date ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
    session_time    TEXT NOT NULL CHECK (session_time ~ '^[0-9]{2}:[0-9]{2}$'),
    duration        TEXT NOT NULL,
    timezone        TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'live', 'completed', 'cancelled')),
    max_attendees   INTEGER CHECK (max_attendees IS NULL OR max_attendees > 0),
    zoom_meeting_id TEXT NOT NULL DEFAULT '',
    zoom_password   TEXT NOT NULL DEFAULT '',
    zoom_join_url   TEXT NOT NULL DEFAULT '',
    meeting_link    TEXT NOT NULL DEFAULT '',
    created_by      TEXT REFERENCES users(id) ON DELETE SET NULL,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX live_sessions_when ON live_sessions(session_date, session_time);

-- Knowledge-base documents. metadata holds {title, category, type, source, tags}.
CREATE TABLE documents (
    id         TEXT PRIMARY KEY,
    content    TEXT NOT NULL CHECK (char_length(btrim(content)) > 0),
    metadata   JSONB NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX documents_created ON documents(created_at);
