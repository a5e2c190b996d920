// Package kb is the knowledge base: documents that admins write or that are
// seeded from the site's content files, split into chunks, and search over
// them. Full-text ranking runs in the database (SQLite FTS5 with bm25,
// PostgreSQL tsvector with ts_rank_cd); when an embedding model is
// configured, a background worker stores one vector per chunk and search
// fuses full-text and vector rankings. The package owns the tables
// documents, kb_chunks, kb_fts (SQLite) and kb_meta.
//
// Service is the one entry point, shared by the HTTP handlers, the AI chat
// and the MCP server: Search answers questions, List/Get/Create/Update/Delete
// manage documents, Seed loads the content files.
package kb
