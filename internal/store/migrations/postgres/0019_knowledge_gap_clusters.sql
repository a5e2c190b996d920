-- Knowledge gaps clustered on write (PostgreSQL): each question joins a cluster
-- when it is stored (internal/gaps), so the admins' list reads clusters a
-- page at a time instead of grouping every question kept on each view.
-- A cluster's words are those of the question that started it (the key a
-- new question is compared with); asked and last_asked are kept by each
-- write and recounted by the sweep. Rows stored before this migration have
-- no cluster yet: the gaps worker clusters them (and redacts them) in the
-- background at start-up. Keep the SQLite twin in step.
CREATE TABLE knowledge_gap_clusters (
    id         TEXT PRIMARY KEY,
    question   TEXT NOT NULL,
    words      INTEGER NOT NULL CHECK (words >= 0),
    exact      TEXT NOT NULL DEFAULT '',
    asked      INTEGER NOT NULL CHECK (asked >= 0),
    last_asked TIMESTAMPTZ NOT NULL
);
CREATE INDEX knowledge_gap_clusters_page ON knowledge_gap_clusters(asked DESC, last_asked DESC, id DESC);
CREATE INDEX knowledge_gap_clusters_exact ON knowledge_gap_clusters(exact) WHERE exact <> '';
CREATE TABLE knowledge_gap_words (
    word       TEXT NOT NULL,
    cluster_id TEXT NOT NULL REFERENCES knowledge_gap_clusters(id) ON DELETE CASCADE,
    PRIMARY KEY (word, cluster_id)
);
CREATE INDEX knowledge_gap_words_cluster ON knowledge_gap_words(cluster_id);
ALTER TABLE knowledge_gaps ADD COLUMN cluster_id TEXT;
CREATE INDEX knowledge_gaps_cluster ON knowledge_gaps(cluster_id, asked_at);
