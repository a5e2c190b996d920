-- Knowledge base: documents are split into chunks, the unit of search.
-- internal/kb owns documents, kb_chunks, kb_fts and kb_meta.

-- A document seeded from the content files carries the key of the content
-- it came from, so re-seeding replaces it instead of adding a copy; manual
-- documents have none and seeding never touches them.
ALTER TABLE documents ADD COLUMN seed_key TEXT;
CREATE UNIQUE INDEX documents_seed_key ON documents(seed_key) WHERE seed_key IS NOT NULL;

-- AUTOINCREMENT: a chunk id is never reused, because servers keep vectors in
-- memory by chunk id. A chunk's text never changes; an edit writes new chunks.
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

-- Full-text index of the chunks (rowid = kb_chunks.id), with the document's
-- title and tags beside each chunk's text so bm25 can weight them. Porter
-- stemming over unicode61 matches word forms ("agents" finds "agent").
CREATE VIRTUAL TABLE kb_fts USING fts5(
    title, tags, body,
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- A chunk leaves the index with its row, however it goes (a document's
-- delete cascades), so the index never points at a missing chunk.
CREATE TRIGGER kb_chunks_unindex AFTER DELETE ON kb_chunks BEGIN
    DELETE FROM kb_fts WHERE rowid = old.id;
END;

-- Small facts about the knowledge base, such as the hash of the seeded content.
CREATE TABLE kb_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
