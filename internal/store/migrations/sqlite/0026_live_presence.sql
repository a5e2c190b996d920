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
    expires_unix INTEGER NOT NULL,
    PRIMARY KEY (user_id, instance)
);
CREATE INDEX live_presence_expires ON live_presence (expires_unix);
