-- The days each member played each recording of the library, so that
-- Insights counts "replays watched" per month (internal/library owns the
-- table). library_progress keeps only where a member is now; this keeps
-- when they watched. finished is set on the day the member finished the
-- recording. item_id is not a reference: a deleted replay stays counted in
-- the months it was watched. A deleted account takes its rows with it.
-- Keep the PostgreSQL twin in step.
CREATE TABLE library_plays (
    item_id  TEXT NOT NULL,
    user_id  TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day      TEXT NOT NULL, -- YYYY-MM-DD, UTC
    finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
    PRIMARY KEY (item_id, user_id, day)
);
CREATE INDEX library_plays_day ON library_plays(day);

-- What progress already says: the last day each member played a recording.
INSERT INTO library_plays (item_id, user_id, day, finished)
SELECT p.item_id, p.user_id, substr(p.updated_at, 1, 10), p.completed
  FROM library_progress p JOIN library_items i ON i.id = p.item_id
 WHERE i.kind = 'recording' AND (p.position_s > 0 OR p.completed = 1);
