-- Knowledge-base documents that another part of the site keeps in step
-- with its own rows (internal/kb owns the column): origin names that row,
-- such as "library:{item id}" for the passages of a replay's transcript,
-- which are replaced together when the transcript changes and removed
-- with the item. Written documents and seeded ones have none.
ALTER TABLE documents ADD COLUMN origin TEXT;
CREATE INDEX documents_origin ON documents(origin) WHERE origin IS NOT NULL;
