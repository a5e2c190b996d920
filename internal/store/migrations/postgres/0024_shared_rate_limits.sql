-- Rate limits shared by every instance on this database
-- (internal/ratelimit/shared.go): one row per limit and key, updated in one
-- statement under the row's lock, so N instances allow exactly what one
-- does. Times are seconds since the Unix epoch (the statements do their
-- arithmetic in seconds). ratelimit.Prune, run by every instance's sweeper,
-- deletes the rows that hold nothing any more: a bucket full again
-- (full_at), failures forgotten (forget_at). The SQLite twin of this file
-- is empty: one SQLite database means one instance, which counts in memory.
CREATE TABLE rate_buckets (
  name TEXT NOT NULL,
  key TEXT NOT NULL,
  tokens DOUBLE PRECISION NOT NULL,
  at DOUBLE PRECISION NOT NULL,
  allowed BOOLEAN NOT NULL,
  full_at DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (name, key)
);
CREATE INDEX rate_buckets_full_at ON rate_buckets (full_at);

CREATE TABLE rate_failures (
  name TEXT NOT NULL,
  key TEXT NOT NULL,
  count INTEGER NOT NULL,
  last DOUBLE PRECISION NOT NULL,
  not_before DOUBLE PRECISION NOT NULL,
  forget_at DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (name, key)
);
CREATE INDEX rate_failures_forget_at ON rate_failures (forget_at);
