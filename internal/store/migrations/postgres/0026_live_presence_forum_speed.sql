-- Which members have a live-update stream (an open tab of the members
-- area) on which instance (internal/events/presence.go). A push is for a
-- member with no open tab anywhere, and with several instances the tab may
-- be on another one than the instance that drains the push outbox. A row
-- lives while its instance's heartbeat renews it: an instance that stops
-- without deleting its rows leaves rows that expire (expires_unix, seconds
-- since the Unix epoch on the instances' clock) and are then ignored, and
-- deleted by the next heartbeat of any instance.
CREATE TABLE live_presence (
    instance     TEXT NOT NULL,
    user_id      TEXT NOT NULL, -- no foreign key: a deleted account's rows expire with its streams
    expires_unix BIGINT NOT NULL,
    PRIMARY KEY (user_id, instance)
);
CREATE INDEX live_presence_expires ON live_presence (expires_unix);

-- The community at speed (issue 30: 5,000 threads × 20 replies). A thread's
-- reply count, in the list and the thread, counts the shown replies: this
-- index answers it from the index alone instead of reading each reply's
-- row for hidden_at. The search ranks the newest matching posts only (see
-- internal/forum/search.go), which on PostgreSQL walks the replies newest
-- first: forum_replies_created is that order.
CREATE INDEX forum_replies_shown ON forum_replies(thread_id) WHERE hidden_at IS NULL;
CREATE INDEX forum_replies_created ON forum_replies(created_at DESC);
