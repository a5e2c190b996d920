-- The projects board and the member directory (PostgreSQL). Keep the SQLite
-- twin in step.

-- Whether the member is listed in the member directory: off until they opt in.
ALTER TABLE profiles ADD COLUMN in_directory BOOLEAN NOT NULL DEFAULT FALSE;

-- What members built. Tags are stored joined by commas (a tag never holds
-- one). A hidden project has the admin's reason, who hid it and when; the
-- three go together.
CREATE TABLE projects (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    title         TEXT NOT NULL CHECK (char_length(title) BETWEEN 1 AND 120),
    link          TEXT NOT NULL CHECK (char_length(link) BETWEEN 1 AND 500),
    description   TEXT NOT NULL CHECK (char_length(description) BETWEEN 1 AND 500),
    repo_url      TEXT CHECK (repo_url IS NULL OR char_length(repo_url) BETWEEN 1 AND 500),
    tags          TEXT NOT NULL DEFAULT '' CHECK (char_length(tags) <= 200),
    hidden_reason TEXT CHECK (hidden_reason IS NULL OR char_length(hidden_reason) BETWEEN 1 AND 500),
    hidden_by     TEXT REFERENCES users(id) ON DELETE SET NULL,
    hidden_at     TIMESTAMPTZ,
    created_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK ((hidden_at IS NULL) = (hidden_reason IS NULL))
);
CREATE INDEX projects_user ON projects(user_id);
CREATE INDEX projects_created ON projects(created_at);

-- One "🔥" per member and project.
CREATE TABLE project_reactions (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX project_reactions_user ON project_reactions(user_id);

-- Plain-text comments on a project.
CREATE TABLE project_comments (
    id         TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    body       TEXT NOT NULL CHECK (char_length(body) BETWEEN 1 AND 2000),
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX project_comments_project ON project_comments(project_id, created_at);
CREATE INDEX project_comments_user ON project_comments(user_id);
