-- Rate limits shared between instances live in PostgreSQL only (see the
-- PostgreSQL twin of this file): one SQLite database means one instance,
-- whose limits count in memory (internal/ratelimit). Nothing to do here; the
-- file keeps the two engines' migration numbers in step.
SELECT 1;
