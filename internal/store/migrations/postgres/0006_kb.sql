-- Knowledge base: documents are split into chunks, the unit of search.
-- internal/kb owns documents, kb_chunks and kb_meta.

-- A document seeded from the content files carries the key of the content
-- it came from, so re-seeding replaces it instead of adding a copy; manual
-- documents have none and seeding never touches them.
ALTER TABLE documents ADD COLUMN seed_key TEXT;
CREATE UNIQUE INDEX documents_seed_key ON documents(seed_key) WHERE seed_key IS NOT NULL;

-- Identity ids are never reused, because servers keep vectors in memory by
-- chunk id. A chunk's text never changes; an edit writes new chunks.
CREATE TABLE kb_chunks (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id     TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    ordinal         INTEGER NOT NULL CHECK (ordinal >= 0),
    content         TEXT NOT NULL CHECK (char_length(content) > 0),
    -- the document's title (weight A), tags (B) and the chunk's text (C),
    -- stemmed with the 'english' configuration
    search          TSVECTOR NOT NULL,
    -- little-endian float32s from embedding_model; NULL until the worker has them
    embedding       BYTEA CHECK (embedding IS NULL OR (octet_length(embedding) > 0 AND octet_length(embedding) % 4 = 0)),
    embedding_model TEXT,
    embed_attempts  INTEGER NOT NULL DEFAULT 0 CHECK (embed_attempts >= 0),
    -- the worker leaves the chunk alone until then: a claim's lease or a retry's back-off
    embed_after     TIMESTAMPTZ,
    embed_error     TEXT,
    UNIQUE (document_id, ordinal),
    CHECK ((embedding IS NULL) = (embedding_model IS NULL))
);
CREATE INDEX kb_chunks_search ON kb_chunks USING GIN (search);
CREATE INDEX kb_chunks_model ON kb_chunks(embedding_model);

-- Small facts about the knowledge base, such as the hash of the seeded content.
CREATE TABLE kb_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
