-- OAuth 2.1 for the MCP server (PostgreSQL; internal/oauth). Clients
-- registered by RFC 7591 or named by a Client ID Metadata Document, grants
-- (member x client x scopes), authorization codes and tokens. Every secret is
-- kept as its SHA-256 only. Keep the SQLite twin in step.
CREATE TABLE oauth_clients (
    id            TEXT PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 512),
    name          TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    redirect_uris TEXT NOT NULL CHECK (json_typeof(redirect_uris::json) = 'array'),
    kind          TEXT NOT NULL CHECK (kind IN ('registered', 'metadata')),
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE oauth_grants (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    client_id    TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
    scopes       TEXT NOT NULL CHECK (length(scopes) BETWEEN 1 AND 200),
    resource     TEXT NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    last_used_at TIMESTAMPTZ,
    revoked_at   TIMESTAMPTZ
);
CREATE INDEX oauth_grants_user ON oauth_grants(user_id, client_id);
CREATE INDEX oauth_grants_client ON oauth_grants(client_id);

CREATE TABLE oauth_codes (
    hash           TEXT PRIMARY KEY,
    grant_id       TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    redirect_uri   TEXT NOT NULL,
    code_challenge TEXT NOT NULL CHECK (length(code_challenge) = 43),
    expires_at     TIMESTAMPTZ NOT NULL,
    used_at        TIMESTAMPTZ
);
CREATE INDEX oauth_codes_expires ON oauth_codes(expires_at);

CREATE TABLE oauth_tokens (
    hash       TEXT PRIMARY KEY,
    grant_id   TEXT NOT NULL REFERENCES oauth_grants(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    expires_at TIMESTAMPTZ NOT NULL,
    used_at    TIMESTAMPTZ
);
CREATE INDEX oauth_tokens_grant ON oauth_tokens(grant_id);
CREATE INDEX oauth_tokens_expires ON oauth_tokens(expires_at);
