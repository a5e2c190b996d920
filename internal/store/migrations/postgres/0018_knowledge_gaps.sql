-- Knowledge gaps (PostgreSQL): questions whose best knowledge-base match was
-- weak, so the owner can see what the site cannot answer. Only the question
-- and when it was asked are kept, never who asked; rows older than 90 days
-- are deleted (internal/gaps). Keep the SQLite twin in step.
CREATE TABLE knowledge_gaps (
    id       TEXT PRIMARY KEY,
    question TEXT NOT NULL CHECK (length(question) BETWEEN 1 AND 1000),
    asked_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX knowledge_gaps_asked ON knowledge_gaps(asked_at);
